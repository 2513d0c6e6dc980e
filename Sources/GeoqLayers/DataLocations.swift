import Foundation

/// Where geoq finds its own data (the layer catalog) and the shared city data.
///
/// Rules, in order:
/// - the project root is `$GEOQ_HOME` if set, else the nearest directory holding
///   `data/layers.json`, searched upward from the working directory and then from the
///   executable's own location (so `.build/debug/geoq` works from anywhere);
/// - the catalog is `$GEOQ_CATALOG` if set, else `<root>/data/layers.json`;
/// - the shared data directory is `$GEOQ_DATA_DIR` if set (relative to the working
///   directory), else `<root>/../shared/data`;
/// - the store is `$GEOQ_STORE` if set (a GeoPackage path, or an address such as `postgresql://`
///   that the program's shared-store backend reads), else `<root>/data/geoq.gpkg` (a `--store`
///   option, where a command has one, overrides both).
public struct DataLocations: Sendable {
    public var catalogFile: URL
    public var dataDirectory: URL
    public var store: StoreAddress

    public init(catalogFile: URL, dataDirectory: URL, store: StoreAddress) {
        self.catalogFile = catalogFile
        self.dataDirectory = dataDirectory
        self.store = store
    }

    /// Locations whose store is the GeoPackage `storeFile`.
    public init(catalogFile: URL, dataDirectory: URL, storeFile: URL) {
        self.init(catalogFile: catalogFile, dataDirectory: dataDirectory, store: .geoPackage(storeFile))
    }

    /// The GeoPackage file of the store, for what only a GeoPackage can hold; a shared store is
    /// an error here (its address is never a path).
    public var storeFile: URL {
        get throws(LayerError) {
            guard let file = store.file else {
                throw .store(.badAddress(store.description, reason: "this needs a GeoPackage file, not a database"))
            }
            return file
        }
    }

    /// The locations by the rules above; `$GEOQ_STORE` is read as
    /// ``StoreAddress/init(parsing:sharedBackend:relativeTo:environment:)`` reads it, an address
    /// by `sharedBackend` (nil in a program that links no database client: then an address is an
    /// error).
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        executable: URL? = Bundle.main.executableURL, sharedBackend: (any SharedStoreBackend.Type)? = nil
    ) throws(LayerError) -> DataLocations {
        func nonEmpty(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        let root: URL? =
            nonEmpty("GEOQ_HOME").map { URL(fileURLWithPath: $0, relativeTo: workingDirectory).standardizedFileURL }
            ?? findRoot(from: workingDirectory)
            ?? executable.flatMap { findRoot(from: $0.resolvingSymlinksInPath().deletingLastPathComponent()) }
        let catalog: URL
        if let path = nonEmpty("GEOQ_CATALOG") {
            catalog = URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
        } else if let root {
            catalog = root.appendingPathComponent("data/layers.json")
        } else {
            throw .catalogUnreadable(
                path: "data/layers.json",
                reason:
                    "no geoq project directory found above \(workingDirectory.path); set GEOQ_HOME to the repository or GEOQ_CATALOG to the catalog file"
            )
        }
        let data: URL
        if let path = nonEmpty("GEOQ_DATA_DIR") {
            data = URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
        } else {
            data =
                (root ?? catalog.deletingLastPathComponent().deletingLastPathComponent())
                .appendingPathComponent("../shared/data").standardizedFileURL
        }
        let store: StoreAddress
        if let text = nonEmpty("GEOQ_STORE") {
            store = try StoreAddress(
                parsing: text, sharedBackend: sharedBackend, relativeTo: workingDirectory, environment: environment)
        } else {
            store = .geoPackage(catalog.deletingLastPathComponent().appendingPathComponent("geoq.gpkg"))
        }
        return DataLocations(catalogFile: catalog, dataDirectory: data, store: store)
    }

    static func findRoot(from start: URL) -> URL? {
        var dir = start.standardizedFileURL
        for _ in 0..<12 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/layers.json").path) {
                return dir
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }

    public func loadCatalog() throws(LayerError) -> LayerCatalog {
        try LayerCatalog.load(from: catalogFile, dataDirectory: dataDirectory)
    }
}
