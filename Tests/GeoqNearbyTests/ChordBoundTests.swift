import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import Testing

@testable import GeoqNearby

/// The chord bounds of the geodesic (`ChordBound`) and the tree's boxes: what the search
/// prunes by must never cut off a point that belongs in the answer.
@Suite struct ChordBoundTests {
    /// GeographicLib's GeodTest-short: 10,000 WGS84 geodesics with their exact length s12.
    static let geodTest = TestData.url("test-suites/geographiclib/GeodTest-short.dat.gz")

    /// The decompressed file.
    static func geodTestText() throws -> String {
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gzip -dc \"$0\"", geodTest.path]
        let pipe = Pipe()
        gunzip.standardOutput = pipe
        try gunzip.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        gunzip.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func geodesics() throws -> [(start: Point, end: Point, s12: Double)] {
        try geodTestText().split(separator: "\n").map { line in
            let f = line.split(separator: " ").map { Double($0)! }
            return (Point(latitude: f[0], longitude: f[1]), Point(latitude: f[3], longitude: f[4]), f[6])
        }
    }

    /// The straight-line distance in metres between two points of the ellipsoid.
    static func chord(_ a: Point, _ b: Point) -> Double {
        let d =
            EllipsoidPosition(latitude: a.latitude, longitude: a.longitude)
            - EllipsoidPosition(latitude: b.latitude, longitude: b.longitude)
        return (d * d).sum().squareRoot()
    }

    /// c ≤ s12 ≤ longestGeodesic(c) on every line of the file (the upper bound on the 4,062 with
    /// a chord up to 10,000 km; the file runs to 20,004 km), and the upper bound is tight: within
    /// 2 mm of s12 below 10 km and within 10 m below 200 km (c³/24r² is 1.0 mm and 8.3 m).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: geodTest.path), "GeodTest-short.dat.gz not found"))
    func chordBoundsHoldOnGeodTest() throws {
        let lines = try Self.geodesics()
        #expect(lines.count == 10_000)
        var bounded = 0, worstShort = 0.0, worstMedium = 0.0
        for (start, end, s12) in lines {
            let c = Self.chord(start, end)
            #expect(c <= s12 + 1e-9, "\(start) → \(end): chord \(c) > s12 \(s12)")
            let upper = ChordBound.longestGeodesic(chord: c)
            guard c <= ChordBound.longestChord else {
                #expect(upper == .infinity)
                continue
            }
            bounded += 1
            #expect(s12 <= upper, "\(start) → \(end): s12 \(s12) > bound \(upper)")
            if s12 < 10_000 { worstShort = max(worstShort, upper - s12) }
            if s12 < 200_000 { worstMedium = max(worstMedium, upper - s12) }
        }
        #expect(bounded == 4_062)
        #expect(worstShort < 0.002)
        #expect(worstMedium < 10)
    }

    /// The long lines' lower bound (`PointIndex.shortestGeodesic`) never exceeds the exact
    /// length on GeodTest-short; for chords from 100 km to 10,000 km (Lambert's formula) it is
    /// within 3·10⁻⁵ of it, and beyond 5,000 km always within the flattening (0.34 %: the
    /// reduced sphere's b·σ, exactly that far along the equator).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: geodTest.path), "GeodTest-short.dat.gz not found"))
    func longLineBoundHoldsOnGeodTest() throws {
        var lambertLines = 0
        for (start, end, s12) in try Self.geodesics() {
            let a = EllipsoidPosition(latitude: start.latitude, longitude: start.longitude)
            let b = EllipsoidPosition(latitude: end.latitude, longitude: end.longitude)
            let c = Self.chord(start, end)
            let bound = PointIndex.shortestGeodesic(from: a, to: b, squaredChord: c * c)
            #expect(bound <= s12 + 1e-9, "\(start) → \(end): bound \(bound) > s12 \(s12)")
            #expect(bound >= c)
            if s12 > 5_000_000 {
                #expect(
                    bound >= s12 * (1 - 1 / 298.257_223_563) * (1 - 1e-9),
                    "\(start) → \(end): bound \(bound), s12 \(s12)")
            }
            if c > 100_000 && c <= 10_000_000 {
                lambertLines += 1
                #expect(bound >= s12 * (1 - 3e-5), "\(start) → \(end): bound \(bound), s12 \(s12)")
            }
        }
        #expect(lambertLines >= 3_000)
    }

    /// The same bound on 200,000 random lines (chords 100 km to 10,000 km, at every latitude
    /// and direction) against PROJ's Karney: never above it (a nanometre for rounding), within
    /// 3·10⁻⁵ below.
    @Test func longLineBoundHoldsOnRandomLines() {
        let wgs84 = Geodesic.wgs84
        var random = SeededRandom(seed: 41)
        var tested = 0
        while tested < 200_000 {
            let start = random.pointOnSphere()
            let end = wgs84.direct(
                from: start, azimuth: random.uniform(-180...180), distance: exp(random.uniform(log(1e5)...log(1.2e7))))
            let c = Self.chord(start, end)
            guard c > 100_000 && c <= 10_000_000 else { continue }
            tested += 1
            let s12 = wgs84.inverse(from: start, to: end).distance
            let bound = PointIndex.shortestGeodesic(
                from: EllipsoidPosition(latitude: start.latitude, longitude: start.longitude),
                to: EllipsoidPosition(latitude: end.latitude, longitude: end.longitude), squaredChord: c * c)
            #expect(bound <= s12 + 1e-9, "\(start) → \(end): bound \(bound) > s12 \(s12)")
            #expect(bound >= s12 * (1 - 3e-5), "\(start) → \(end): bound \(bound), s12 \(s12)")
        }
    }

    /// The upper bound is tightest where the curvature is largest, along a meridian at the
    /// equator (radius b²/a): Karney's lengths there, 1 m to 9,000 km, stay below it.
    @Test func upperBoundHoldsAlongTheEquatorialMeridian() {
        let wgs84 = Geodesic.wgs84
        for exponent in stride(from: 0.0, through: 6.95, by: 0.05) {
            let length = pow(10, exponent)
            for start in [Point(latitude: -length / 222_000, longitude: 10), Point(latitude: 0, longitude: -170)] {
                let end = wgs84.direct(from: start, azimuth: 0, distance: length)
                let s = wgs84.distanceAndBearing(from: start, to: end).distance
                let c = Self.chord(start, end)
                #expect(c <= s + 1e-9)
                #expect(s <= ChordBound.longestGeodesic(chord: c), "length \(length)")
            }
        }
        // Against the circle of the radius it assumes: within 0.4 m where it takes the series
        // (up to 634 km), within its rounding margin where it takes asin.
        let r = ChordBound.radius
        for c in [1.0, 1_000, 100_000, 600_000, 1_000_000, 9_000_000] {
            let circle = 2 * r * asin(c / (2 * r))
            let bound = ChordBound.longestGeodesic(chord: c)
            #expect(bound >= circle)
            #expect(bound - circle <= (c <= 634_000 ? 0.4 : 2e-6 + 1e-12 * circle), "chord \(c)")
        }
        #expect(ChordBound.longestGeodesic(chord: 10_000_001) == .infinity)
    }

    /// The brute-force prefilter of ``GeoNamesTests`` relies on b²/a · σ ≤ s12 ≤ a²/b · σ, with σ
    /// the angle between the two geodetic normals: on the file, the smallest ratio s12 / σ is
    /// 6,335,522.5 m (a short line along the meridian near the equator), the largest
    /// 6,399,593.56 m.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: geodTest.path), "GeodTest-short.dat.gz not found"))
    func normalAngleRadiiHoldOnGeodTest() throws {
        var smallest = Double.infinity, largest = 0.0
        for (start, end, s12) in try Self.geodesics() {
            let r = Double.pi / 180
            let h =
                pow(sin((end.y - start.y) * r / 2), 2) + cos(start.y * r) * cos(end.y * r)
                * pow(sin((end.x - start.x) * r / 2), 2)
            let sigma = 2 * asin(min(1, h.squareRoot()))
            guard sigma > 0 else { continue }
            smallest = min(smallest, s12 / sigma)
            largest = max(largest, s12 / sigma)
        }
        #expect(smallest >= GeoNamesTests.lowerRadius)
        #expect(smallest < 6_336_000, "the file has lines that make the bound tight")
        #expect(largest <= GeoNamesTests.upperRadius)
    }

    /// The tree's boxes hold their points: at every level, the squared distance from a query to
    /// a box is at most the squared chord to every point under it. Random points world-wide, at
    /// the poles and on both sides of the antimeridian.
    @Test func treeBoxesHoldTheirPoints() {
        var rng = SeededRandom(seed: 4242)
        var points: [Point] = (0..<3000).map { _ in rng.pointOnSphere() }
        points += (0..<300).map { _ in Point(latitude: rng.uniform(89.9...90), longitude: rng.uniform(-180...180)) }
        points += (0..<300).map { _ in Point(latitude: rng.uniform(-1...1), longitude: rng.uniform(179.99...180)) }
        points += (0..<300).map { _ in Point(latitude: rng.uniform(-1...1), longitude: rng.uniform(-180 ... -179.99)) }
        let tree = PositionTree(points.enumerated().map { ($0, $1.latitude, $1.longitude) })
        #expect(tree.count == points.count)
        #expect(Set(tree.items.map { Int($0) }) == Set(points.indices))
        // Every point's stored position is the one its latitude and longitude give.
        for i in 0..<tree.count {
            let p = points[Int(tree.items[i])]
            #expect(tree.position(at: i) == EllipsoidPosition(latitude: p.latitude, longitude: p.longitude))
        }
        var queries = (0..<40).map { _ in rng.pointOnSphere() }
        queries += [Point(latitude: 90, longitude: 0), Point(latitude: 0.5, longitude: -179.995)]
        for q in queries {
            let query = EllipsoidPosition(latitude: q.latitude, longitude: q.longitude)
            // Every box at every level, against every point below it.
            var below = Array(0..<tree.count).map { [$0] }
            for level in 1...tree.rootLevel {
                var next: [[Int]] = []
                for entry in 0..<tree.levelCounts[level] {
                    let first = entry * PositionTree.nodeSize
                    let members = below[first..<min(first + PositionTree.nodeSize, below.count)].flatMap { $0 }
                    let key = tree.squaredDistance(from: query, level: level, entry: entry)
                    for j in members {
                        let p = points[Int(tree.items[j])]
                        let c = Self.chord(q, p)
                        #expect(key <= c * c, "box \(level)/\(entry) above its point \(p), query \(q)")
                    }
                    next.append(members)
                }
                below = next
            }
        }
    }
}
