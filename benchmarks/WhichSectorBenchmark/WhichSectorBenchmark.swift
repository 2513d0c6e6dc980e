import Foundation
import GeoqCore
import GeoqGEOS
import GeoqLayers
import GeoqTestSupport

/// `swift run -c release geoq-bench [--points N] [--runs R]`, or `geoq-bench --smoke` for one small
/// run of every part (what the tests run, to catch a part that no longer runs; no timing is checked).
///
/// Point-in-polygon lookups per layer, geoq's index against GEOS prepared geometries behind a
/// GEOS STRtree (through geoq's own GEOS bindings), on the same seeded random points in the
/// same run. Both must give the same answer for every point (mismatches are printed).
/// Prints a Markdown table on standard output; progress goes to standard error when it is a
/// terminal.
@main
struct WhichSectorBenchmark {
    static func main() {
        do {
            try run()
        } catch {
            FileHandle.standardError.write(Data("geoq-bench: error: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run() throws {
        let options = try BenchmarkOptions(CommandLine.arguments.dropFirst())
        let locations = try DataLocations.resolve()
        let catalog = try locations.loadCatalog()
        let root = locations.catalogFile.deletingLastPathComponent().deletingLastPathComponent()
        let progress = Progress()

        var layers: [(label: String, load: () throws -> Layer)] = [
            ("Pamplona sectors", { try LayerLoader().load("pamplona-sectors", from: catalog) }),
            ("Valencia census sections", { try LayerLoader().load("valencia-census-sections", from: catalog) }),
        ]
        let naturalEarth = root.appendingPathComponent("data/external/natural-earth/ne_10m_admin_0_countries_deu.shp")
        if FileManager.default.fileExists(atPath: naturalEarth.path) {
            let spec = LayerSpec(
                name: "natural-earth-countries", title: "Natural Earth 1:10m countries", source: naturalEarth.path,
                idField: "ADM0_A3", nameField: "NAME")
            // Natural Earth has invalid polygons (Egypt); keep them, as a benchmark of real data.
            layers.append(
                ("Natural Earth countries", { try LayerLoader(invalidPolygons: .keep).load(spec, from: naturalEarth) }))
        } else {
            progress.note("Natural Earth not found; run tools/fetch-benchmark-data.sh natural-earth")
        }

        if let only = options.only { layers = layers.filter { $0.label.lowercased().contains(only.lowercased()) } }
        // `--only store` runs just the store half.
        print(
            "| layer | features | vertices | load + index | geoq ns/lookup (min / mean) | GEOS ns/lookup (min / mean) | GEOS / geoq | geoq full which-sector ns | agree |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (label, load) in layers {
            progress.note("loading \(label)")
            let start = ContinuousClock.now
            let layer = try load()
            let loadTime = ContinuousClock.now - start
            let result = try measure(layer, options: options, progress: progress, label: label)
            let vertices = layer.features.reduce(0) { $0 + ($1.geometry.areal?.vertexCount ?? 0) }
            print(
                "| \(label) | \(layer.features.count) | \(vertices) | \(format(loadTime)) "
                    + "| \(fmt(result.geoq.min)) / \(fmt(result.geoq.mean)) | \(fmt(result.geos.min)) / \(fmt(result.geos.mean)) "
                    + "| \(String(format: "%.1f×", result.geos.min / result.geoq.min)) | \(fmt(result.full.min)) "
                    + "| \(result.agreements)/\(result.points) |")
        }
        print("")
        print(
            "Points: \(options.points) per layer, uniform in the layer's bounding box (seed \(options.seed)); \(options.runs) runs, min and mean of ns per lookup."
        )
        print(
            "geoq: PolygonIndex (STR R-tree of features, y-stripe edge index per polygon), covers. GEOS \(GEOSContext.version): GEOSSTRtree query + GEOSPreparedCovers per candidate, one GEOS point per lookup."
        )
        print(
            "Full which-sector: covering features, nearest-edge search and geodesic edge distance (SectorLookup.answer)."
        )
        if options.only == nil || options.only == "store" {
            try StoreBenchmark.run(locations: locations, runs: options.runs, progress: progress)
        }
        if options.only == nil || options.only == "nearest" {
            try NearestBenchmark.run(
                root: root, runs: options.runs, progress: progress, queries: options.nearestQueries,
                bruteQueries: options.bruteQueries, cities: options.cities)
        }
        if options.only == nil || options.only == "incidents" {
            try IncidentBenchmark.run(
                runs: options.runs, progress: progress, items: options.feedItems, largeItems: options.largeFeedItems)
        }
    }

    struct Result {
        var geoq: Stats, geos: Stats, full: Stats
        var agreements: Int, points: Int
    }

    static func measure(_ layer: Layer, options: BenchmarkOptions, progress: Progress, label: String) throws -> Result {
        var rng = SeededRandom(seed: options.seed)
        let box = layer.index.boundingBox
        let points = (0..<options.points).map { _ in
            Point(
                x: Double.random(in: box.minX...box.maxX, using: &rng),
                y: Double.random(in: box.minY...box.maxY, using: &rng))
        }

        // The GEOS peer: prepared geometries in an STRtree, built through our bindings.
        let context = GEOSContext()
        let geometries = try layer.features.map { try context.makeGeometry($0.geometry) }
        let prepared = try geometries.map { try context.prepare($0) }
        let tree = try GEOSSTRtree(context: context, items: geometries.enumerated().map { ($1, $0) })

        func geosCovering(_ p: Point) throws -> [Int] {
            let g = try context.makePoint(p)
            var hits: [Int] = []
            try tree.query(g) { id in if (try? prepared[id].covers(g)) == true { hits.append(id) } }
            return hits.sorted()
        }
        var agreements = 0
        for p in points {
            let ours = layer.index.covering(p)
            if ours == (try geosCovering(p)) { agreements += 1 }
        }
        if agreements != points.count {
            progress.note("\(label): \(points.count - agreements) points where geoq and GEOS disagree")
        }

        var geoqTimes: [Double] = [], geosTimes: [Double] = [], fullTimes: [Double] = []
        var sink = 0
        let lookup = SectorLookup(layer: layer)
        let fullPoints = points.prefix(Swift.max(1, points.count / 10))
        for run in 1...options.runs {
            progress.note("\(label): run \(run)/\(options.runs)")
            geoqTimes.append(time(points.count) { sink &+= geoqPass(layer.index, points) })
            geosTimes.append(
                try timeThrowing(points.count) {
                    sink &+= try geosPass(context, tree, prepared, points)
                })
            fullTimes.append(
                time(fullPoints.count) {
                    for p in fullPoints { sink &+= lookup.answer(for: p).inside.count }
                })
        }
        if sink == 42 { print("") }  // keep the work observable
        return Result(
            geoq: Stats(geoqTimes), geos: Stats(geosTimes), full: Stats(fullTimes), agreements: agreements,
            points: points.count)
    }

    /// One lookup per point through geoq's index. Not inlined, so that an instruction count
    /// (`valgrind --tool=callgrind --toggle-collect='*geoqPass*'`) isolates it.
    @inline(never)
    static func geoqPass(_ index: PolygonIndex, _ points: [Point]) -> Int {
        var sink = 0
        for p in points { index.forEachCovering(p) { sink &+= $0 } }
        return sink
    }

    /// One lookup per point through GEOS: a point, an STRtree query, prepared covers per
    /// candidate. Not inlined, for the same reason.
    @inline(never)
    static func geosPass(
        _ context: GEOSContext, _ tree: GEOSSTRtree, _ prepared: [GEOSPreparedGeometry], _ points: [Point]
    ) throws -> Int {
        var sink = 0
        for p in points {
            let g = try context.makePoint(p)
            try tree.query(g) { id in if (try? prepared[id].covers(g)) == true { sink &+= id } }
        }
        return sink
    }

    static func time(_ count: Int, _ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        return nanoseconds(ContinuousClock.now - start) / Double(count)
    }

    static func timeThrowing(_ count: Int, _ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return nanoseconds(ContinuousClock.now - start) / Double(count)
    }

    static func nanoseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    }

    static func fmt(_ ns: Double) -> String {
        ns >= 10_000 ? String(format: "%.1f µs", ns / 1000) : String(format: "%.0f", ns)
    }
    static func format(_ d: Duration) -> String { String(format: "%.0f ms", nanoseconds(d) / 1e6) }
}

struct Stats {
    /// The median too, for this noisy shared machine: one run slowed by a neighbour moves the
    /// mean, not the median.
    let min: Double, median: Double, mean: Double
    init(_ values: [Double]) {
        min = values.min() ?? .nan
        let sorted = values.sorted()
        median =
            sorted.isEmpty
            ? .nan
            : sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        mean = values.reduce(0, +) / Double(Swift.max(values.count, 1))
    }
}

struct BenchmarkOptions {
    var points = 200_000
    var runs = 5
    var seed: UInt64 = 2026
    /// Nearest-10 queries per kind (uniform, near a city) and per run.
    var nearestQueries = 10_000
    /// Queries of each kind checked against the brute force.
    var bruteQueries = 25
    /// Use only the first this many GeoNames cities (all when nil).
    var cities: Int?
    /// Items of the incident feed that is parsed, refreshed and queried, and of the large feed
    /// whose streaming parse is measured for memory.
    var feedItems = 10_000
    var largeFeedItems = 100_000
    /// Run only the layers whose label contains this text ("store": only the store half,
    /// "nearest": only the nearest-N half).
    var only: String?

    init<S: Sequence<String>>(_ arguments: S) throws {
        var it = arguments.makeIterator()
        while let arg = it.next() {
            switch arg {
            case "--points": points = try Self.number(it.next(), arg)
            case "--runs": runs = try Self.number(it.next(), arg)
            case "--seed": seed = UInt64(try Self.number(it.next(), arg))
            case "--only": only = it.next()
            case "--smoke":
                // Every part once on a few thousand points: small enough for the debug build in
                // the tests, large enough to go through every path of every part.
                points = 3000
                runs = 1
                nearestQueries = 200
                bruteQueries = 2
                cities = 5000
                feedItems = 500
                largeFeedItems = 2000
            case "-h", "--help":
                print("usage: geoq-bench [--smoke] [--points N] [--runs R] [--seed S] [--only LAYER-TEXT]")
                exit(0)
            default: throw BenchmarkError("unknown argument '\(arg)'; see --help")
            }
        }
    }

    static func number(_ text: String?, _ option: String) throws -> Int {
        guard let text, let n = Int(text), n > 0 else {
            throw BenchmarkError("\(option) needs a positive whole number")
        }
        return n
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Progress lines on standard error, only when it is a terminal (quiet when piped).
struct Progress {
    let enabled = isatty(STDERR_FILENO) != 0
    func note(_ s: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("geoq-bench: \(s)\n".utf8))
    }
}
