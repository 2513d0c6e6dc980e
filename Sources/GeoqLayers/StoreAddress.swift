import Foundation

/// Where geoq's store is: a GeoPackage file (the embedded default), or a database that many geoq
/// processes share, reached through the backend of the face that read its address.
///
/// A `--store` text written as an address (`scheme://...`) is never taken for a file name: the
/// face's shared-store backend reads it (and refuses a scheme it does not know); a program
/// without one refuses every address.
public enum StoreAddress: Sendable, Hashable, CustomStringConvertible {
    case geoPackage(URL)
    /// A shared database; the layers reach it only through its backend.
    case shared(any SharedStoreBackend)

    /// Parses a `--store` or `$GEOQ_STORE` text: an address, read by `sharedBackend`, or a file
    /// path relative to `workingDirectory`. Without a `sharedBackend` (a program that links no
    /// database client) an address is a bad address.
    public init(
        parsing text: String, sharedBackend: (any SharedStoreBackend.Type)? = nil,
        relativeTo workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LayerError) {
        guard let scheme = Self.scheme(of: text) else {
            self = .geoPackage(URL(fileURLWithPath: text, relativeTo: workingDirectory).standardizedFileURL)
            return
        }
        guard let sharedBackend else {
            // Only the scheme: the rest may hold a password.
            let reason = "this program keeps its store in GeoPackage files only (no database client)"
            throw .store(.badAddress("\(scheme)://…", reason: reason))
        }
        do throws(SharedStoreError) {
            self = .shared(try sharedBackend.init(parsing: text, environment: environment))
        } catch {
            throw .store(error)
        }
    }

    /// Whether `text` is written as an address (`scheme://...`) rather than a file path: such a
    /// text is never taken for a file name, whatever its scheme.
    public static func looksLikeAddress(_ text: String) -> Bool { scheme(of: text) != nil }

    /// The scheme of a text written `scheme://...` (letters, digits, `+`, `-`, `.`), else nil.
    private static func scheme(of text: String) -> Substring? {
        guard let range = text.range(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
            return nil
        }
        return scheme
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
        case .shared(let backend): backend.description
        }
    }

    public static func == (a: StoreAddress, b: StoreAddress) -> Bool {
        switch (a, b) {
        case (.geoPackage(let x), .geoPackage(let y)): x == y
        case (.shared(let x), .shared(let y)): AnyHashable(x) == AnyHashable(y)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .geoPackage(let url): hasher.combine(url)
        case .shared(let backend): hasher.combine(AnyHashable(backend))
        }
    }
}
