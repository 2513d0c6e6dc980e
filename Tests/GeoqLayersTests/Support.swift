import Foundation
import GeoqLayers
import GeoqTestSupport

/// The repository's catalog over the shared data.
func sharedCatalog() throws -> LayerCatalog {
    try LayerCatalog.load(
        from: TestData.packageRoot.appendingPathComponent("data/layers.json"), dataDirectory: TestData.directory)
}

/// A fresh temporary directory for files a test writes.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `text` to `name` in a new temporary directory and returns the file.
func writeTemporary(_ name: String, _ text: String) throws -> URL {
    let url = try temporaryDirectory().appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
}
