/// Why a layer could not be found or loaded. Every case names the file and, where it
/// applies, the feature, so that a person can go and fix the data.
///
/// ``code`` is stable: faces map it to exit statuses and HTTP problem types in one place each.
public enum LayerError: Error, Equatable, Sendable {
    case catalogUnreadable(path: String, reason: String)
    case catalogMalformed(path: String, reason: String)
    case unknownLayer(name: String, known: [String])
    /// A catalog layer's source file is not in the shared data directory.
    case sourceMissing(path: String)
    /// The source of a layer whose data is fetched separately (its catalog entry's `fetch`) is
    /// not there: `fetch` is the command that gets it.
    case sourceNotFetched(layer: String, path: String, fetch: String)
    /// A file the user named (`geoq import FILE`) does not exist or cannot be read; unlike
    /// ``sourceMissing`` it has nothing to do with the data directory.
    case fileMissing(path: String, reason: String)
    /// The file exists but cannot be read as its format (message from the reader, which
    /// names the feature / line and field).
    case sourceMalformed(path: String, message: String)
    /// Coordinates that cannot be degrees and no CRS to say what they are.
    case crsMissing(path: String, sample: String)
    case reprojectionFailed(path: String, crs: String, reason: String)
    case notAreal(path: String, feature: String, geometryType: String)
    case notPoints(path: String, feature: String, geometryType: String)
    case invalidPolygon(path: String, feature: String, reason: String, location: String?)
    case emptyLayer(path: String)
    /// The GeoPackage store exists but cannot be opened or read.
    case storeUnreadable(path: String, reason: String)
    /// Writing the store failed; the store is as it was before.
    case storeWriteFailed(path: String, reason: String)
    /// The shared store cannot be used: a bad address, the server unreachable, the credentials
    /// refused, no such database, no spatial extension, or a statement refused.
    case store(SharedStoreError)

    /// A short stable identifier of the kind of error.
    public var code: String {
        switch self {
        case .catalogUnreadable: "catalog-unreadable"
        case .catalogMalformed: "catalog-malformed"
        case .unknownLayer: "unknown-layer"
        case .sourceMissing, .sourceNotFetched: "data-file-missing"
        case .fileMissing: "file-missing"
        case .sourceMalformed: "data-file-malformed"
        case .crsMissing: "crs-missing"
        case .reprojectionFailed: "reprojection-failed"
        case .notAreal: "not-polygons"
        case .notPoints: "not-points"
        case .invalidPolygon: "invalid-polygon"
        case .emptyLayer: "empty-layer"
        case .storeUnreadable: "store-unreadable"
        case .storeWriteFailed: "store-write-failed"
        case .store(let error): error.code
        }
    }
}

extension LayerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .catalogUnreadable(let path, let reason):
            "cannot read the layer catalog \(path): \(reason)"
        case .catalogMalformed(let path, let reason):
            "the layer catalog \(path) is malformed: \(reason)"
        case .unknownLayer(let name, let known):
            "unknown layer '\(name)'; known layers: \(known.joined(separator: ", "))"
        case .sourceMissing(let path):
            "data file \(path) does not exist or cannot be read (is GEOQ_DATA_DIR right?)"
        case .sourceNotFetched(let layer, let path, let fetch):
            "layer '\(layer)' needs \(path), which is fetched separately and is not there; run `\(fetch)` in the geoq repository"
        case .fileMissing(let path, let reason):
            "\(path): \(reason)"
        case .sourceMalformed(_, let message):
            message
        case .crsMissing(let path, let sample):
            "\(path): coordinates such as \(sample) cannot be longitude/latitude degrees and the file declares no CRS; say which one it is, e.g. --crs EPSG:25830"
        case .reprojectionFailed(let path, let crs, let reason):
            "\(path): cannot reproject from \(crs) to WGS84: \(reason)"
        case .notAreal(let path, let feature, let type):
            "\(path): \(feature) is a \(type); a sector layer needs Polygon or MultiPolygon features"
        case .notPoints(let path, let feature, let type):
            "\(path): \(feature) is a \(type); nearest-N answers need a layer of Point or MultiPoint features"
        case .invalidPolygon(let path, let feature, let reason, let location):
            "\(path): \(feature) is not a valid polygon: \(reason)\(location.map { " at \($0)" } ?? "") (GEOS)"
        case .emptyLayer(let path):
            "\(path): no polygon features to index"
        case .storeUnreadable(let path, let reason):
            "cannot read the store \(path): \(reason)"
        case .storeWriteFailed(let path, let reason):
            "could not write the store \(path) (left as it was): \(reason)"
        case .store(let error): error.description
        }
    }
}
