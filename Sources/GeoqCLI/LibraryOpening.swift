import ArgumentParser
import Foundation
import GeoqLayers

extension LayerLibrary {
    /// The library for a command that reads layers, with the store `--store` names (if any);
    /// on failure the error is printed and the command exits with its status.
    static func openForCommand(store: String?) throws -> LayerLibrary {
        do {
            return try LayerLibrary(
                locations: try DataLocations.resolve(), storeFile: store.map(URL.init(fileURLWithPath:)))
        } catch {
            var stderr = StandardError()
            stderr.write("geoq: error: \(error.description)\n")
            throw ExitCode(ExitStatus.of(error))
        }
    }
}
