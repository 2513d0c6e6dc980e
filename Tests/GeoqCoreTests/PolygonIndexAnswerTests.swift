import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

/// The allocation-free paths of the which-sector answer against the general queries and a
/// scan of every edge, on seeded random overlapping polygons (some of several parts).
@Suite struct PolygonIndexAnswerTests {
    /// A random convex-ish polygon: `n` vertices around a centre at random radii.
    static func blob(_ rng: inout SeededRandom, centre: Point, radius: Double, vertices n: Int) -> Polygon {
        var points = (0..<n).map { k -> Point in
            let angle = 2 * Double.pi * Double(k) / Double(n)
            let r = radius * rng.uniform(0.5...1)
            return Point(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
        }
        points.append(points[0])
        return Polygon(shell: try! Ring(points))
    }

    static func randomShapes(_ count: Int, rng: inout SeededRandom) -> [MultiPolygon] {
        (0..<count).map { _ in
            let parts = rng.uniform(0...1) < 0.2 ? 2 : 1
            return MultiPolygon(
                (0..<parts).map { _ in
                    blob(
                        &rng, centre: Point(x: rng.uniform(0...1000), y: rng.uniform(0...1000)),
                        radius: rng.uniform(5...80), vertices: Int(rng.uniform(3...200)))
                })
        }
    }

    /// Nearest boundary of every item by a scan of all its edges: smallest distance, then
    /// lowest item.
    static func bruteNearest(_ shapes: [MultiPolygon], _ p: Point) -> (item: Int, distance: Double) {
        var best = (item: -1, distance: Double.infinity)
        for (item, shape) in shapes.enumerated() {
            for polygon in shape.polygons {
                for ring in polygon.rings {
                    for i in 1..<ring.points.count {
                        let d = LocalMetric.planar.closestPoint(on: Segment(ring.points[i - 1], ring.points[i]), to: p)
                            .distance
                        if d < best.distance { best = (item, d) }
                    }
                }
            }
        }
        return best
    }

    @Test func coveringWithLocationsIsCoveringAndLocate() {
        var rng = SeededRandom(seed: 9)
        let index = PolygonIndex(Self.randomShapes(300, rng: &rng))
        var covered = 0
        for _ in 0..<5000 {
            let p = Point(x: rng.uniform(-20...1020), y: rng.uniform(-20...1020))
            var found: [(Int, Location)] = []
            index.forEachCovering(p) { found.append(($0, $1)) }
            found.sort { $0.0 < $1.0 }
            #expect(found.map(\.0) == index.covering(p), "at \(p)")
            #expect(found.allSatisfy { index.locate(p, item: $0.0) == $0.1 }, "at \(p)")
            for (item, _) in found {
                let bounded = index.nearestBoundaryPoint(toCovered: p, item: item, metric: .planar)
                let plain = index.nearestBoundaryPoint(to: p, item: item, metric: .planar)
                #expect(bounded.point == plain.point && bounded.distance == plain.distance, "item \(item) at \(p)")
            }
            covered += found.isEmpty ? 0 : 1
        }
        #expect(covered > 500)
    }

    /// Vertices of the polygons are on their boundary, also where two parts or two items meet.
    @Test func verticesAreOnTheBoundary() {
        var rng = SeededRandom(seed: 10)
        let shapes = Self.randomShapes(100, rng: &rng)
        let index = PolygonIndex(shapes)
        for (item, shape) in shapes.enumerated() {
            for vertex in shape.polygons[0].shell.points.prefix(5) {
                var location: Location?
                index.forEachCovering(vertex) { if $0 == item { location = $1 } }
                #expect(location == .boundary, "item \(item) at \(vertex)")
            }
        }
    }

    @Test func nearestItemIsTheFirstOfTheBestFirstList() {
        var rng = SeededRandom(seed: 11)
        let shapes = Self.randomShapes(300, rng: &rng)
        let index = PolygonIndex(shapes)
        for _ in 0..<3000 {
            let p = Point(x: rng.uniform(-300...1300), y: rng.uniform(-300...1300))
            let fast = index.nearestItemByBoundary(to: p, metric: .planar)
            let list = index.nearestByBoundary(to: p, metric: .planar, limit: 1).first
            #expect(
                fast?.item == list?.item && fast?.point == list?.point && fast?.distance == list?.distance, "at \(p)")
            let brute = Self.bruteNearest(shapes, p)
            #expect(fast?.distance == brute.distance, "at \(p)")
        }
        // The bound the search starts from holds for every item: its boundary is no farther
        // than the far end of its box's nearest side.
        for (item, shape) in shapes.enumerated().prefix(50) {
            let p = Point(x: rng.uniform(-300...1300), y: rng.uniform(-300...1300))
            let metric = LocalMetric(metresPerDegreeX: 1.3, metresPerDegreeY: 0.7)
            #expect(
                index.nearestBoundaryPoint(to: p, item: item, metric: metric).distance
                    <= metric.farEndOfNearestSide(p, shape.boundingBox))
        }
        #expect(PolygonIndex([]).nearestItemByBoundary(to: Point(x: 0, y: 0), metric: .planar)?.item == nil)
    }
}
