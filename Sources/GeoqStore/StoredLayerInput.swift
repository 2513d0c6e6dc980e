import GeoqCore

/// A layer to write into a ``GeoPackage``: its features and where they came from.
public struct StoredLayerInput: Sendable {
    /// The table name: lower-case ASCII letters, digits, `_` and `-` (e.g. `pamplona-sectors`).
    public var name: String
    /// Human-readable title (gpkg_contents.description and geoq_layers.title; titles may repeat).
    public var title: String
    /// The features, in the order they are stored and read back.
    public var features: [Feature]
    /// Where the features came from (a path or URL).
    public var source: String
    /// The CRS of the source before reprojection to WGS84 (e.g. `EPSG:25830`).
    public var sourceCRS: String
    /// Why the layer is only approximate, when it is.
    public var approximate: String?
    /// Free notes (each one line; line breaks inside a note are stored as spaces).
    public var notes: [String]

    public init(
        name: String, title: String, features: [Feature], source: String, sourceCRS: String,
        approximate: String? = nil, notes: [String] = []
    ) {
        self.name = name
        self.title = title
        self.features = features
        self.source = source
        self.sourceCRS = sourceCRS
        self.approximate = approximate
        self.notes = notes
    }
}
