import ArgumentParser
import Foundation
import GeoqLayers
import Synchronization

// Where the command line chooses the backend of a shared store: an address in `--store` or
// `$GEOQ_STORE` (`postgresql://...`) is read by the backend the program links (``SharedStores``).
// Every command reads its locations and its `--store` through the functions below, so none can
// read an address without it.

/// The backend of a shared store in this program: PostgreSQL/PostGIS in `geoq-server`, which
/// sets it before parsing its command line; none in `geoq`, which links no database client and
/// hands any command line with an address to `geoq-server` before parsing it.
package enum SharedStores {
    private static let chosen = Mutex<(any SharedStoreBackend.Type)?>(nil)

    package static var backend: (any SharedStoreBackend.Type)? {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }
}

extension DataLocations {
    /// The locations of a command (``DataLocations/resolve(environment:workingDirectory:executable:sharedBackend:)``),
    /// with `$GEOQ_STORE` read by the program's shared-store backend when it is an address.
    package static func resolveForCommand() throws(LayerError) -> DataLocations {
        try resolve(sharedBackend: SharedStores.backend)
    }
}

extension LayerLibrary {
    /// The library for a command that reads layers, with the store `--store` names (if any);
    /// on failure the error is reported and the command exits with its status.
    package static func openForCommand(store: String?, format: OutputFormat) throws -> LayerLibrary {
        try ExitStatus.reporting(format: format) { () throws(LayerError) in
            try LayerLibrary(locations: try DataLocations.resolveForCommand(), store: try StoreAddress.option(store))
        }
    }
}

extension StoreAddress {
    /// A `--store` text as a store: an address geoq cannot use is ``LayerError/store(_:)`` with
    /// a bad address (exit 64), and never becomes a file.
    package init(option text: String) throws(LayerError) {
        try self.init(parsing: text, sharedBackend: SharedStores.backend)
    }

    /// The `--store` text as a store (``init(option:)``), nil when absent (the usual store is
    /// used).
    package static func option(_ text: String?) throws(LayerError) -> StoreAddress? {
        try text.map { (text) throws(LayerError) in try StoreAddress(option: text) }
    }

    /// `--store` for a command that may run without a store: reported and exit 64 when bad.
    package static func option(_ text: String?, format: OutputFormat) throws -> StoreAddress? {
        try ExitStatus.reporting(format: format) { () throws(LayerError) in try option(text) }
    }
}

/// The help of the `--store` options.
package enum StoreHelp {
    package static let read: ArgumentHelp =
        "The store to read layers from: a GeoPackage file or a PostgreSQL address such as postgresql://geoq@db.example:5432/geoq (default $GEOQ_STORE, else data/geoq.gpkg)."
    package static let write: ArgumentHelp =
        "The store to write: a GeoPackage file (created if missing) or a PostgreSQL address such as postgresql://geoq@db.example:5432/geoq (default $GEOQ_STORE, else data/geoq.gpkg)."
    package static let incidents: ArgumentHelp =
        "The store of the incidents: a GeoPackage file or a PostgreSQL address such as postgresql://geoq@db.example:5432/geoq (default $GEOQ_STORE, else data/geoq.gpkg)."
}
