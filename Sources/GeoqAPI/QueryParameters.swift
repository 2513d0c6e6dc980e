import GeoqCore
import GeoqSchedule

/// The query parameters of one request, read with the errors the API promises: each names the
/// parameter and what was wrong with it.
///
/// Parameters arrive percent-decoded, in order; a name given twice is an error rather than a
/// silent choice between the two values.
public struct QueryParameters: Sendable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)]) { self.pairs = pairs }

    /// The value of `name`, or nil when absent.
    public func value(_ name: String) throws(Problem) -> String? {
        // Counted in place: every parameter of every request is read here (no array made).
        var value: String?
        var count = 0
        for pair in pairs where pair.name == name {
            count += 1
            if count == 1 { value = pair.value }
        }
        guard count <= 1 else {
            throw .invalid(
                name,
                LocalizedText(
                    es: "\(name) aparece \(count) veces; indíquelo una sola vez",
                    eu: "\(name) \(count) aldiz eman da; eman behin bakarrik",
                    en: "\(name) is given \(count) times; give it once"))
        }
        return value
    }

    /// Refuses a parameter the endpoint does not know (a typo such as `latitude=` would
    /// otherwise be silently ignored).
    public func allowOnly(_ names: Set<String>) throws(Problem) {
        if let unknown = pairs.first(where: { !names.contains($0.name) }) {
            let list = names.sorted().joined(separator: ", ")
            throw .invalid(
                unknown.name,
                LocalizedText(
                    es: "parámetro desconocido \"\(unknown.name)\"; este punto de acceso admite \(list)",
                    eu: "\"\(unknown.name)\" parametro ezezaguna; sarbide-puntu honek hauek onartzen ditu: \(list)",
                    en: "unknown parameter \"\(unknown.name)\"; this endpoint takes \(list)"))
        }
    }

    /// A required number of degrees within `range` (latitude: -90...90, longitude: -180...180);
    /// `meaning` says what it is in the error messages.
    public func degrees(_ name: String, in range: ClosedRange<Double>, meaning: LocalizedText) throws(Problem) -> Double
    {
        guard let text = try value(name), !text.isEmpty else {
            throw .missing(
                name,
                LocalizedText(
                    es: "falta \(name) (\(meaning.es))", eu: "\(name) falta da (\(meaning.eu))",
                    en: "\(name) (the \(meaning.en)) is required"))
        }
        let number = try Self.number(text, parameter: name, meaning: meaning)
        guard range.contains(number) else { throw Self.outOfRange(name, range, got: text) }
        return number
    }

    /// The problem of a number outside `range`.
    static func outOfRange(_ name: String, _ range: ClosedRange<Double>, got text: String) -> Problem {
        let (low, high) = (format(range.lowerBound), format(range.upperBound))
        return .outOfRange(
            name,
            LocalizedText(
                es: "\(name) debe estar entre \(low) y \(high); se recibió \(text)",
                eu: "\(name) \(low) eta \(high) artean egon behar da; \(text) jaso da",
                en: "\(name) must be between \(low) and \(high), got \(text)"))
    }

    /// Every value of a repeatable parameter (`category=E&category=1A`), in order; empty
    /// values are refused.
    public func values(_ name: String) throws(Problem) -> [String] {
        let values = pairs.filter { $0.name == name }.map(\.value)
        if values.contains("") {
            throw .invalid(
                name,
                LocalizedText(
                    es: "\(name) no puede estar vacío", eu: "\(name) ezin da hutsik egon",
                    en: "\(name) must not be empty"))
        }
        return values
    }

    /// An optional whole number within `range`, `defaultValue` when absent.
    public func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(Problem) -> Int {
        try integer(name, in: range) ?? defaultValue
    }

    /// An optional whole number within `range`, nil when absent.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let text = try value(name) else { return nil }
        guard text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text) else {
            let shown = Self.shown(text)
            throw .invalid(
                name,
                LocalizedText(
                    es: "\(name) debe ser un número entero; se recibió \"\(shown)\"",
                    eu: "\(name) zenbaki oso bat izan behar da; \"\(shown)\" jaso da",
                    en: "\(name) must be a whole number, got \"\(shown)\""))
        }
        guard range.contains(number) else {
            throw Self.outOfRange(name, Double(range.lowerBound)...Double(range.upperBound), got: text)
        }
        return number
    }

    /// An optional distance in metres (0 or more), nil when absent.
    public func metres(_ name: String) throws(Problem) -> Double? {
        guard let text = try value(name) else { return nil }
        let number = try Self.number(
            text, parameter: name,
            meaning: LocalizedText(es: "distancia en metros", eu: "distantzia metrotan", en: "distance in metres"))
        guard number >= 0 else {
            throw .outOfRange(
                name,
                LocalizedText(
                    es: "\(name) debe ser de 0 metros o más; se recibió \(text)",
                    eu: "\(name) 0 metro edo gehiago izan behar da; \(text) jaso da",
                    en: "\(name) must be 0 or more metres, got \(text)"))
        }
        return number
    }

    /// An optional decimal number within `range`, nil when absent; `meaning` says what it is
    /// in the error messages.
    public func number(_ name: String, in range: ClosedRange<Double>, meaning: LocalizedText) throws(Problem) -> Double?
    {
        guard let text = try value(name) else { return nil }
        let number = try Self.number(text, parameter: name, meaning: meaning)
        guard range.contains(number) else { throw Self.outOfRange(name, range, got: text) }
        return number
    }

    /// An optional `true` or `false`, `false` when absent.
    public func flag(_ name: String) throws(Problem) -> Bool {
        try choice(name, of: ["true", "false"], default: "false") == "true"
    }

    /// An optional choice among `choices`, `defaultValue` when absent.
    public func choice(_ name: String, of choices: [String], default defaultValue: String) throws(Problem) -> String {
        guard let text = try value(name) else { return defaultValue }
        guard choices.contains(text) else {
            let (list, shown) = (choices.joined(separator: ", "), Self.shown(text))
            throw .invalid(
                name,
                LocalizedText(
                    es: "\(name) debe ser uno de estos: \(list); se recibió \"\(shown)\"",
                    eu: "\(name) hauetako bat izan behar da: \(list); \"\(shown)\" jaso da",
                    en: "\(name) must be one of \(list), got \"\(shown)\""))
        }
        return text
    }

    /// The point given by `lat` and `lon` (latitude first, as people and GeoRSS write it).
    public func point() throws(Problem) -> Point {
        let latitude = try degrees(
            "lat", in: -90...90,
            meaning: LocalizedText(es: "latitud en grados", eu: "latitudea gradutan", en: "latitude in degrees"))
        let longitude = try degrees(
            "lon", in: -180...180,
            meaning: LocalizedText(es: "longitud en grados", eu: "longitudea gradutan", en: "longitude in degrees"))
        return Point(latitude: latitude, longitude: longitude)
    }

    /// A decimal number written the ordinary way (digits, one optional sign, point and
    /// exponent); no hexadecimal, no "nan" or "inf", no surrounding spaces.
    static func number(_ text: String, parameter: String, meaning: LocalizedText) throws(Problem) -> Double {
        let allowed = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        }
        guard allowed, text.utf8.count <= 64, let number = Double(text), number.isFinite else {
            let shown = shown(text)
            throw .invalid(
                parameter,
                LocalizedText(
                    es: "\(parameter) debe ser un número decimal (\(meaning.es)); se recibió \"\(shown)\"",
                    eu: "\(parameter) zenbaki hamartar bat izan behar da (\(meaning.eu)); \"\(shown)\" jaso da",
                    en: "\(parameter) must be a decimal number (the \(meaning.en)), got \"\(shown)\""))
        }
        return number
    }

    /// The comma-separated numbers of `parameter`'s `text` (a bbox), when there are as many as
    /// one of `counts`; `shape` says what is expected ("four numbers (west,south,east,north in
    /// degrees)"), `meaning` what each number is.
    static func numbers(
        _ text: String, parameter: String, counts: Set<Int>, shape: LocalizedText, meaning: LocalizedText
    ) throws(Problem) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard counts.contains(parts.count) else {
            let shown = shown(text)
            throw .invalid(
                parameter,
                LocalizedText(
                    es: "\(parameter) debe ser \(shape.es); se recibió \"\(shown)\"",
                    eu: "\(parameter) \(shape.eu) izan behar da; \"\(shown)\" jaso da",
                    en: "\(parameter) must be \(shape.en), got \"\(shown)\""))
        }
        var numbers: [Double] = []
        for part in parts { numbers.append(try number(part, parameter: parameter, meaning: meaning)) }
        return numbers
    }

    /// A value as an error message quotes it: at most 40 characters.
    static func shown(_ text: String) -> String { text.count > 40 ? String(text.prefix(40)) + "…" : text }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
