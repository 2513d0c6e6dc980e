/// One layer of a tile, its features already on the grid (what ``MVTEncoder`` writes), with
/// the counts of features that did not make it so far, carried into the tile's report.
public struct TileLayer: Hashable, Sendable {
    /// The layer's name; the names of a tile's layers must differ.
    public var name: String
    /// Grid units along a side of the tile.
    public var extent: Int
    public var features: [TileFeature]
    /// Features that met the tile but vanished when simplified and rounded to the grid.
    public var featuresTooSmall: Int
    /// Features that did not meet the tile with its buffer.
    public var featuresOutside: Int

    public init(
        name: String, extent: Int = 4096, features: [TileFeature], featuresTooSmall: Int = 0, featuresOutside: Int = 0
    ) {
        self.name = name
        self.extent = extent
        self.features = features
        self.featuresTooSmall = featuresTooSmall
        self.featuresOutside = featuresOutside
    }
}
