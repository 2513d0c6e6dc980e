import Foundation
import GeoqJSON
import GeoqLayers
import GeoqQuery
import GeoqSchedule

/// Renders which-sector answers in the chosen ``OutputFormat``.
struct AnswerRenderer {
    let format: OutputFormat
    let lookup: SectorLookup
    /// The language of the text answers (the approximation note itself comes translated).
    var language: Language = .en

    /// A whole answer for a single query, ending with a newline.
    func single(_ answer: SectorAnswer) -> String {
        switch format {
        case .text: return Self.text(answer, language: language) + "\n"
        case .json: return Self.json(answer, pretty: true) + "\n"
        case .geojson: return Self.serialise(lookup.geoJSON(for: answer), pretty: true) + "\n"
        }
    }

    /// One line of a batch answer.
    func batchLine(_ answer: SectorAnswer, line: Int, id: String?) -> String {
        switch format {
        case .text:
            return "line \(line)\(id.map { " (\($0))" } ?? ""): "
                + Self.text(answer, language: language).replacingOccurrences(of: "\n", with: " ") + "\n"
        case .json:
            // The same line as the service's batch answers (one writer for both).
            var json = JSONText()
            answer.write(to: &json, line: line, feature: nil, id: id)
            return String(decoding: json.bytes, as: UTF8.self) + "\n"
        case .geojson:
            var collection = lookup.geoJSON(for: answer)
            collection["line"] = line
            if let id { collection["id"] = id }
            return Self.serialise(collection, pretty: false) + "\n"
        }
    }

    /// The line written in place of an answer for a bad input line.
    func batchError(_ message: String, line: Int, id: String?) -> String {
        switch format {
        case .text: return "\(message)\n"
        case .json, .geojson:
            var object: [String: Any] = ["line": line, "error": ["code": "bad-input", "message": message]]
            if let id { object["id"] = id }
            return Self.serialise(object, pretty: false) + "\n"
        }
    }

    static func errorJSON(code: String, message: String) -> String {
        serialise(["error": ["code": code, "message": message]], pretty: false)
    }

    // MARK: Text

    /// "Time zone: Europe/Madrid, UTC+01:00; local time 2026-01-15T13:00:00+01:00."
    static func text(_ time: LocalTime, language: Language) -> String {
        let label = [Language.es: "Huso horario", .eu: "Ordu-eremua", .en: "Time zone"][language]!
        guard let offset = time.utcOffset, let local = time.localTime else {
            return "\(label): \(time.zone) (\(time.problem ?? "no offset known"))."
        }
        let localLabel = [Language.es: "hora local", .eu: "tokiko ordua", .en: "local time"][language]!
        return "\(label): \(time.zone), UTC\(offset); \(localLabel) \(local)."
    }

    static func text(_ a: SectorAnswer, language: Language = .en) -> String {
        let at = "\(a.query.latitude), \(a.query.longitude)"
        var lines: [String] = []
        if a.inside.isEmpty {
            var line =
                switch language {
                case .es: "\(at) está fuera de todos los elementos de \(a.layer)."
                case .eu: "\(at) ez dago \(a.layer) geruzako inongo elementutan."
                case .en: "\(at) is outside every feature of \(a.layer)."
                }
            if let n = a.nearest {
                let name = label(n, language), distance = metres(n.distanceToEdgeMetres, language)
                switch language {
                case .es: line += " Más cercano: \(name), a \(distance)."
                case .eu: line += " Hurbilena: \(name), \(distance) urrun."
                case .en: line += " Nearest: \(name), \(distance) away."
                }
            }
            lines.append(line)
        } else {
            for m in a.inside {
                let name = label(m, language), onEdge = m.location == "boundary"
                let distance = metres(m.distanceToEdgeMetres, language)
                switch language {
                case .es:
                    lines.append(
                        "\(at) está en \(name) de \(a.layer), "
                            + (onEdge ? "sobre su borde." : "a \(distance) dentro de su borde."))
                case .eu:
                    lines.append(
                        "\(at) \(name) barruan dago (\(a.layer)), "
                            + (onEdge ? "ertzean." : "ertzetik \(distance) barrurago."))
                case .en:
                    lines.append(
                        "\(at) is in \(name) of \(a.layer), "
                            + (onEdge ? "on its edge." : "\(distance) inside its edge."))
                }
            }
        }
        if let hint = a.swapHint {
            let features = hint.features.joined(separator: ", ")
            switch language {
            case .es:
                lines.append(
                    "Pista: los números parecen intercambiados: latitud \(hint.latitude), longitud \(hint.longitude) está en \(features) (\(hint.layer)). geoq espera LAT LON."
                )
            case .eu:
                lines.append(
                    "Oharra: zenbakiak trukatuta daudela dirudi: \(hint.latitude) latitudea, \(hint.longitude) longitudea \(features) barruan dago (\(hint.layer)). geoq-ek LAT LON hartzen ditu."
                )
            case .en:
                lines.append(
                    "Hint: the numbers look swapped: latitude \(hint.latitude), longitude \(hint.longitude) is in \(features) (\(hint.layer)). geoq takes LAT LON."
                )
            }
        }
        if let time = a.timeZone { lines.append(text(time, language: language)) }
        if let note = a.approximation {
            let label = [Language.es: "Aproximado", .eu: "Gutxi gorabeherakoa", .en: "Approximate"][language]!
            lines.append("\(label): \(note)")
        }
        return lines.joined(separator: "\n")
    }

    static func label(_ m: SectorAnswer.Match, _ language: Language = .en) -> String {
        guard let name = m.name, name != m.id else {
            return [Language.es: "el elemento \(m.id)", .eu: "\(m.id) elementua", .en: "feature \(m.id)"][language]!
        }
        return "\(name) (id \(m.id))"
    }

    /// A distance as a person reads it: whole metres, or kilometres with one decimal from
    /// 10 km; Spanish and Basque write the decimal with a comma (354,1 km).
    static func metres(_ d: Double, _ language: Language = .en) -> String {
        guard d >= 10_000 else { return String(format: "%.0f m", d) }
        let km = String(format: "%.1f km", d / 1000)
        return language == .en ? km : km.replacingOccurrences(of: ".", with: ",")
    }

    // MARK: JSON

    static func json(_ answer: SectorAnswer, pretty: Bool) -> String {
        serialise(jsonObject(answer), pretty: pretty)
    }

    static func jsonObject(_ answer: SectorAnswer) -> [String: Any] {
        let encoder = JSONEncoder()
        // Encodable -> Foundation object, so batch lines can add "line" and "id".
        guard let data = try? encoder.encode(answer),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return ["error": ["code": "internal", "message": "could not encode the answer"]] }
        return object
    }

    /// An answer type as sorted JSON (pretty by default): what every `--format json` prints.
    static func encoded(_ value: some Encodable, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func serialise(_ object: Any, pretty: Bool) -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
