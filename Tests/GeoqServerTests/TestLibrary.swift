import Foundation
import GeoqLayers
import GeoqTestSupport

/// The layer library the server tests read: the catalog's source files, no store.
enum TestLibrary {
    static func catalogOnly() -> LayerLibrary {
        try! LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
    }
}
