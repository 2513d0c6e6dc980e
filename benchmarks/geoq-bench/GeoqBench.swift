import Foundation
import GeoqCore
import GeoqLayers
import GeoqTestSupport

/// `swift run -c release geoq-bench [--points N] [--runs R] [--only PART]`, or `geoq-bench --smoke`
/// for one small run of every part (what the tests run, to catch a part that no longer runs; no
/// timing is checked). Four parts, each against a peer measured in the same run: which-sector
/// (``WhichSectorBenchmark``, against GEOS), the store (``StoreBenchmark``), nearest-N
/// (``NearestBenchmark``, against a Karney brute force and GEOS's STRtree), incident feeds
/// (``IncidentBenchmark``), the world's time zones (``TimezoneBenchmark``, against tzfpy and
/// timezonefinder from Python; `--only timezones`) and vector tiles (``TilesBenchmark``, whose
/// PostGIS peer benchmarks/tiles/run.sh runs beside it). Prints Markdown tables on standard output; progress goes to standard
/// error when it is a terminal.
@main
struct GeoqBench {
    static func main() {
        do {
            try run()
        } catch {
            FileHandle.standardError.write(Data("geoq-bench: error: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run() throws {
        let locations = try DataLocations.resolve()
        // The store part's fresh-process runs: this executable again, one store-ready, its time.
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == StoreBenchmark.readyOnceOption,
            let expect = StoreBenchmark.Expected(rawValue: arguments[3])
        {
            try StoreBenchmark.readyOnce(
                locations: locations, store: URL(fileURLWithPath: arguments[2]), expect: expect)
            return
        }
        let options = try BenchmarkOptions(CommandLine.arguments.dropFirst())
        let catalog = try locations.loadCatalog()
        let root = locations.catalogFile.deletingLastPathComponent().deletingLastPathComponent()
        let progress = Progress()

        if options.only != "tracking", options.only != "import", options.only != "timezones", options.only != "hooks",
            options.only != "push", options.only != "tiles"
        {
            try WhichSectorBenchmark.run(catalog: catalog, root: root, options: options, progress: progress)
        }
        if options.only == nil || options.only == "tracking" {
            try TrackingBenchmark.run(catalog: catalog, root: root, options: options, progress: progress)
        }
        if options.only == nil || options.only == "store" {
            try StoreBenchmark.run(locations: locations, runs: options.runs, progress: progress)
        }
        if options.only == nil || options.only == "import" {
            try ImportBenchmark.run(
                locations: locations, root: root, runs: options.runs, timezones: options.importTimezones,
                progress: progress)
        }
        if options.only == nil || options.only == "nearest" {
            try NearestBenchmark.run(
                root: root, runs: options.runs, progress: progress, queries: options.nearestQueries,
                bruteQueries: options.bruteQueries, cities: options.cities)
        }
        // The time zones' 226 MB GeoJSON is too slow to read in the debug build of the smoke run.
        if (options.only == nil && !options.smoke) || options.only == "timezones" {
            try TimezoneBenchmark.run(catalog: catalog, root: root, options: options, progress: progress)
        }
        if options.only == nil || options.only == "hooks" {
            try HookBenchmark.run(options: options, progress: progress)
        }
        if options.only == nil || options.only == "push" {
            try PushBenchmark.run(options: options, progress: progress)
        }
        if options.only == nil || options.only == "tiles" {
            try TilesBenchmark.run(catalog: catalog, options: options, progress: progress)
        }
        if options.only == nil || options.only == "incidents" {
            try IncidentBenchmark.run(
                runs: options.runs, progress: progress, items: options.feedItems, largeItems: options.largeFeedItems)
        }
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
    /// Import the 226 MB time-zone file too (not in the smoke run: a minute in a debug build).
    var importTimezones = true
    /// Run only the layers whose label contains this text ("store": only the store half,
    /// "nearest": only the nearest-N half).
    var only: String?
    /// `--smoke`: one small run of every part, from the debug build.
    var smoke = false

    init<S: Sequence<String>>(_ arguments: S) throws {
        var it = arguments.makeIterator()
        while let arg = it.next() {
            switch arg {
            case "--points": points = try Self.number(it.next(), arg)
            case "--runs": runs = try Self.number(it.next(), arg)
            case "--seed": seed = UInt64(try Self.number(it.next(), arg))
            case "--only": only = it.next()
            case "--without-timezones": importTimezones = false
            case "--smoke":
                smoke = true
                // Every part once on a few thousand points: small enough for the debug build in
                // the tests, large enough to go through every path of every part.
                points = 3000
                runs = 1
                nearestQueries = 200
                bruteQueries = 2
                cities = 5000
                feedItems = 500
                largeFeedItems = 2000
                importTimezones = false
            case "-h", "--help":
                print(
                    "usage: geoq-bench [--smoke] [--points N] [--runs R] [--seed S] [--only LAYER-TEXT] [--without-timezones]"
                )
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
