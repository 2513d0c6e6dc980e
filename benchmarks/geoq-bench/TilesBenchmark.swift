import Foundation
import GeoqCore
import GeoqLayers
import GeoqTestSupport
import GeoqTiles

/// Vector tiles cut in process (`--only tiles`): seeded tiles over the Valencia census sections
/// (zooms 0 to 14) and the world's time zones (0 to 8), each cut by ``LayerTiler`` as the service
/// cuts a tile it has not cut before: tiles a second, and the time of a tile at the median and
/// the 99th percentile. With `GEOQ_BENCH_TILE_LIST=DIR` each set is written there (`LAYER.txt`,
/// `z x y` a line) with geoq's figures (`LAYER.geoq`), so that benchmarks/tiles/run.sh has
/// PostGIS cut the same tiles in the same run.
enum TilesBenchmark {
    static func run(catalog: LayerCatalog, options: BenchmarkOptions, progress: Progress) throws {
        let listDirectory = ProcessInfo.processInfo.environment["GEOQ_BENCH_TILE_LIST"].map {
            URL(fileURLWithPath: $0)
        }
        let count = options.smoke ? 40 : 1_000
        print("\n### Vector tiles, cut in process (seeded tiles, each cut once a run, \(options.runs) runs)\n")
        print("| layer | zooms | tiles (non-empty) | tiles/s | median a tile | p99 a tile |")
        print("|---|---|---:|---:|---:|---:|")
        // A quarter as many of the time zones: PostGIS takes seconds over a low zoom's tile.
        var sets: [(name: String, zooms: ClosedRange<Int>, count: Int)] = [("valencia-census-sections", 0...14, count)]
        // The time zones' 226 MB GeoJSON is too slow to read in the debug build of the smoke run.
        if !options.smoke,
            (try? catalog.spec(named: "timezones")).map({
                FileManager.default.fileExists(atPath: catalog.sourceURL(of: $0).path)
            }) == true
        {
            sets.append(("timezones", 0...8, count / 4))
        }
        for (name, zooms, count) in sets {
            progress.note("tiles: loading \(name)")
            let spec = try catalog.spec(named: name)
            let layer = try LayerLoader().load(spec, from: catalog.sourceURL(of: spec))
            let tiler = LayerTiler(name: name, features: layer.features)
            let tiles = try seededTiles(tiler, zooms: zooms, count: count, seed: options.seed)
            var times: [Double] = []
            var kept = 0
            var total = 0.0
            for run in 0..<options.runs {
                progress.note("tiles: \(name), run \(run + 1) of \(options.runs)")
                for tile in tiles {
                    let start = ContinuousClock.now
                    let encoded = try tiler.tile(tile)
                    let ns = GeoqBench.nanoseconds(ContinuousClock.now - start)
                    times.append(ns)
                    total += ns
                    if run == 0, encoded.featuresKept > 0 { kept += 1 }
                }
            }
            times.sort()
            let rate = Double(times.count) / (total / 1e9)
            let (median, p99) = (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
            print(
                "| \(name) | \(zooms.lowerBound)–\(zooms.upperBound) | \(tiles.count) (\(kept)) | "
                    + String(format: "%.0f", rate) + " | \(GeoqBench.fmt(median)) | \(GeoqBench.fmt(p99)) |")
            if let listDirectory {
                try tiles.map { "\($0.z) \($0.x) \($0.y)\n" }.joined()
                    .write(to: listDirectory.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
                try String(format: "%.0f %.3f %.3f\n", rate, median / 1e6, p99 / 1e6)
                    .write(to: listDirectory.appendingPathComponent("\(name).geoq"), atomically: true, encoding: .utf8)
            }
        }
    }

    /// `count` tiles, the zooms in turn, each around a random point of a random feature's
    /// bounds: where a map of the layer asks.
    static func seededTiles(_ tiler: LayerTiler, zooms: ClosedRange<Int>, count: Int, seed: UInt64) throws -> [TileID] {
        var rng = SeededRandom(seed: seed)
        let features = tiler.features
        return try (0..<count).map { index in
            let feature = features[Int(rng.next() % UInt64(features.count))]
            let box = feature.geometry.boundingBox
            let point = Point(x: rng.uniform(box.minX...box.maxX), y: rng.uniform(box.minY...box.maxY))
            return try TileID.containing(point, zoom: zooms.lowerBound + index % zooms.count)
        }
    }
}
