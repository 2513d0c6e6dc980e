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
    /// The features' attributes, when they were numbered once for the whole layer: then each
    /// feature's own ``TileFeature/attributes`` are not read.
    public var sharedAttributes: SharedAttributes?

    /// A layer-wide table of attributes and the row of each of the layer's features in it.
    public struct SharedAttributes: Hashable, Sendable {
        public var table: TileAttributeTable
        /// The row of each feature, in the order of ``TileLayer/features``.
        public var rows: [Int]

        public init(table: TileAttributeTable, rows: [Int]) {
            self.table = table
            self.rows = rows
        }
    }

    public init(
        name: String, extent: Int = 4096, features: [TileFeature], featuresTooSmall: Int = 0, featuresOutside: Int = 0,
        sharedAttributes: SharedAttributes? = nil
    ) {
        precondition(
            sharedAttributes.map { $0.rows.count == features.count } ?? true, "one row of attributes for each feature")
        self.name = name
        self.extent = extent
        self.features = features
        self.featuresTooSmall = featuresTooSmall
        self.featuresOutside = featuresOutside
        self.sharedAttributes = sharedAttributes
    }
}
