import Foundation
import GeoqCore
import GeoqGEOS
import GeoqNearby
import GeoqPROJ
import GeoqTestSupport

/// Nearest-10 by geodesic distance over the GeoNames cities500 points (234,908 places, fetched
/// by `tools/fetch-benchmark-data.sh geonames` into data/external/geonames/cities500.json):
/// geoq's ``PointIndex`` against a brute-force scan (Karney to every city, on fewer queries),
/// on the same seeded queries uniform on the sphere. Prints a Markdown table.
///
/// The index solves long lines with geoq's own Karney (``KarneyGeodesic``); the same index with
/// PROJ's `geod_inverse` for those lines runs beside it, and one solve of each is timed on the
/// same random lines.
///
/// GEOS is compared on the question it can answer: its STRtree nearest
/// (`GEOSSTRtree_nearest_generic_r`) returns a single item by *planar* distance (degrees), so the
/// peer row is nearest-1, against geoq's geodesic nearest-1 on the same queries, with a count of
/// the queries where the planar answer is not the geodesically nearest city.
enum NearestBenchmark {
    static let limit = 10

    /// - Parameters:
    ///   - root: the repository root (data/external/geonames/cities500.json is read from it).
    ///   - queries: nearest-10 queries of each kind per run for geoq.
    ///   - bruteQueries: queries of each kind the brute force answers and geoq is checked against.
    ///   - cities: use only the first this many cities (all when nil).
    static func run(
        root: URL, runs: Int, progress: Progress, queries queryCount: Int = 10_000, bruteQueries bruteCount: Int = 25,
        cities: Int? = nil, seed: UInt64 = 2026
    ) throws {
        let file = root.appendingPathComponent("data/external/geonames/cities500.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            progress.note("GeoNames not found; run tools/fetch-benchmark-data.sh geonames")
            return
        }
        progress.note("nearest: reading \(file.path)")
        let allPoints = try loadCities(file)
        let points = cities.map { Array(allPoints.prefix($0)) } ?? allPoints
        let geodesic = KarneyGeodesic.wgs84
        let proj = Geodesic.wgs84

        var buildTimes: [Double] = []
        var index = PointIndex([])
        for run in 1...runs {
            progress.note("nearest: building the index, run \(run)/\(runs)")
            let start = ContinuousClock.now
            index = PointIndex(points)
            buildTimes.append(GeoqBench.nanoseconds(ContinuousClock.now - start))
        }

        var rng = SeededRandom(seed: seed)
        let pointAt = Point.init(latitude:longitude:)
        let queries = (0..<queryCount).map { _ in rng.positionOnSphere(pointAt) }
        // Where a mobility app asks: within about 5 km of a random city.
        let nearCities = (0..<queryCount).map { _ in
            let city = points[Int.random(in: 0..<points.count, using: &rng)]
            return Point(
                latitude: max(-90, min(90, city.y + rng.uniform(-0.05...0.05))),
                longitude: max(-180, min(180, city.x + rng.uniform(-0.05...0.05))))
        }
        let bruteQueries = Array(queries.prefix(bruteCount) + nearCities.prefix(bruteCount))

        // Agreement with brute force, and how many geodesics geoq solves per query.
        let counting = CountingGeodesic(geodesic)
        var agreements = 0
        for q in bruteQueries {
            let ours = index.nearest(to: q, limit: limit, geodesic: geodesic)
            if ours.agrees(with: bruteForce(points, q, proj)) { agreements += 1 }
        }
        counting.reset()
        for q in queries { _ = index.nearest(to: q, limit: limit, geodesic: counting) }
        let solvesPerQuery = Double(counting.count) / Double(queries.count)
        counting.reset()
        for q in nearCities { _ = index.nearest(to: q, limit: limit, geodesic: counting) }
        let solvesPerNearQuery = Double(counting.count) / Double(nearCities.count)
        counting.deallocate()
        if agreements != bruteQueries.count {
            progress.note("nearest: \(bruteQueries.count - agreements) queries where geoq and brute force disagree")
        }

        // One solve, geoq's Karney against PROJ's, on the same lines uniform on the sphere.
        let lines = (0..<min(100_000, 10 * queryCount)).map { _ in
            (rng.positionOnSphere(pointAt), rng.positionOnSphere(pointAt))
        }
        var worstSolveDifference = 0.0
        for (a, b) in lines {
            let difference = abs(geodesic.inverse(from: a, to: b).distance - proj.inverse(from: a, to: b).distance)
            worstSolveDifference = max(worstSolveDifference, difference)
        }

        var geoqTimes: [Double] = [], nearTimes: [Double] = [], bruteTimes: [Double] = []
        var projTimes: [Double] = [], projNearTimes: [Double] = []
        var firstOrderTimes: [Double] = [], firstOrderNearTimes: [Double] = []
        var swiftSolveTimes: [Double] = [], projSolveTimes: [Double] = []
        var sink = 0
        var solveSink = 0.0
        for run in 1...runs {
            progress.note("nearest: run \(run)/\(runs)")
            geoqTimes.append(
                GeoqBench.time(queries.count) { sink &+= geoqPass(index, queries, geodesic) })
            nearTimes.append(
                GeoqBench.time(nearCities.count) { sink &+= geoqPass(index, nearCities, geodesic) })
            firstOrderTimes.append(
                GeoqBench.time(queries.count) { sink &+= firstOrderPass(index, queries) })
            firstOrderNearTimes.append(
                GeoqBench.time(nearCities.count) { sink &+= firstOrderPass(index, nearCities) })
            projTimes.append(
                GeoqBench.time(queries.count) { sink &+= geoqPass(index, queries, proj) })
            projNearTimes.append(
                GeoqBench.time(nearCities.count) { sink &+= geoqPass(index, nearCities, proj) })
            swiftSolveTimes.append(GeoqBench.time(lines.count) { solveSink += solvePass(lines, geodesic) })
            projSolveTimes.append(GeoqBench.time(lines.count) { solveSink += solvePass(lines, proj) })
            bruteTimes.append(
                GeoqBench.time(bruteQueries.count) {
                    for q in bruteQueries { sink &+= bruteForce(points, q, proj)[0].item }
                })
        }
        if solveSink == 42 { print("") }
        // The GEOS peer: nearest-1 by planar distance in degrees, the only nearest GEOS offers.
        let context = GEOSContext()
        var geosBuild: [Double] = []
        var tree: GEOSSTRtree?
        for run in 1...runs {
            progress.note("nearest: building GEOS's STRtree, run \(run)/\(runs)")
            tree = nil
            let start = ContinuousClock.now
            tree = try GEOSSTRtree(
                context: context,
                items: points.enumerated().map {
                    (box: BoundingBox(minX: $1.x, minY: $1.y, maxX: $1.x, maxY: $1.y), id: $0)
                })
            geosBuild.append(GeoqBench.nanoseconds(ContinuousClock.now - start))
        }
        let geosTree = tree!
        func geosNearest(_ q: Point) throws -> Int {
            try geosTree.nearest(to: q) { id in
                let p = points[id]
                return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
            }!
        }
        func planarMisses(_ set: [Point]) throws -> Int {
            var count = 0
            for q in set {
                let ours = index.nearest(to: q, limit: 1, geodesic: geodesic)[0]
                let theirs = try geosNearest(q)
                if theirs != ours.item && proj.inverse(from: q, to: points[theirs]).distance != ours.distance {
                    count += 1
                }
            }
            return count
        }
        let uniformMisses = try planarMisses(queries), nearMisses = try planarMisses(nearCities)
        var geos1: [Double] = [], geosNear1: [Double] = [], geoq1: [Double] = [], geoqNear1: [Double] = []
        for run in 1...runs {
            progress.note("nearest-1: run \(run)/\(runs)")
            geos1.append(
                try GeoqBench.timeThrowing(queries.count) {
                    for q in queries { sink &+= try geosNearest(q) }
                })
            geosNear1.append(
                try GeoqBench.timeThrowing(nearCities.count) {
                    for q in nearCities { sink &+= try geosNearest(q) }
                })
            geoq1.append(
                GeoqBench.time(queries.count) { sink &+= geoqPass(index, queries, geodesic, limit: 1) })
            geoqNear1.append(
                GeoqBench.time(nearCities.count) { sink &+= geoqPass(index, nearCities, geodesic, limit: 1) }
            )
        }
        if sink == 42 { print("") }  // keep the work observable

        let geoq = Stats(geoqTimes), near = Stats(nearTimes), brute = Stats(bruteTimes), build = Stats(buildTimes)
        let projUniform = Stats(projTimes), projNear = Stats(projNearTimes)
        let firstUniform = Stats(firstOrderTimes), firstNear = Stats(firstOrderNearTimes)
        let swiftSolve = Stats(swiftSolveTimes), projSolve = Stats(projSolveTimes)
        let fmt = GeoqBench.fmt
        print("")
        print(
            "| nearest-10 over GeoNames cities500 | points | build (min / mean) | ns/query (min / median / mean) | queries/s (median) | agree |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        print(
            "| geoq PointIndex, queries uniform on the sphere | \(points.count) | \(ms(build.min)) / \(ms(build.mean)) "
                + "| \(fmt(geoq.min)) / \(fmt(geoq.median)) / \(fmt(geoq.mean)) | \(qps(geoq.median)) | \(agreements)/\(bruteQueries.count) |"
        )
        print(
            "| geoq PointIndex, queries within 0.05° of a city | \(points.count) | (same index) "
                + "| \(fmt(near.min)) / \(fmt(near.median)) / \(fmt(near.mean)) | \(qps(near.median)) | (same) |")
        print(
            "| same index, Karney's last step by first order (one evaluation more), uniform | \(points.count) | (same index) "
                + "| \(fmt(firstUniform.min)) / \(fmt(firstUniform.median)) / \(fmt(firstUniform.mean)) | \(qps(firstUniform.median)) | – |"
        )
        print(
            "| same index, Karney's last step by first order, near a city | \(points.count) | (same index) "
                + "| \(fmt(firstNear.min)) / \(fmt(firstNear.median)) / \(fmt(firstNear.mean)) | \(qps(firstNear.median)) | – |"
        )
        print(
            "| same index, PROJ's geod_inverse for long lines, uniform | \(points.count) | (same index) "
                + "| \(fmt(projUniform.min)) / \(fmt(projUniform.median)) / \(fmt(projUniform.mean)) | \(qps(projUniform.median)) | – |"
        )
        print(
            "| same index, PROJ's geod_inverse for long lines, near a city | \(points.count) | (same index) "
                + "| \(fmt(projNear.min)) / \(fmt(projNear.median)) / \(fmt(projNear.mean)) | \(qps(projNear.median)) | – |"
        )
        print(
            "| brute force (PROJ's Karney to every point) | \(points.count) | – | \(fmt(brute.min)) / \(fmt(brute.median)) / \(fmt(brute.mean)) | \(qps(brute.median)) | – |"
        )
        print("")
        print(
            "| one inverse solve, \(lines.count) random lines uniform on the sphere | ns/solve (min / median / mean) |")
        print("|---|---:|")
        print(
            "| geoq KarneyGeodesic (Swift) | \(fmt(swiftSolve.min)) / \(fmt(swiftSolve.median)) / \(fmt(swiftSolve.mean)) |"
        )
        print("| PROJ 9.1.1 geod_inverse | \(fmt(projSolve.min)) / \(fmt(projSolve.median)) / \(fmt(projSolve.mean)) |")
        print("")
        print(
            "PROJ / geoq solve time (min): \(String(format: "%.2f", projSolve.min / swiftSolve.min))×; largest distance "
                + "difference on these lines \(worstSolveDifference) m.")
        print("")
        print(
            "Queries: \(queries.count) uniform on the sphere and \(nearCities.count) within 0.05° of a random city "
                + "(seed \(seed)); brute force and the agreement check on \(bruteCount) of each; \(runs) runs, min, median and "
                + "mean of ns per query. geoq solves \(String(format: "%.1f", solvesPerQuery)) (uniform) and "
                + "\(String(format: "%.1f", solvesPerNearQuery)) (near cities) Karney inverse problems per nearest-10 "
                + "query; the brute force takes \(fmt(brute.min / Double(points.count))) per PROJ solve; lines under 100 km take the short-line formula (agreement: same ids in the same order, distances within \(PointIndex.distanceTolerance) m, bearings within \(PointIndex.bearingTolerance)°)."
        )
        let g1 = Stats(geos1), gn1 = Stats(geosNear1), q1 = Stats(geoq1), qn1 = Stats(geoqNear1)
        let gb = Stats(geosBuild)
        print("")
        print(
            "| nearest-1 over GeoNames cities500 | build (min / mean) | ns/query uniform (min / mean) | ns/query near cities (min / mean) | not the geodesic nearest |"
        )
        print("|---|---:|---:|---:|---:|")
        print(
            "| geoq PointIndex (geodesic, exact) | \(ms(build.min)) / \(ms(build.mean)) | \(fmt(q1.min)) / \(fmt(q1.mean)) "
                + "| \(fmt(qn1.min)) / \(fmt(qn1.mean)) | 0 |")
        print(
            "| GEOS 3.11 STRtree nearest (planar degrees) | \(ms(gb.min)) / \(ms(gb.mean)) | \(fmt(g1.min)) / \(fmt(g1.mean)) "
                + "| \(fmt(gn1.min)) / \(fmt(gn1.mean)) | \(uniformMisses)/\(queries.count) uniform, "
                + "\(nearMisses)/\(nearCities.count) near cities |")
        print("")
        print(
            "GEOS / geoq time ratio (min): \(String(format: "%.2f", g1.min / q1.min))× uniform, "
                + "\(String(format: "%.2f", gn1.min / qn1.min))× near cities; build \(String(format: "%.2f", gb.min / build.min))×."
        )
        pairedLastSteps(index, uniform: queries, nearCities: nearCities, rounds: 4 * runs)
    }

    /// The second-order last step against the first-order one, in pairs: each round times the
    /// same 2,000 queries both ways, one after the other (which goes first alternates), by the
    /// thread's processor time, and the ratio of each pair is taken before the median, so that
    /// the shared machine's drifts of speed between rounds (10 to 30 % here) cancel.
    static func pairedLastSteps(_ index: PointIndex, uniform: [Point], nearCities: [Point], rounds: Int) {
        print("")
        print(
            "| nearest-10, processor time in pairs (\(rounds) rounds) | second order, ns (min / median) | first order, ns (min / median) | median ratio of a pair |"
        )
        print("|---|---:|---:|---:|")
        for (label, queries) in [("uniform", uniform), ("near a city", nearCities)] {
            let slice = Array(queries.prefix(2_000))
            var second: [Double] = [], first: [Double] = [], ratios: [Double] = []
            var sink = 0
            for round in 0..<rounds {
                func secondPass() -> Double {
                    threadTime(slice.count) { sink &+= geoqPass(index, slice, KarneyGeodesic.wgs84) }
                }
                func firstPass() -> Double { threadTime(slice.count) { sink &+= firstOrderPass(index, slice) } }
                var s = 0.0, f = 0.0
                if round.isMultiple(of: 2) {
                    s = secondPass()
                    f = firstPass()
                } else {
                    f = firstPass()
                    s = secondPass()
                }
                second.append(s)
                first.append(f)
                ratios.append(s / f)
            }
            if sink == 42 { print("") }
            let s = Stats(second), f = Stats(first), r = Stats(ratios)
            print(
                "| \(label) | \(GeoqBench.fmt(s.min)) / \(GeoqBench.fmt(s.median)) | \(GeoqBench.fmt(f.min)) / \(GeoqBench.fmt(f.median)) "
                    + "| \(String(format: "%.3f", r.median)) |")
        }
    }

    /// Nanoseconds of this thread's processor time per item of `body`.
    static func threadTime(_ count: Int, _ body: () -> Void) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        let ns = Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
        return ns / Double(count)
    }

    static func ms(_ ns: Double) -> String { String(format: "%.0f ms", ns / 1e6) }
    /// Queries per second on one core for `ns` nanoseconds per query.
    static func qps(_ ns: Double) -> String { String(format: ns > 1e8 ? "%.1f" : "%.0f", 1e9 / ns) }

    /// Item i is the i-th city by increasing geonameid.
    static func loadCities(_ file: URL) throws -> [Point] {
        let data = try Data(contentsOf: file)
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchmarkError("\(file.path): not a JSON object")
        }
        var rows: [(id: Int, point: Point)] = []
        rows.reserveCapacity(json.count)
        for (key, value) in json {
            guard let city = value as? [String: Any], let lat = city["latitude"] as? Double,
                let lon = city["longitude"] as? Double, let id = Int(key)
            else { throw BenchmarkError("\(file.path): city \(key) has no latitude and longitude") }
            rows.append((id, Point(latitude: lat, longitude: lon)))
        }
        rows.sort { $0.id < $1.id }
        return rows.map(\.point)
    }

    /// The nearest `limit` by Karney distance to every point, ties by index.
    static func bruteForce(_ points: [Point], _ q: Point, _ geodesic: Geodesic) -> [NearestHit] {
        var best: [NearestHit] = []
        best.reserveCapacity(limit + 1)
        for (i, p) in points.enumerated() {
            let d = geodesic.inverse(from: q, to: p).distance
            if best.count == limit && d >= best[limit - 1].distance { continue }
            let r = geodesic.distanceAndBearing(from: q, to: p)
            let hit = NearestHit(item: i, distance: r.distance, bearing: r.bearing)
            let at = best.firstIndex { ($0.distance, $0.item) > (hit.distance, hit.item) } ?? best.count
            best.insert(hit, at: at)
            if best.count > limit { best.removeLast() }
        }
        return best
    }

    @inline(never)
    static func solvePass(_ lines: [(Point, Point)], _ geodesic: some GeodesicSolving) -> Double {
        var sum = 0.0
        for (a, b) in lines { sum += geodesic.distanceAndBearing(from: a, to: b).distance }
        return sum
    }

    @inline(never)
    static func geoqPass(
        _ index: PointIndex, _ queries: [Point], _ geodesic: some GeodesicSolving, limit: Int = limit
    ) -> Int {
        var sink = 0
        for q in queries { sink &+= index.nearest(to: q, limit: limit, geodesic: geodesic).count }
        return sink
    }

    /// geoqPass with the long lines ranked by Karney's first-order last step (one more
    /// evaluation of most lines): the peer of the second-order step that nearest-N takes.
    @inline(never)
    static func firstOrderPass(_ index: PointIndex, _ queries: [Point]) -> Int {
        var sink = 0
        for q in queries {
            sink &+=
                index.nearest(
                    to: q, limit: limit, within: nil, where: { _ in true }, karney: .wgs84, rankingStep: .firstOrder
                ).count
        }
        return sink
    }
}

/// A solver that counts its calls (one thread at a time; the benchmark is sequential).
struct CountingGeodesic<Solver: GeodesicSolving>: GeodesicSolving, @unchecked Sendable {
    let geodesic: Solver
    let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init(_ geodesic: Solver) {
        self.geodesic = geodesic
        counter.initialize(to: 0)
    }

    var count: Int { counter.pointee }
    func reset() { counter.pointee = 0 }
    func deallocate() { counter.deallocate() }

    func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double) {
        counter.pointee += 1
        return geodesic.distanceAndBearing(from: a, to: b)
    }
}
