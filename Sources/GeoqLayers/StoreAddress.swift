import Foundation
import GeoqPostGIS

/// Where geoq's store is: a GeoPackage file (the embedded default), or a PostgreSQL/PostGIS
/// database that many geoq processes share.
///
/// A `--store` text written as an address (`scheme://...`) is never taken for a file name: a
/// `postgresql://` or `postgres://` address is the database, any other scheme is an error.
public enum StoreAddress: Sendable, Hashable, CustomStringConvertible {
    case geoPackage(URL)
    case postgreSQL(PostgresAddress)

    /// Parses a `--store` or `$GEOQ_STORE` text: an address, or a file path relative to
    /// `workingDirectory`.
    public init(
        parsing text: String,
        relativeTo workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LayerError) {
        if Self.looksLikeAddress(text) {
            do { self = .postgreSQL(try PostgresAddress(parsing: text, environment: environment)) } catch {
                throw .store(error)
            }
        } else {
            self = .geoPackage(URL(fileURLWithPath: text, relativeTo: workingDirectory).standardizedFileURL)
        }
    }

    /// Whether `text` is written as an address (`scheme://...`) rather than a file path: such a
    /// text is never taken for a file name, whatever its scheme.
    public static func looksLikeAddress(_ text: String) -> Bool {
        guard let range = text.range(of: "://") else { return false }
        let scheme = text[..<range.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// The GeoPackage file, or nil for a database.
    public var file: URL? {
        if case .geoPackage(let url) = self { return url }
        return nil
    }

    /// The file's path, or the database's address without its password.
    public var description: String {
        switch self {
        case .geoPackage(let url): url.path
        case .postgreSQL(let address): address.description
        }
    }
}
