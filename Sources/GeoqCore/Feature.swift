/// One feature of a layer: an identifier, a display name, a geometry and its attributes.
public struct Feature: Hashable, Sendable {
    /// Stable identifier within its layer (the source's id field, or the 1-based row).
    public var id: String
    /// Human-readable name, when the source has one.
    public var name: String?
    public var geometry: Geometry
    /// The source's attributes, unchanged.
    public var properties: [String: PropertyValue]

    public init(
        id: String, name: String? = nil, geometry: Geometry,
        properties: [String: PropertyValue] = [:]
    ) {
        self.id = id
        self.name = name
        self.geometry = geometry
        self.properties = properties
    }
}

/// An attribute value as found in GeoJSON properties, DBF fields or CSV columns.
public enum PropertyValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The value as text, for ids and names (`3.0` prints as `3`).
    public var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let d):
            if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        case .bool(let b): return String(b)
        case .null: return nil
        }
    }
}
