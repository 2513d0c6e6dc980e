import GeoqCore

/// A layer's features after reading and checking, before any index is built: what an import
/// writes to the store.
public struct PreparedLayer: Sendable {
    /// In WGS84, ids unique.
    public var features: [Feature]
    /// The CRS the source was in ("EPSG:4326" when it said nothing and looks like degrees).
    public var sourceCRS: String
    /// What a user should know: reader warnings, derived ids, merged rows, kept invalid polygons.
    public var notes: [String]
    public var report: LoadReport
}
