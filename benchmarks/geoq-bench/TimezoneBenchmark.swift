import Foundation
import GeoqCore
import GeoqLayers
import GeoqNearby
import GeoqQuery
import GeoqTestSupport

/// The world's time zones (444 zones, 8.19 million vertices; the catalog's optional layer
/// `timezones`): geoq's lookup pass and whole which-sector answer beside tzfpy and
/// timezonefinder, called from Python (benchmarks/timezones/peers.py, with the interpreter of
/// .build-venv-timezones) on the same seeded points, uniform on the sphere, in the same run.
/// Also counts on how many points the three name the same zone (the full list of differences
/// is benchmarks/timezones/agreement.py's).
enum TimezoneBenchmark {
    static func run(catalog: LayerCatalog, root: URL, options: BenchmarkOptions, progress: Progress) throws {
        let spec = try catalog.spec(named: "timezones")
        guard catalog.hasSource(of: spec) else {
            progress.note("time zones not found; run \(spec.fetch ?? "tools/fetch-benchmark-data.sh timezones")")
            print("Time zones: not measured, \(catalog.sourceURL(of: spec).path) is not there.\n")
            return
        }
        progress.note("loading the time zones")
        let start = ContinuousClock.now
        let layer = try LayerLoader().load(spec, from: catalog.sourceURL(of: spec))
        let loadTime = ContinuousClock.now - start
        let vertices = layer.features.reduce(0) { $0 + ($1.geometry.areal?.vertexCount ?? 0) }
        // The index alone, with and without its sole-cover grid (the rest of the load is reading
        // the GeoJSON and GEOS's validity check).
        let shapes = layer.features.map { $0.geometry.areal ?? MultiPolygon([]) }
        var started = ContinuousClock.now
        _ = PolygonIndex(shapes, gridFromVertices: .max)
        let indexTime = ContinuousClock.now - started
        started = ContinuousClock.now
        _ = PolygonIndex(shapes)
        let indexWithGridTime = ContinuousClock.now - started
        let points = uniformOnTheSphere(count: options.points, seed: options.seed)

        let peers = try Peers.measure(points, root: root, runs: options.runs, progress: progress)

        progress.note("time zones: geoq")
        var passTimes: [Double] = [], fullTimes: [Double] = []
        var sink = 0
        let lookup = SectorLookup(layer: layer, geodesic: EllipsoidGeodesic.wgs84)
        let fullPoints = Array(points.prefix(Swift.max(1, points.count / 10)))
        let instant = Date()
        for _ in 1...options.runs {
            passTimes.append(
                GeoqBench.time(points.count) { sink &+= WhichSectorBenchmark.geoqPass(layer.index, points) })
            fullTimes.append(
                GeoqBench.time(fullPoints.count) {
                    for p in fullPoints {
                        sink &+= lookup.answer(for: p, at: instant).timeZone?.utcOffsetSeconds ?? 0
                    }
                })
        }
        if sink == 42 { print("") }  // keep the work observable

        let zones = points.map { p in layer.index.covering(p).first.map { layer.features[$0].id } ?? "" }
        let withTzfpy = zip(zones, peers.answers).filter { $0 == $1.tzfpy }.count
        let withTimezonefinder = zip(zones, peers.answers).filter { $0 == $1.timezonefinder }.count
        let pass = Stats(passTimes), full = Stats(fullTimes)
        let empty = Stats(peers.emptyCall), tzfpy = Stats(peers.tzfpy), finder = Stats(peers.timezonefinder)

        print("| time zones: what | ns per point (min / median) | agrees with timezonefinder |")
        print("|---|---:|---:|")
        print(
            "| geoq lookup pass (PolygonIndex.forEachCovering) | \(GeoqBench.fmt(pass.min)) / \(GeoqBench.fmt(pass.median)) | \(withTimezonefinder)/\(points.count) |"
        )
        print(
            "| geoq whole which-sector answer with the local time | \(GeoqBench.fmt(full.min)) / \(GeoqBench.fmt(full.median)) | |"
        )
        print(
            "| tzfpy \(peers.versions["tzfpy"] ?? "?") `get_tz`, from Python | \(GeoqBench.fmt(tzfpy.min)) / \(GeoqBench.fmt(tzfpy.median)) | \(peers.answers.filter { $0.tzfpy == $0.timezonefinder }.count)/\(points.count) |"
        )
        print(
            "| timezonefinder \(peers.versions["timezonefinder"] ?? "?") `timezone_at` (in_memory), from Python | \(GeoqBench.fmt(finder.min)) / \(GeoqBench.fmt(finder.median)) | — |"
        )
        print(
            "| Python's own loop and call of a function that does nothing | \(GeoqBench.fmt(empty.min)) / \(GeoqBench.fmt(empty.median)) | |"
        )
        print("")
        print(
            "Time zones: \(layer.features.count) zones, \(vertices) vertices; geoq load + index (read the GeoJSON, check every polygon with GEOS, index) \(GeoqBench.format(loadTime)); "
                + String(
                    format: "ready in Python: tzfpy %.0f ms, timezonefinder %.0f ms.",
                    peers.ready["tzfpy"] ?? .nan, peers.ready["timezonefinder"] ?? .nan)
        )
        print(
            "Index alone: \(GeoqBench.format(indexTime)) without the sole-cover grid, \(GeoqBench.format(indexWithGridTime)) with it; "
                + String(
                    format: "%.1f %% of the grid's %d cells answer without a point-in-polygon test.",
                    (layer.index.soleCoverShare ?? 0) * 100, layer.index.soleCoverCellCount))
        print(
            "Points: \(points.count) uniform on the sphere (seed \(options.seed)), the same for all; \(options.runs) runs. geoq agrees with tzfpy on \(withTzfpy)/\(points.count). "
                + "The whole answer (covering zone, its nearest edge and geodesic distance, the local time) is timed on the first \(fullPoints.count) points. "
                + "The Python figures are a Python loop calling the library once per point: they include Python's loop and call overhead (the last row), "
                + "and timezonefinder's one more call of a closure that passes keyword arguments."
        )
        print("")
    }

    /// Points uniform on the sphere: longitude uniform, sine of the latitude uniform.
    static func uniformOnTheSphere(count: Int, seed: UInt64) -> [Point] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let longitude = Double.random(in: -180..<180, using: &rng)
            let latitude = asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi
            return Point(latitude: latitude, longitude: longitude)
        }
    }

    /// What peers.py measured and answered.
    struct Peers {
        var emptyCall: [Double], tzfpy: [Double], timezonefinder: [Double]
        var ready: [String: Double], versions: [String: String]
        var answers: [(tzfpy: String, timezonefinder: String)]

        static func measure(_ points: [Point], root: URL, runs: Int, progress: Progress) throws -> Peers {
            let python = root.appendingPathComponent(".build-venv-timezones/bin/python")
            guard FileManager.default.isExecutableFile(atPath: python.path) else {
                throw BenchmarkError("no \(python.path); run tools/fetch-benchmark-data.sh timezones")
            }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "geoq-bench-timezones-\(ProcessInfo.processInfo.processIdentifier)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let pointsFile = directory.appendingPathComponent("points.csv")
            let answersFile = directory.appendingPathComponent("answers.csv")
            // %.17g: the very same doubles reach Python.
            let lines = points.map { String(format: "%.17g,%.17g\n", $0.latitude, $0.longitude) }.joined()
            try Data(lines.utf8).write(to: pointsFile)

            progress.note("time zones: tzfpy and timezonefinder (Python)")
            let process = Process()
            process.executableURL = python
            process.arguments = [
                root.appendingPathComponent("benchmarks/timezones/peers.py").path, pointsFile.path,
                answersFile.path, String(runs),
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw BenchmarkError("peers.py failed with status \(process.terminationStatus)")
            }
            struct Report: Decodable {
                var emptyCallNanoseconds: [Double], tzfpyNanoseconds: [Double], timezonefinderNanoseconds: [Double]
                var readyMilliseconds: [String: Double], versions: [String: String]
            }
            let report = try JSONDecoder().decode(Report.self, from: data)
            let answers = try String(contentsOf: answersFile, encoding: .utf8).split(separator: "\n").map { line in
                let parts = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                return (tzfpy: parts.first ?? "", timezonefinder: parts.count > 1 ? parts[1] : "")
            }
            guard answers.count == points.count else {
                throw BenchmarkError("peers.py answered \(answers.count) of \(points.count) points")
            }
            return Peers(
                emptyCall: report.emptyCallNanoseconds, tzfpy: report.tzfpyNanoseconds,
                timezonefinder: report.timezonefinderNanoseconds, ready: report.readyMilliseconds,
                versions: report.versions, answers: answers)
        }
    }
}
