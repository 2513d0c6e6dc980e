import Foundation
import GeoqCore
import GeoqGEOS
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import GeoqTracking

/// Geofencing throughput in process: 10,000 devices on random walks (20 m steps a second,
/// 10 m accuracy) inside each layer's box, fixes interleaved device by device, through
/// `Geofencer.advance` on one core. The peer, in the same run: the enter/exit decision's
/// point-in-polygon step alone done by GEOS (an STRtree query and prepared covers per fix).
enum TrackingBenchmark {
    static func run(catalog: LayerCatalog, options: BenchmarkOptions, progress: Progress) throws {
        let layers: [(String, String)] = [
            ("Pamplona sectors", "pamplona-sectors"), ("Valencia census sections", "valencia-census-sections"),
        ]
        let devices = options.points >= 200_000 ? 10_000 : 200
        let steps = options.points >= 200_000 ? 30 : 5
        print(
            "| layer | features | devices | fixes | geoq fixes/s (best / median) | events | GEOS covers step fixes/s | geoq / GEOS |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for (label, name) in layers {
            progress.note("tracking: loading \(label)")
            let layer = try LayerLoader().load(name, from: catalog)
            var rng = SeededRandom(seed: options.seed)
            let box = layer.index.boundingBox
            let metric = LocalMetric(wgs84AtLatitude: (box.minY + box.maxY) / 2)
            var positions = (0..<devices).map { _ in
                Point(
                    x: Double.random(in: box.minX...box.maxX, using: &rng),
                    y: Double.random(in: box.minY...box.maxY, using: &rng))
            }
            let start = Date(timeIntervalSince1970: 1_795_424_400)
            var fixes: [Fix] = []
            fixes.reserveCapacity(devices * steps)
            for s in 0..<steps {
                for d in 0..<devices {
                    let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
                    var p = positions[d]
                    p.x = min(box.maxX, max(box.minX, p.x + 20 * cos(angle) / metric.metresPerDegreeX))
                    p.y = min(box.maxY, max(box.minY, p.y + 20 * sin(angle) / metric.metresPerDegreeY))
                    positions[d] = p
                    fixes.append(
                        Fix(
                            device: "d\(d)", time: start + Double(s), latitude: p.y, longitude: p.x, accuracy: 10))
                }
            }
            let fencer = Geofencer(layer: layer)
            var rates: [Double] = []
            var eventCount = 0
            for run in 1...options.runs {
                progress.note("tracking: \(label) run \(run)/\(options.runs)")
                var tracks = [DeviceTrack?](repeating: nil, count: devices)
                var events = 0
                let ns = GeoqBench.time(fixes.count) {
                    for (i, fix) in fixes.enumerated() {
                        events &+= fencer.advance(&tracks[i % devices], with: fix).events.count
                    }
                }
                eventCount = events
                rates.append(1e9 / ns)
            }
            // GEOS: the covers step only (no hysteresis, no state): a lower bound of its cost.
            let context = GEOSContext()
            let geometries = try layer.features.map { try context.makeGeometry($0.geometry) }
            let prepared = try geometries.map { try context.prepare($0) }
            let tree = try GEOSSTRtree(context: context, items: geometries.enumerated().map { ($1, $0) })
            var sink = 0
            let geosNs = try GeoqBench.timeThrowing(fixes.count) {
                for fix in fixes {
                    let g = try context.makePoint(Point(x: fix.longitude, y: fix.latitude))
                    try tree.query(g) { id in if (try? prepared[id].covers(g)) == true { sink &+= id } }
                }
            }
            if sink == 42 { print("") }
            let stats = Stats(rates)
            let best = rates.max() ?? .nan
            print(
                "| \(label) | \(layer.features.count) | \(devices) | \(fixes.count) | "
                    + String(format: "%.0f / %.0f", best, stats.median) + " | \(eventCount) | "
                    + String(format: "%.0f", 1e9 / geosNs) + " | " + String(format: "%.1f×", best / (1e9 / geosNs))
                    + " |")
        }
        print("")
        print(
            "Fixes without speed, 10 m accuracy, one core; target 200,000 fixes/s."
        )
    }
}
