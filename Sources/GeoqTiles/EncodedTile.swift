/// An encoded vector tile and what was left out of it.
public struct EncodedTile: Hashable, Sendable {
    /// The `Tile` message, uncompressed. Empty when no layer kept a feature (an empty message is
    /// a valid tile without layers).
    public var bytes: [UInt8]
    /// One report per layer given, in the order given, including layers left out of the bytes
    /// because none of their features was kept.
    public var layers: [TileLayerReport]

    public init(bytes: [UInt8], layers: [TileLayerReport]) {
        self.bytes = bytes
        self.layers = layers
    }

    /// Features left out of the tile to keep it under the size cap, over all layers.
    public var featuresOverSizeCap: Int { layers.reduce(0) { $0 + $1.featuresOverSizeCap } }
    /// Features too small to draw, over all layers.
    public var featuresTooSmall: Int { layers.reduce(0) { $0 + $1.featuresTooSmall } }
    /// Features written, over all layers.
    public var featuresKept: Int { layers.reduce(0) { $0 + $1.featuresKept } }
}
