import GeoqCore

/// A feature id built from attributes: `{field}` inserts a value as text, `{field:0N}` a whole
/// number zero-padded to N digits ("{Código Distrito:02}{Código Sección:02}" gives "0544"
/// for district 5, section 44).
struct IDTemplate {
    enum Piece: Equatable {
        case literal(String)
        case field(String, width: Int?)
    }

    let pieces: [Piece]
    let text: String

    init(_ template: String) {
        text = template
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
            let inside = rest[rest.index(after: open)..<close]
            if let colon = inside.lastIndex(of: ":"), let width = Int(inside[inside.index(after: colon)...]) {
                pieces.append(.field(String(inside[..<colon]), width: width))
            } else {
                pieces.append(.field(String(inside), width: nil))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        self.pieces = pieces
    }

    /// Why an id cannot be built for a feature.
    struct Problem: Error { let why: String }

    /// The id of `feature`.
    func id(of feature: Feature) throws(Problem) -> String {
        var id = ""
        for piece in pieces {
            switch piece {
            case .literal(let s): id += s
            case .field(let name, let width):
                guard let value = feature.properties[name]?.text, !value.isEmpty else {
                    throw Problem(why: "field '\(name)' is empty")
                }
                guard let width else {
                    id += value
                    continue
                }
                guard let number = Int(value), number >= 0 else {
                    throw Problem(why: "field '\(name)' is '\(value)', not a whole number")
                }
                let digits = String(number)
                id += String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
            }
        }
        return id
    }

    /// Gives every feature its templated id. Where `idField` is set, checks it: an empty value
    /// is noted, a different value is an error.
    func apply(to features: [Feature], checking idField: String?, path: String) throws(LayerError) -> (
        [Feature], [String]
    ) {
        var result = features
        var derived: [String] = []
        for i in result.indices {
            let label = "feature #\(i + 1)"
            let id: String
            do { id = try self.id(of: result[i]) } catch {
                throw .sourceMalformed(
                    path: path, message: "\(path): \(label): cannot build the id '\(text)': \(error.why)")
            }
            if let idField {
                let declared = result[i].properties[idField]?.text ?? ""
                if declared.isEmpty {
                    derived.append("\(label) → \(id)")
                } else if declared != id {
                    throw .sourceMalformed(
                        path: path,
                        message: "\(path): \(label): '\(idField)' is '\(declared)' but '\(text)' gives '\(id)'")
                }
            }
            result[i].id = id
        }
        let notes =
            derived.isEmpty
            ? []
            : [
                "'\(idField ?? "id")' is empty in \(derived.count) row(s); id derived from '\(text)': \(derived.joined(separator: ", "))"
            ]
        return (result, notes)
    }

    /// Ids from `idField`; where it is empty, from this template, each such row noted
    /// (Valencia's falla OBJECTID 5061 has no 'Id. Falla').
    func fillGaps(in features: [Feature], idField: String, path: String) throws(LayerError) -> ([Feature], [String]) {
        var result = features
        var filled: [String] = []
        for i in result.indices {
            if let value = result[i].properties[idField]?.text, !value.isEmpty {
                result[i].id = value
                continue
            }
            let id: String
            do { id = try self.id(of: result[i]) } catch {
                throw .sourceMalformed(
                    path: path,
                    message:
                        "\(path): feature #\(i + 1): '\(idField)' is empty and '\(text)' cannot replace it: \(error.why)"
                )
            }
            result[i].id = id
            filled.append("feature #\(i + 1)\(result[i].name.map { " (\($0))" } ?? "") → \(id)")
        }
        let notes =
            filled.isEmpty
            ? []
            : ["'\(idField)' is empty in \(filled.count) row(s); id from '\(text)': \(filled.joined(separator: ", "))"]
        return (result, notes)
    }
}
