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

    static func geodesics() throws -> [(start: Point, end: Point, s12: Double)] {
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gzip -dc \"$0\"", geodTest.path]
        let pipe = Pipe()
        gunzip.standardOutput = pipe
        try gunzip.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        gunzip.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
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

    /// Random boxes (wide, narrow, over the poles and next to the antimeridian) and queries:
    /// the box bound is below Karney's distance to every sampled point of the box, its corners
    /// and edges included, and not above the smallest sampled point bound (within the 0.4 m of
    /// the cosine cushion).
    @Test func boxBoundIsBelowEveryPointOfTheBox() {
        var rng = SeededRandom(seed: 4242)
        let wgs84 = Geodesic.wgs84
        for k in 0..<400 {
            let box: BoundingBox
            switch k % 4 {
            case 0:
                let x = rng.uniform(-180...180), y = rng.uniform(-90...90)
                box = BoundingBox(
                    minX: x, minY: y, maxX: min(180, x + rng.uniform(0...60)), maxY: min(90, y + rng.uniform(0...30)))
            case 1:
                box = BoundingBox(minX: rng.uniform(179...179.99), minY: rng.uniform(-5...0), maxX: 180, maxY: 5)
            case 2:
                box = BoundingBox(
                    minX: rng.uniform(-180 ... -100), minY: rng.uniform(80...89.99), maxX: rng.uniform(0...180),
                    maxY: 90)
            default:
                let x = rng.uniform(-1...1), y = rng.uniform(-89...89)
                box = BoundingBox(minX: x, minY: y, maxX: x + 0.001, maxY: y + 0.001)
            }
            let q: Point
            switch k % 3 {
            case 0: q = rng.pointOnSphere()
            case 1: q = Point(x: -179.995, y: rng.uniform(-10...10))
            default: q = Point(x: rng.uniform(-180...180), y: rng.uniform(85...90))
            }
            let bound = SphericalBound(query: q).distance(to: box)
            var smallestPointBound = Double.infinity
            let steps = 24
            for i in 0...steps {
                for j in 0...steps {
                    let p = Point(
                        x: box.minX + (box.maxX - box.minX) * Double(i) / Double(steps),
                        y: box.minY + (box.maxY - box.minY) * Double(j) / Double(steps))
                    let exact = wgs84.distanceAndBearing(from: q, to: p).distance
                    #expect(bound < exact || exact == 0, "box \(box), query \(q), point \(p)")
                    smallestPointBound = min(smallestPointBound, SphericalBound(query: q).distance(x: p.x, y: p.y))
                }
            }
            #expect(bound <= smallestPointBound + 0.5, "tight within the cushion")
        }
    }

    @Test func emptyAndDegenerateBoxes() {
        let bound = SphericalBound(query: Point(x: 10, y: 20))
        #expect(bound.distance(to: .empty) == .infinity)
        #expect(bound.distance(to: BoundingBox(minX: 10, minY: 20, maxX: 10, maxY: 20)) < 0)
        #expect(bound.distance(to: BoundingBox(minX: 0, minY: 0, maxX: 30, maxY: 40)) < 0, "inside the box")
    }
}
