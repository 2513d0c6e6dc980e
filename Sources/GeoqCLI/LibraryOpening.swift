import Foundation
import GeoqLayers

extension LayerLibrary {
    /// The library for a command that reads layers, with the store `--store` names (if any);
    /// on failure the error is reported and the command exits with its status.
    static func openForCommand(store: String?, format: OutputFormat) throws -> LayerLibrary {
        try ExitStatus.reporting(format: format) { () throws(LayerError) in
            try LayerLibrary(
                locations: try DataLocations.resolve(), storeFile: store.map(URL.init(fileURLWithPath:)))
        }
    }
}
