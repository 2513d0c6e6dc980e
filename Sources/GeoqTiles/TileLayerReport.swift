/// What became of one layer's features in an encoded tile. Every feature given is counted in
/// exactly one of the four counts.
public struct TileLayerReport: Hashable, Sendable {
    public var name: String
    /// Features written to the tile.
    public var featuresKept: Int
    /// Features that met the tile but were too small to draw once simplified and rounded.
    public var featuresTooSmall: Int
    /// Features left out to keep the tile under its size cap.
    public var featuresOverSizeCap: Int
    /// Features that did not meet the tile with its buffer.
    public var featuresOutside: Int

    public init(name: String, featuresKept: Int, featuresTooSmall: Int, featuresOverSizeCap: Int, featuresOutside: Int)
    {
        self.name = name
        self.featuresKept = featuresKept
        self.featuresTooSmall = featuresTooSmall
        self.featuresOverSizeCap = featuresOverSizeCap
        self.featuresOutside = featuresOutside
    }
}
