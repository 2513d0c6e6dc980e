import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import Testing

@testable import GeoqNearby

/// The fast path's bound: never above Karney's distance, for points and for boxes.
@Suite struct SphericalBoundTests {
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

    /// The central angle (radians) between the geodetic normals of `a` and `b`.
    static func centralAngle(_ a: Point, _ b: Point) -> Double {
        let r = Double.pi / 180
        let h = pow(sin((b.y - a.y) * r / 2), 2) + cos(a.y * r) * cos(b.y * r) * pow(sin((b.x - a.x) * r / 2), 2)
        return 2 * asin(min(1, h.squareRoot()))
    }

    /// s12 ≥ R_lower · σ for every line (R_lower = 6,335,000 m, b²/a rounded down), and also
    /// s12 ≤ (a²/b) · σ, the upper bound the GeoNames test's prefilter relies on. The smallest
    /// ratio s12 / σ in the file is 6,335,522.5 m (a short line near the equator along the
    /// meridian), the largest 6,399,593.56 m.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: geodTest.path), "GeodTest-short.dat.gz not found"))
    func lowerRadiusHoldsOnGeodTest() throws {
        let lines = try Self.geodesics()
        #expect(lines.count == 10_000)
        var smallest = Double.infinity, largest = 0.0
        for (start, end, s12) in lines {
            let bound = SphericalBound(query: start).distance(x: end.x, y: end.y)
            #expect(bound < s12 || s12 == 0, "\(start) → \(end): bound \(bound) > s12 \(s12)")
            let sigma = Self.centralAngle(start, end)
            guard sigma > 0 else { continue }
            smallest = min(smallest, s12 / sigma)
            largest = max(largest, s12 / sigma)
        }
        #expect(smallest >= SphericalBound.radius)
        #expect(smallest > 6_335_439, "b²/a = 6,335,439.3 m is the theoretical floor")
        #expect(smallest < 6_336_000, "the file has lines that make the bound tight")
        #expect(largest <= GeoNamesTests.upperRadius)
    }

    /// The tree's boxes hold their points, and the squared chord between normals stays below
    /// the bound the search compares it with, for Karney's distance: random points world-wide,
    /// at the poles and on both sides of the antimeridian.
    @Test func treeBoxesAndChordBoundAreBelowKarney() {
        var rng = SeededRandom(seed: 4242)
        let wgs84 = Geodesic.wgs84
        var points: [Point] = (0..<3000).map { _ in rng.pointOnSphere() }
        points += (0..<300).map { _ in Point(latitude: rng.uniform(89.9...90), longitude: rng.uniform(-180...180)) }
        points += (0..<300).map { _ in Point(latitude: rng.uniform(-1...1), longitude: rng.uniform(179.99...180)) }
        points += (0..<300).map { _ in Point(latitude: rng.uniform(-1...1), longitude: rng.uniform(-180 ... -179.99)) }
        let tree = NormalTree(points.enumerated().map { ($0, $1.latitude, $1.longitude) })
        #expect(tree.count == points.count)
        var queries = (0..<40).map { _ in rng.pointOnSphere() }
        queries += [Point(latitude: 90, longitude: 0), Point(latitude: 0.5, longitude: -179.995)]
        for q in queries {
            let normal = SIMD4<Double>(normalAtLatitude: q.latitude, longitude: q.longitude)
            // Every box at every level, against every point below it.
            var below = Array(0..<tree.count).map { [$0] }
            for level in 1...tree.rootLevel {
                var next: [[Int]] = []
                for entry in 0..<tree.levelCounts[level] {
                    let first = entry * NormalTree.nodeSize
                    let members = below[first..<min(first + NormalTree.nodeSize, below.count)].flatMap { $0 }
                    let key = tree.squaredDistance(from: normal, level: level, entry: entry)
                    for j in members {
                        let p = points[Int(tree.positions[j].w)]
                        let d = SIMD4<Double>(normalAtLatitude: p.latitude, longitude: p.longitude) - normal
                        #expect(key <= (d * d).sum(), "box \(level)/\(entry) above its point \(p), query \(q)")
                    }
                    next.append(members)
                }
                below = next
            }
            // The chord bound of the exact distance is above the squared chord of the normals.
            for p in points.prefix(500) {
                let s = wgs84.distanceAndBearing(from: q, to: p).distance
                let d = SIMD4<Double>(normalAtLatitude: p.latitude, longitude: p.longitude) - normal
                #expect((d * d).sum() <= PointIndex.squaredChordBound(metres: s), "\(q) → \(p)")
            }
        }
    }
}
