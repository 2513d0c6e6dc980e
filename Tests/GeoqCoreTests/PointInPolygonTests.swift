import GeoqTestSupport
import Testing

@testable import GeoqCore

private func ring(_ coords: [(Double, Double)]) -> Ring {
    try! Ring(coords.map { Point(x: $0.0, y: $0.1) })
}

/// A 10 x 10 square with a 2 x 2 hole in the middle, and a separate triangle to its right.
private let square = Polygon(
    shell: ring([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]),
    holes: [ring([(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)])])
private let triangle = Polygon(shell: ring([(20, 0), (30, 0), (25, 8), (20, 0)]))

@Suite struct PointInPolygonTests {
    /// Expected locations worked out by hand from the drawing above.
    static let cases: [(x: Double, y: Double, expected: Location, why: String)] = [
        (5, 2, .interior, "inside the shell, below the hole"),
        (5, 5, .exterior, "inside the hole"),
        (4, 5, .boundary, "on the hole's left edge"),
        (6, 6, .boundary, "on a hole vertex"),
        (0, 0, .boundary, "on the shell's first vertex"),
        (10, 5, .boundary, "on the shell's right edge"),
        (5, 10, .boundary, "on the top edge (horizontal)"),
        (5, 0, .boundary, "on the bottom edge (horizontal)"),
        (-1, 5, .exterior, "left of the shell"),
        (11, 5, .exterior, "right of the shell"),
        (0.000_001, 9.999_999, .interior, "just inside a corner"),
        (25, 4, .interior, "inside the triangle"),
        (22.5, 4, .boundary, "midpoint of the triangle's left edge, exactly representable"),
        (25, 8, .boundary, "triangle apex"),
        (15, 0, .exterior, "between the two parts, on the line of both bottoms"),
    ]

    @Test(arguments: cases)
    func handWorkedLocations(_ c: (x: Double, y: Double, expected: Location, why: String)) {
        let mp = MultiPolygon([square, triangle])
        let p = Point(x: c.x, y: c.y)
        #expect(mp.locate(p) == c.expected, "\(c.why): scan")
        let indexed = IndexedPolygon(mp)
        #expect(indexed.locate(p) == c.expected, "\(c.why): indexed")
        #expect(indexed.covers(p) == c.expected.isCovered, "\(c.why): covers")
    }

    @Test func partsTouchingAtAPoint() {
        // Two squares meeting at the corner (1, 1), as in GEOS's TestRelatePA "mod-2" case:
        // the shared corner is on the multipolygon's boundary, not in its interior.
        let lower = Polygon(shell: ring([(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]))
        let upper = Polygon(shell: ring([(1, 1), (2, 1), (2, 2), (1, 2), (1, 1)]))
        let mp = MultiPolygon([lower, upper])
        for locate in [mp.locate, IndexedPolygon(mp).locate] {
            #expect(locate(Point(x: 1, y: 1)) == .boundary)
            #expect(locate(Point(x: 1.5, y: 1.5)) == .interior)
            #expect(locate(Point(x: 0.5, y: 1.5)) == .exterior)
        }
    }

    /// The stripe index must give the scan's answer everywhere, including vertices, edge
    /// midpoints and points a hair away from edges, on random star-shaped polygons with holes.
    @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
    func indexedAgreesWithScan(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let vertexCount = Int.random(in: 5...4000, using: &rng)
        let shell = starRing(center: Point(x: 0, y: 0), radius: 1...10, count: vertexCount, rng: &rng)
        let hole = starRing(center: Point(x: 0.2, y: -0.1), radius: 0.2...0.9, count: 50, rng: &rng)
        let polygon = Polygon(shell: shell, holes: [hole])
        let indexed = IndexedPolygon(polygon)
        #expect(indexed._checkInvariants())
        var probes: [Point] = []
        for _ in 0..<3000 { probes.append(Point(x: rng.uniform(-11...11), y: rng.uniform(-11...11))) }
        for r in [shell, hole] {
            for i in stride(from: 1, to: r.points.count, by: Swift.max(1, r.points.count / 300)) {
                let a = r.points[i - 1], b = r.points[i]
                probes.append(a)
                probes.append(Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
                probes.append(Point(x: a.x.nextUp, y: a.y))
                probes.append(Point(x: a.x, y: a.y.nextDown))
            }
        }
        var mismatches = 0
        var seen: Set<Location> = []
        for p in probes {
            let expected = polygon.locate(p)
            seen.insert(expected)
            if indexed.locate(p) != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(seen == [.interior, .boundary, .exterior], "the probes must exercise every location")
    }
}

/// A simple polygon: vertices at increasing angles around `center`, random radii.
func starRing(center: Point, radius: ClosedRange<Double>, count: Int, rng: inout SeededRandom) -> Ring {
    var pts: [Point] = []
    for i in 0..<count {
        let angle = 2 * Double.pi * Double(i) / Double(count)
        let r = rng.uniform(radius)
        pts.append(Point(x: center.x + r * cosine(angle), y: center.y + r * sine(angle)))
    }
    pts.append(pts[0])
    return try! Ring(pts)
}

// Taylor-free trigonometry without Foundation: the core tests stay free of libm imports by
// using the standard library's own math via `Double` methods is not available, so go through
// a tiny wrapper on the platform C library.
#if canImport(Glibc)
    import Glibc
    func sine(_ x: Double) -> Double { sin(x) }
    func cosine(_ x: Double) -> Double { cos(x) }
#else
    import Darwin
    func sine(_ x: Double) -> Double { sin(x) }
    func cosine(_ x: Double) -> Double { cos(x) }
#endif
