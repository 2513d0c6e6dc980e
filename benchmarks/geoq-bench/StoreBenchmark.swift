import Foundation
import GeoqCore
import GeoqLayers

/// The store half of the benchmark: the time to open the store and build the in-memory indexes
/// of its layers, polygon layers and point layers apart (the target: under 100 ms for the
/// polygon layers). Import throughput is ``ImportBenchmark``'s.
enum StoreBenchmark {
    static func run(locations: DataLocations, runs: Int, progress: Progress) throws {
        let catalog = try locations.loadCatalog()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("bench.gpkg")

        // The store to open: the catalog layers imported as `geoq import` does (their import
        // throughput is ImportBenchmark's).
        for spec in catalog.layers {
            progress.note("importing \(spec.name)")
            _ = try LayerImporter().importLayer(spec, from: catalog.sourceURL(of: spec), into: store)
        }

        // Which layers are polygons and which are points, as the query commands tell them apart
        // (the store's geometry type, else the catalog entry); each kind is read and indexed by
        // its own reader and timed on its own row.
        let names = catalog.layers.map(\.name)
        let polygonNames = Set(try LayerLibrary(locations: locations, storeFile: store).polygonLayerNames)
        let polygonLayers = names.filter { polygonNames.contains($0) }
        let pointLayers = names.filter { !polygonNames.contains($0) }
        var polygonTimes: [Double] = [], pointTimes: [Double] = []
        var polygonFeatures = 0, pointFeatures = 0
        for run in 1...runs {
            progress.note("open the store and index every layer: run \(run)/\(runs)")
            var start = ContinuousClock.now
            let polygons = try LayerLibrary(locations: locations, storeFile: store)
            polygonFeatures = try polygonLayers.reduce(0) { $0 + (try polygons.layer(named: $1).features.count) }
            polygonTimes.append(GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6)
            start = ContinuousClock.now
            let points = try LayerLibrary(locations: locations, storeFile: store)
            pointFeatures = try pointLayers.reduce(0) { $0 + (try points.pointLayer(named: $1).features.count) }
            pointTimes.append(GeoqBench.nanoseconds(ContinuousClock.now - start) / 1e6)
        }
        print("")
        print("| open the store, read and index (catalog layers) | layers | features | min | mean |")
        print("|---|---:|---:|---:|---:|")
        print(readRow("polygon layers (point-in-polygon index)", polygonLayers.count, polygonFeatures, polygonTimes))
        print(readRow("point layers (nearest-N index)", pointLayers.count, pointFeatures, pointTimes))
        print("")
        print("Over \(runs) runs; each run opens the store anew for each kind, so both rows include opening it.")
    }

    static func readRow(_ label: String, _ layers: Int, _ features: Int, _ times: [Double]) -> String {
        let stats = Stats(times)
        return "| \(label) | \(layers) | \(features) | "
            + String(format: "%.1f ms | %.1f ms |", stats.min, stats.mean)
    }
}
