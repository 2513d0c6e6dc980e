import GeoqCore

/// A parsed JSON value (RFC 8259). Booleans and numbers are distinct cases, and numbers are
/// the correctly rounded `Double` of their text (see ``JSONParser``).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// A non-empty array whose every item is an array of exactly two finite numbers, kept as
    /// points (x the first number): the same JSON as the ``array(_:)`` of those pairs, and equal
    /// to it.
    case positions([Point])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.object(let x), .object(let y)): x == y
        case (.positions(let x), .positions(let y)): x == y
        case (.array, .array), (.array, .positions), (.positions, .array): a.arrayValue == b.arrayValue
        default: false
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var isNull: Bool { if case .null = self { true } else { false } }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let d) = self { d } else { nil } }
    public var arrayValue: [JSONValue]? {
        switch self {
        case .array(let a): a
        case .positions(let points): points.map { .array([.number($0.x), .number($0.y)]) }
        default: nil
        }
    }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    /// As a feature attribute: nested objects and arrays become their compact JSON text.
    var propertyValue: PropertyValue {
        switch self {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let d): .number(d)
        case .string(let s): .string(s)
        case .array, .object, .positions: .string(jsonText)
        }
    }

    /// Text of a scalar id (`"BIEN.4"`, `7`), or nil for null, booleans, objects and arrays.
    var idText: String? {
        switch self {
        case .string(let s): s
        case .number(let d): PropertyValue.number(d).text
        default: nil
        }
    }

    /// Compact JSON with sorted keys; integral numbers without a decimal point.
    var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += PropertyValue.number(d).text ?? "null"
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .positions:
            JSONValue.array(arrayValue ?? []).write(to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// A short description for error messages: `string "abc"`, `null`, `[1,2,3]`.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let d): "number \(PropertyValue.number(d).text ?? "\(d)")"
        case .string(let s): "string \"\(JSONValue.truncated(s, 40))\""
        case .array, .positions: JSONValue.truncated(jsonText, 60)
        case .object: "object " + JSONValue.truncated(jsonText, 60)
        }
    }

    static func truncated(_ s: String, _ limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit)) + "…"
    }
}
