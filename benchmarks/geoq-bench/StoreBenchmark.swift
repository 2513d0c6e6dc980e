import Foundation
import GeoqCore
import GeoqLayers

/// The store half of the benchmark: import throughput for every catalog layer, and the time
/// to open the store and build the in-memory indexes of its layers, polygon layers and point
/// layers apart (the target: under 100 ms for the polygon layers).
enum StoreBenchmark {
    static func run(locations: DataLocations, runs: Int, progress: Progress) throws {
        let catalog = try locations.loadCatalog()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("bench.gpkg")

        print("")
        print("| import (into a new GeoPackage) | features | vertices | time | features/s | vertices/s |")
        print("|---|---:|---:|---:|---:|---:|")
        var totalFeatures = 0, totalVertices = 0
        var totalTime = Duration.zero
        var jobs = catalog.layers.map {
            (spec: $0, url: catalog.sourceURL(of: $0), policy: LayerLoader.InvalidPolygonPolicy.fail)
        }
        // A large layer shows throughput without the fixed costs (PROJ set-up, file opening)
        // that dominate the small city layers. Natural Earth keeps its one invalid polygon.
        let root = locations.catalogFile.deletingLastPathComponent().deletingLastPathComponent()
        let naturalEarth = root.appendingPathComponent("data/external/natural-earth/ne_10m_admin_0_countries_deu.shp")
        if FileManager.default.fileExists(atPath: naturalEarth.path) {
            let spec = LayerSpec(
                name: "natural-earth-countries", title: "Natural Earth 1:10m countries", source: naturalEarth.path,
                idField: "ADM0_A3", nameField: "NAME")
            jobs.append((spec, naturalEarth, .keep))
        }
        for (spec, url, policy) in jobs {
            progress.note("importing \(spec.name)")
            let start = ContinuousClock.now
            let report = try LayerImporter(invalidPolygons: policy).importLayer(spec, from: url, into: store)
            let elapsed = ContinuousClock.now - start
            let vertices = try LayerLoader(invalidPolygons: policy).prepare(spec, from: url).features.reduce(0) {
                $0 + vertexCount($1.geometry)
            }
            if spec.name != "natural-earth-countries" {
                totalFeatures += report.written
                totalVertices += vertices
                totalTime += elapsed
            }
            print(row(spec.name, report.written, vertices, elapsed))
        }
        print(row("**catalog layers**", totalFeatures, totalVertices, totalTime))

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

    static func row(_ name: String, _ features: Int, _ vertices: Int, _ time: Duration) -> String {
        let seconds = GeoqBench.nanoseconds(time) / 1e9
        return "| \(name) | \(features) | \(vertices) | \(String(format: "%.0f ms", seconds * 1000)) "
            + "| \(String(format: "%.0f", Double(features) / seconds)) | \(String(format: "%.0f", Double(vertices) / seconds)) |"
    }

    static func vertexCount(_ g: Geometry) -> Int {
        switch g {
        case .point: 1
        case .multiPoint(let ps), .lineString(let ps): ps.count
        case .multiLineString(let ls): ls.reduce(0) { $0 + $1.count }
        case .polygon(let p): p.vertexCount
        case .multiPolygon(let mp): mp.vertexCount
        }
    }
}
