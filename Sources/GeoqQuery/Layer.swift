import GeoqCore

/// A named set of areal features, indexed and ready for point queries. Immutable, so it can
/// be shared between threads.
public struct Layer: Sendable {
    public let name: String
    public let title: String
    /// The features, in source order (after selection and merging of repeated ids).
    /// Item `i` of ``index`` is `features[i]`.
    public let features: [Feature]
    public let index: PolygonIndex
    /// When the layer only approximates what its name promises, the explanation every answer
    /// must carry; nil for an exact layer.
    public let approximation: ApproximationNote?
    /// The file the layer was read from.
    public let source: String
    /// The CRS the source was in, as declared or assumed ("EPSG:4326" when it said nothing
    /// and its coordinates look like degrees).
    public let sourceCRS: String
    /// What loading did that a user should know: merged repeated ids, invalid polygons kept.
    public let notes: [String]
    /// For a time-zone layer (``marking(timeZoneField:)``), each feature's zone; nil otherwise.
    public internal(set) var timeZones: FeatureTimeZones?

    /// Builds the layer; `index`, when given, must index `features` (item `i` is `features[i]`),
    /// as a stored index read back does; else it is built here.
    public init(
        name: String, title: String, features: [Feature], approximation: ApproximationNote?,
        source: String, sourceCRS: String, notes: [String], index: PolygonIndex? = nil
    ) {
        precondition(index == nil || index?.count == features.count, "an index of other features")
        self.name = name
        self.title = title
        self.features = features
        self.index = index ?? Self.index(of: features)
        self.approximation = approximation
        self.source = source
        self.sourceCRS = sourceCRS
        self.notes = notes
    }

    public var isApproximate: Bool { approximation != nil }

    /// The index ``init(name:title:features:approximation:source:sourceCRS:notes:index:)``
    /// builds when it is given none: item `i` is `features[i]`'s areal part.
    public static func index(of features: [Feature]) -> PolygonIndex { PolygonIndex(shapes(of: features)) }

    /// What a layer's index is built from: each feature's areal geometry (none for others).
    public static func shapes(of features: [Feature]) -> [MultiPolygon] {
        features.map { $0.geometry.areal ?? MultiPolygon([]) }
    }
}
