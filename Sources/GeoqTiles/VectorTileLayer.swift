import GeoqCore

/// A named layer of features in longitude and latitude, to be cut into tiles by
/// ``VectorTileEncoder``.
public struct VectorTileLayer: Hashable, Sendable {
    /// The layer's name in the tile; the names of a tile's layers must differ.
    public var name: String
    public var features: [Feature]

    public init(name: String, features: [Feature]) {
        self.name = name
        self.features = features
    }
}
