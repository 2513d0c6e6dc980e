import ArgumentParser
import Foundation
import GeoqLayers
import GeoqPostGIS

// Where the command line chooses the backend of a shared store: an address in `--store` or
// `$GEOQ_STORE` (`postgresql://...`) is a PostgreSQL/PostGIS database, reached through
// GeoqPostGIS, the one database client geoq links. Every command reads its locations and its
// `--store` through the functions below, so none can read an address without it.

extension DataLocations {
    /// The locations of a command (``DataLocations/resolve(environment:workingDirectory:executable:sharedBackend:)``),
    /// with `$GEOQ_STORE` read by the PostgreSQL backend when it is an address.
    static func resolveForCommand() throws(LayerError) -> DataLocations {
        try resolve(sharedBackend: PostGISBackend.self)
    }
}

extension LayerLibrary {
    /// The library for a command that reads layers, with the store `--store` names (if any);
    /// on failure the error is reported and the command exits with its status.
    static func openForCommand(store: String?, format: OutputFormat) throws -> LayerLibrary {
        try ExitStatus.reporting(format: format) { () throws(LayerError) in
            try LayerLibrary(locations: try DataLocations.resolveForCommand(), store: try StoreAddress.option(store))
        }
    }
}

extension StoreAddress {
    /// A `--store` text as a store: an address geoq cannot use is ``LayerError/store(_:)`` with
    /// a bad address (exit 64), and never becomes a file.
    init(option text: String) throws(LayerError) {
        try self.init(parsing: text, sharedBackend: PostGISBackend.self)
    }

    /// The `--store` text as a store (``init(option:)``), nil when absent (the usual store is
    /// used).
    static func option(_ text: String?) throws(LayerError) -> StoreAddress? {
        try text.map { (text) throws(LayerError) in try StoreAddress(option: text) }
    }

    /// `--store` for a command that may run without a store: reported and exit 64 when bad.
    static func option(_ text: String?, format: OutputFormat) throws -> StoreAddress? {
        try ExitStatus.reporting(format: format) { () throws(LayerError) in try option(text) }
    }
}

/// The help of the `--store` options.
enum StoreHelp {
    static let read: ArgumentHelp =
        "The store to read layers from: a GeoPackage file or a PostgreSQL address such as postgresql://geoq@db.example:5432/geoq (default $GEOQ_STORE, else data/geoq.gpkg)."
    static let write: ArgumentHelp =
        "The store to write: a GeoPackage file (created if missing) or a PostgreSQL address such as postgresql://geoq@db.example:5432/geoq (default $GEOQ_STORE, else data/geoq.gpkg)."
    static let incidents: ArgumentHelp =
        "The store of the incidents: a GeoPackage file or a PostgreSQL address such as postgresql://geoq@db.example:5432/geoq (default $GEOQ_STORE, else data/geoq.gpkg)."
}
