import Foundation
import GeoqCore
import GeoqLayers

/// The store half of the benchmark: import throughput for every catalog layer, and the time
/// until an opened store is ready (see ``openHalf(locations:runs:progress:)``).
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

        try openHalf(locations: locations, runs: runs, progress: progress)
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
