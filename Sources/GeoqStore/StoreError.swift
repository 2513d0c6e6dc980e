/// Why a GeoPackage store could not be opened, read or written.
///
/// `code` is stable (scripts and the CLI may match on it); `message` is for people and names the
/// file, the layer and the feature where they are known.
public struct StoreError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The stable kinds of failure.
    public enum Code: String, Sendable, Hashable {
        /// The file is missing, unreadable, or not an SQLite database.
        case storeUnreadable = "store-unreadable"
        /// An SQLite database, but not a GeoPackage (wrong application_id or no gpkg_contents).
        case notAGeoPackage = "not-a-geopackage"
        /// No layer of that name in the store.
        case unknownLayer = "unknown-layer"
        /// The layer to write is not storable (bad name, clashing column names).
        case badLayer = "bad-layer"
        /// A geometry blob is malformed or of an unsupported type.
        case badGeometry = "bad-geometry"
        /// SQLite reported an error (the message carries sqlite3_errmsg and the SQL).
        case sqlite
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The same error with a prefix saying where it happened (file, layer, feature).
    package func within(_ context: String) -> StoreError {
        StoreError(code, "\(context): \(message)")
    }
}
