import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqCore

/// The sole-cover grid never changes an answer: on seeded random layers (overlapping star-shaped
/// polygons, some with holes), the index with the grid covers every point with exactly the
/// features the index without it does, for random points, every vertex, and points on the
/// grid's own cell borders.
@Suite struct SoleCoverGridTests {
    static func layer(seed: UInt64) -> [MultiPolygon] {
        var rng = SeededRandom(seed: seed)
        func star(cx: Double, cy: Double, radius: Double, vertices: Int) -> Ring {
            var points = (0..<vertices).map { i -> Point in
                let angle = Double(i) / Double(vertices) * 2 * .pi
                let r = radius * Double.random(in: 0.5...1, using: &rng)
                return Point(x: cx + r * cos(angle), y: cy + r * sin(angle))
            }
            points.append(points[0])
            return try! Ring(points)
        }
        return (0..<60).map { _ in
            let (cx, cy) = (Double.random(in: 0...100, using: &rng), Double.random(in: 0...100, using: &rng))
            let radius = Double.random(in: 2...15, using: &rng)
            let shell = star(cx: cx, cy: cy, radius: radius, vertices: 40)
            // One polygon in three has a hole of its own shape around its centre.
            let holes =
                Bool.random(using: &rng) && Bool.random(using: &rng)
                ? [try! Ring(Array(star(cx: cx, cy: cy, radius: radius * 0.3, vertices: 12).points.reversed()))] : []
            return MultiPolygon([Polygon(shell: shell, holes: holes)])
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func answersAsTheIndexDoes(seed: UInt64) throws {
        let shapes = Self.layer(seed: seed)
        let plain = PolygonIndex(shapes, gridFromVertices: .max)
        let gridded = PolygonIndex(shapes, gridFromVertices: 0)
        let grid = try #require(gridded.soleCover)
        #expect(plain.soleCover == nil)
        // The grid must answer for part of the layer, or it tests nothing (with one cell per two
        // vertices, most cells of so small a layer meet an edge).
        #expect(grid.soleShare > 0.02)
        var rng = SeededRandom(seed: seed &+ 100)
        var points = (0..<20_000).map { _ in
            Point(x: Double.random(in: -10...110, using: &rng), y: Double.random(in: -10...110, using: &rng))
        }
        points += shapes.flatMap { $0.polygons.flatMap { $0.rings.flatMap(\.points) } }
        // Points on the cells' borders and corners.
        for column in 0...grid.columns {
            for row in stride(from: 0, through: grid.rows, by: 3) {
                points.append(
                    Point(x: grid.minX + Double(column) / grid.scaleX, y: grid.minY + Double(row) / grid.scaleY))
            }
        }
        var answeredByGrid = 0
        for p in points {
            if grid.soleItem(at: p) != nil { answeredByGrid += 1 }
            #expect(gridded.covering(p) == plain.covering(p), "\(p)")
            #expect(gridded.firstCovering(p).map { plain.covering(p).contains($0) } ?? plain.covering(p).isEmpty)
        }
        #expect(answeredByGrid > 400)
    }
}
