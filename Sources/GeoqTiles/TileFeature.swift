/// A feature ready for a layer: its geometry on the tile's grid, its attributes and its
/// optional numeric id (MVT 2.1 §4.2).
public struct TileFeature: Hashable, Sendable {
    /// One attribute: a key and its value.
    public struct Attribute: Hashable, Sendable {
        public var key: String
        public var value: TileValue

        public init(key: String, value: TileValue) {
            self.key = key
            self.value = value
        }
    }

    /// The `id` field, when the feature has a numeric id.
    public var id: UInt64?
    /// The attributes in the order they are written; a key should appear once.
    public var attributes: [Attribute]
    public var geometry: TileGeometry

    public init(id: UInt64? = nil, attributes: [Attribute] = [], geometry: TileGeometry) {
        self.id = id
        self.attributes = attributes
        self.geometry = geometry
    }
}
