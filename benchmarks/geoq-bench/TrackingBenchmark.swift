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
/// Then point fences: circles of 1 km around the GeoNames places of France and Spain (about
/// 23,000), devices walking from random places, beside the polygons.
enum TrackingBenchmark {
    static func run(catalog: LayerCatalog, root: URL, options: BenchmarkOptions, progress: Progress) throws {
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
            let positions = (0..<devices).map { _ in
                Point(
                    x: Double.random(in: box.minX...box.maxX, using: &rng),
                    y: Double.random(in: box.minY...box.maxY, using: &rng))
            }
            // One metric for the whole box (a city), and no step out of it.
            let fixes = randomWalks(from: positions, steps: steps, using: &rng, within: box) { _ in metric }
            let (rates, eventCount) = replay(
                fixes, of: devices, through: Geofencer(layer: layer), runs: options.runs, label: label,
                progress: progress)
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
        try pointFences(root: root, devices: devices, steps: steps, options: options, progress: progress)
        print("")
        print(
            "Fixes without speed, 10 m accuracy, one core; target 200,000 fixes/s."
        )
    }

    /// The fixes of devices on seeded random walks from `positions`: each second every device
    /// steps 20 m in a random direction (in degrees by `metric` at where it stands; kept inside
    /// `box` when one is given) and reports it with 10 m accuracy, for `steps` seconds. The
    /// fixes are interleaved device by device, as a fleet's batches arrive.
    static func randomWalks(
        from positions: [Point], steps: Int, using rng: inout SeededRandom, within box: BoundingBox? = nil,
        metric: (Point) -> LocalMetric
    ) -> [Fix] {
        var positions = positions
        let start = Date(timeIntervalSince1970: 1_795_424_400)
        var fixes: [Fix] = []
        fixes.reserveCapacity(positions.count * steps)
        for s in 0..<steps {
            for d in positions.indices {
                let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
                let here = metric(positions[d])
                var p = positions[d]
                p.x += 20 * cos(angle) / here.metresPerDegreeX
                p.y += 20 * sin(angle) / here.metresPerDegreeY
                if let box {
                    p.x = min(box.maxX, max(box.minX, p.x))
                    p.y = min(box.maxY, max(box.minY, p.y))
                }
                positions[d] = p
                fixes.append(
                    Fix(device: "d\(d)", time: start + Double(s), latitude: p.y, longitude: p.x, accuracy: 10))
            }
        }
        return fixes
    }

    /// Circles of 1 km around the GeoNames places (cities500) of France and Spain: "arriving in
    /// a town" over about 23,000 fences, one row of the same table (no GEOS peer: its row is the
    /// polygons' beside it).
    static func pointFences(root: URL, devices: Int, steps: Int, options: BenchmarkOptions, progress: Progress) throws {
        let file = root.appendingPathComponent("data/external/geonames/cities500.json")
        guard let data = try? Data(contentsOf: file),
            let json = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else {
            progress.note("GeoNames not found; run tools/fetch-benchmark-data.sh geonames")
            return
        }
        let places = json.compactMap { key, city -> Feature? in
            guard let country = city["countrycode"] as? String, country == "FR" || country == "ES",
                let lat = city["latitude"] as? Double, let lon = city["longitude"] as? Double
            else { return nil }
            return Feature(
                id: key, name: city["name"] as? String, geometry: .point(Point(latitude: lat, longitude: lon)),
                properties: [:])
        }.sorted { Int($0.id) ?? 0 < Int($1.id) ?? 0 }
        let centers = places.map { feature -> Point in
            if case .point(let p) = feature.geometry { return p }
            return Point(x: .nan, y: .nan)
        }
        progress.note("tracking: \(places.count) point fences")
        let fencer = Geofencer(
            name: "geonames-fr-es", features: places,
            shapes: .circles(CircleFences(centers: centers, radii: centers.map { _ in 1_000 })))
        var rng = SeededRandom(seed: options.seed)
        // Each device starts within about 1.5 km of a random place.
        let positions = (0..<devices).map { _ -> Point in
            let c = centers[Int.random(in: 0..<centers.count, using: &rng)]
            return Point(
                x: c.x + Double.random(in: -0.02...0.02, using: &rng),
                y: c.y + Double.random(in: -0.013...0.013, using: &rng))
        }
        // Walks over two countries: each step measured at the device's own latitude.
        let fixes = randomWalks(from: positions, steps: steps, using: &rng) { LocalMetric(wgs84AtLatitude: $0.y) }
        let (rates, eventCount) = replay(
            fixes, of: devices, through: fencer, runs: options.runs, label: "point fences", progress: progress)
        let stats = Stats(rates)
        print(
            "| GeoNames places of France and Spain, circles of 1 km | \(places.count) | \(devices) | \(fixes.count) | "
                + String(format: "%.0f / %.0f", rates.max() ?? .nan, stats.median) + " | \(eventCount) | — | — |")
    }

    /// `fixes` (device `i % devices` each, in order) through `fencer`, `runs` times: the rate of
    /// each run, and the events of the last.
    static func replay(
        _ fixes: [Fix], of devices: Int, through fencer: Geofencer, runs: Int, label: String, progress: Progress
    ) -> (rates: [Double], events: Int) {
        var rates: [Double] = []
        var eventCount = 0
        for run in 1...runs {
            progress.note("tracking: \(label) run \(run)/\(runs)")
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
        return (rates, eventCount)
    }
}
