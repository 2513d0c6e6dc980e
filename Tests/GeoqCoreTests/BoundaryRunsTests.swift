import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

/// The layer index's nearest-boundary search over runs of edges (``PolygonIndex``) against the
/// same question asked of each shape's own edge R-tree (``IndexedPolygon``, one leaf per edge)
/// and against a scan of every edge, on shapes whose rings are cut into runs in every way: rings
/// of fewer edges than a run, of exactly one run, of a run and one edge more, long ones, holes,
/// repeated vertices (zero-length edges) and several parts.
@Suite struct BoundaryRunsTests {
    static func shapes(seed: UInt64) -> [MultiPolygon] {
        var rng = SeededRandom(seed: seed)
        func ring(centre: Point, radius: Double, vertices n: Int, repeatOne: Bool) -> Ring {
            var points = (0..<n).map { k -> Point in
                let angle = 2 * Double.pi * Double(k) / Double(n)
                let r = radius * rng.uniform(0.6...1)
                return Point(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
            }
            if repeatOne { points.insert(points[n / 2], at: n / 2) }
            points.append(points[0])
            return try! Ring(points)
        }
        let edgeCounts = [3, 7, 8, 9, 15, 16, 17, 64, 333]
        return (0..<60).map { i in
            let parts = i % 4 == 0 ? 2 : 1
            return MultiPolygon(
                (0..<parts).map { _ in
                    let centre = Point(x: rng.uniform(0...500), y: rng.uniform(0...500))
                    let radius = rng.uniform(10...60)
                    let shell = ring(
                        centre: centre, radius: radius, vertices: edgeCounts[Int(rng.uniform(0...8.99))],
                        repeatOne: i % 5 == 0)
                    let holes =
                        i % 3 == 0
                        ? [ring(centre: centre, radius: radius / 4, vertices: edgeCounts[i % 9], repeatOne: false)] : []
                    return Polygon(shell: shell, holes: holes)
                })
        }
    }

    /// The smallest distance from `p` to any edge of `shape`, by a scan.
    static func scan(_ shape: MultiPolygon, _ p: Point, _ metric: LocalMetric) -> Double {
        var best = Double.infinity
        for polygon in shape.polygons {
            for ring in polygon.rings {
                for i in 1..<ring.points.count {
                    best = min(
                        best, metric.closestPoint(on: Segment(ring.points[i - 1], ring.points[i]), to: p).distance)
                }
            }
        }
        return best
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func nearestBoundaryPointIsThatOfEachShapesEdgeTree(seed: UInt64) {
        let shapes = Self.shapes(seed: seed)
        let index = PolygonIndex(shapes)
        let own = shapes.map(IndexedPolygon.init)
        var rng = SeededRandom(seed: seed + 100)
        for metric in [LocalMetric.planar, LocalMetric(wgs84AtLatitude: 40)] {
            for _ in 0..<300 {
                let p = Point(x: rng.uniform(-50...550), y: rng.uniform(-50...550))
                for item in 0..<shapes.count {
                    let got = index.nearestBoundaryPoint(to: p, item: item, metric: metric)
                    let expected = own[item].nearestBoundaryPoint(to: p, metric: metric)
                    #expect(got.point == expected.point && got.distance == expected.distance, "item \(item) at \(p)")
                    #expect(abs(got.distance - Self.scan(shapes[item], p, metric)) <= 1e-9 * max(1, got.distance))
                }
            }
        }
    }

    /// The items nearest by boundary, as a scan of every edge of every shape orders them.
    @Test func nearestByBoundaryOrdersAsAScan() {
        let shapes = Self.shapes(seed: 7)
        let index = PolygonIndex(shapes)
        var rng = SeededRandom(seed: 8)
        for _ in 0..<500 {
            let p = Point(x: rng.uniform(-50...550), y: rng.uniform(-50...550))
            let expected = shapes.indices.map { ($0, Self.scan(shapes[$0], p, .planar)) }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(3)
            let got = index.nearestByBoundary(to: p, metric: .planar, limit: 3)
            #expect(got.map(\.item) == expected.map(\.0), "at \(p)")
            #expect(zip(got, expected).allSatisfy { abs($0.distance - $1.1) <= 1e-9 * max(1, $1.1) })
        }
    }
}
