import GeoqCore

/// One attribute of a layer as `geoq info` and `/v1/layers` list it: its name, the type of its
/// values and an example, so that a person can choose `--name-field` or a filter without
/// opening the file.
public struct LayerAttribute: Codable, Hashable, Sendable {
    public var name: String
    /// `number` when every value is a number, `boolean` when every value is true or false,
    /// else `text` (also for an attribute that is empty everywhere).
    public var type: String
    /// The first non-empty value in layer order, as text; nil when every value is empty.
    public var example: String?

    public init(name: String, type: String, example: String?) {
        self.name = name
        self.type = type
        self.example = example
    }

    /// The attributes of `features`, sorted by name (as the store's columns are).
    public static func describe(_ features: [Feature]) -> [LayerAttribute] {
        var kinds: [String: Set<String>] = [:]
        var examples: [String: String] = [:]
        for f in features {
            for (key, value) in f.properties {
                switch value {
                case .null:
                    if kinds[key] == nil { kinds[key] = [] }
                case .number: kinds[key, default: []].insert("number")
                case .bool: kinds[key, default: []].insert("boolean")
                case .string(let s):
                    kinds[key, default: []].insert("text")
                    if s.isEmpty { continue }
                }
                if examples[key] == nil, let text = value.text, !text.isEmpty { examples[key] = text }
            }
        }
        return kinds.keys.sorted().map { key in
            let types = kinds[key]!
            return LayerAttribute(name: key, type: types.count == 1 ? types.first! : "text", example: examples[key])
        }
    }
}
