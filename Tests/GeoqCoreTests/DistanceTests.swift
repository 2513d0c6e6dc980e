import GeoqTestSupport
import Testing

@testable import GeoqCore

@Suite struct DistanceTests {
    /// WGS84 figures from the closed forms, computed separately in Python
    /// (a = 6378137, f = 1/298.257223563): a degree of longitude on the equator is
    /// a·π/180 = 111,319.4908 m; a degree of latitude there a(1-e²)·π/180 = 110,574.2758 m,
    /// and at the pole a/√(1-e²)·π/180 = 111,693.9796 m.
    @Test func wgs84Scales() {
        let equator = LocalMetric(wgs84AtLatitude: 0)
        #expect(abs(equator.metresPerDegreeX - 111_319.490_8) < 1e-3)
        #expect(abs(equator.metresPerDegreeY - 110_574.275_8) < 1e-3)
        let pole = LocalMetric(wgs84AtLatitude: 90)
        #expect(abs(pole.metresPerDegreeY - 111_693.979_6) < 1e-3)
        #expect(abs(pole.metresPerDegreeX) < 1e-6)
    }

    @Test func closestPointOnSegment() {
        let s = Segment(Point(x: 0, y: 0), Point(x: 10, y: 0))
        let m = LocalMetric.planar
        #expect(m.closestPoint(on: s, to: Point(x: 3, y: 4)) == (Point(x: 3, y: 0), 4))
        #expect(m.closestPoint(on: s, to: Point(x: -3, y: 4)) == (Point(x: 0, y: 0), 5))
        #expect(m.closestPoint(on: s, to: Point(x: 13, y: -4)) == (Point(x: 10, y: 0), 5))
    }

    /// The edge R-tree search finds the same distance as scanning every edge.
    @Test(arguments: [3 as UInt64, 4])
    func nearestBoundaryMatchesScan(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let outer = starRing(center: Point(x: -1.64, y: 42.81), radius: 0.005...0.02, count: 2000, rng: &rng)
        let hole = starRing(center: Point(x: -1.64, y: 42.81), radius: 0.001...0.003, count: 40, rng: &rng)
        let indexed = IndexedPolygon(Polygon(shell: outer, holes: [hole]))
        for _ in 0..<300 {
            let p = Point(x: rng.uniform(-1.67...(-1.61)), y: rng.uniform(42.78...42.84))
            let metric = LocalMetric(wgs84AtLatitude: p.y)
            var best = Double.infinity
            for r in [outer, hole] {
                for i in 1..<r.points.count {
                    best = Swift.min(
                        best, metric.closestPoint(on: Segment(r.points[i - 1], r.points[i]), to: p).distance)
                }
            }
            let found = indexed.nearestBoundaryPoint(to: p, metric: metric)
            // Two edges meeting at the nearest vertex give that vertex's distance through two
            // formulas that can differ in the last bit, so compare to a nanometre.
            #expect(abs(found.distance - best) < 1e-9)
            #expect(abs(metric.distance(p, found.point) - best) < 1e-6)
        }
    }

    @Test func nearestFeatureByBoundary() {
        func square(_ x: Double, _ y: Double, _ s: Double) -> MultiPolygon {
            MultiPolygon([
                Polygon(
                    shell: try! Ring([
                        Point(x: x, y: y), Point(x: x + s, y: y), Point(x: x + s, y: y + s), Point(x: x, y: y + s),
                        Point(x: x, y: y),
                    ]))
            ])
        }
        let index = PolygonIndex([square(0, 0, 1), square(5, 0, 1), square(0, 10, 1)])
        let hits = index.nearestByBoundary(to: Point(x: 3.5, y: 0.5), metric: .planar, limit: 3)
        #expect(hits.map(\.item) == [1, 0, 2])
        #expect(hits.map(\.distance).prefix(2) == [1.5, 2.5])
        #expect(index.covering(Point(x: 5, y: 1)) == [1])
        #expect(index.firstCovering(Point(x: 3, y: 3)) == nil)
    }
}
