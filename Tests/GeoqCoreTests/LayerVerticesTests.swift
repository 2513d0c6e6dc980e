import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqCore

/// A polygon index takes its shapes' shared ``PointArena`` as its vertex buffer when their
/// rings lie in it back to back in index order, and copies the vertices otherwise; either way
/// it answers the same.
@Suite struct LayerVerticesTests {
    /// Seeded star-shaped polygons (some with a hole), their rings written into one arena in
    /// order, and the same shapes with rings of their own.
    static func shapes(count: Int, seed: UInt64) throws -> (
        shared: [MultiPolygon], own: [MultiPolygon], arena: PointArena
    ) {
        var random = SeededRandom(seed: seed)
        var rings: [[[Point]]] = []
        for i in 0..<count {
            let centre = Point(x: Double(i % 10) * 3, y: Double(i / 10) * 3)
            let n = Int(random.uniform(3.0...40.0))
            let shell = (0..<n).map { k -> Point in
                let angle = 2 * Double.pi * Double(k) / Double(n)
                let r = random.uniform(0.9...1.4)
                return Point(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
            }
            let hole = (0..<4).map { k -> Point in
                let angle = 2 * Double.pi * Double(k) / 4
                return Point(x: centre.x + 0.3 * cos(angle), y: centre.y + 0.3 * sin(angle))
            }
            rings.append(i % 4 == 0 ? [shell + [shell[0]], hole + [hole[0]]] : [shell + [shell[0]]])
        }
        let arena = PointArena(capacity: rings.joined().joined().count)
        var shared: [MultiPolygon] = [], own: [MultiPolygon] = []
        for polygonRings in rings {
            var inArena: [Ring] = []
            for ring in polygonRings {
                let start = arena.count
                for p in ring { arena.append(p) }
                inArena.append(try #require(try Ring(closingPositionsOf: arena, from: start)))
            }
            shared.append(MultiPolygon([Polygon(shell: inArena[0], holes: Array(inArena.dropFirst()))]))
            let rings = try polygonRings.map { try Ring($0) }
            own.append(MultiPolygon([Polygon(shell: rings[0], holes: Array(rings.dropFirst()))]))
        }
        return (shared, own, arena)
    }

    @Test func ringsBackToBackAreTakenAsTheyAre() throws {
        let (shared, own, arena) = try Self.shapes(count: 60, seed: 0x5EED_0101)
        #expect(shared == own)
        let vertices = LayerVertices(shared)
        #expect(vertices.points.baseAddress == arena.base)
        #expect(vertices.count == arena.count)
        let copied = LayerVertices(own)
        #expect(copied.points.baseAddress != arena.base)
        #expect(Array(copied.points) == Array(vertices.points))
    }

    /// In another order, or with a ring left out, the arena is not the layer's vertex buffer:
    /// the vertices are copied in index order.
    @Test func ringsOutOfOrderAreCopied() throws {
        let (shared, own, arena) = try Self.shapes(count: 30, seed: 0x5EED_0102)
        for shapes in [Array(shared.reversed()), Array(shared.dropLast())] {
            let vertices = LayerVertices(shapes)
            #expect(vertices.points.baseAddress != arena.base)
            let expected = shapes.flatMap { $0.polygons.flatMap { $0.rings.flatMap { $0.points.array } } }
            #expect(Array(vertices.points) == expected)
        }
        #expect(LayerVertices(Array(own.reversed())).count == arena.count)
    }

    @Test func anIndexOverTheArenaAnswersAsOneOverCopies() throws {
        let (shared, own, _) = try Self.shapes(count: 80, seed: 0x5EED_0103)
        let a = PolygonIndex(shared), b = PolygonIndex(own)
        let stored = try a.storedBytes().withUnsafeBytes { try PolygonIndex(storedBytes: $0, shapes: shared) }
        var random = SeededRandom(seed: 0x5EED_0104)
        let metric = LocalMetric(wgs84AtLatitude: 0)
        var covered = 0
        for _ in 0..<5_000 {
            let p = Point(x: random.uniform(-2.0...30.0), y: random.uniform(-2.0...26.0))
            let covering = b.covering(p)
            covered += covering.isEmpty ? 0 : 1
            #expect(a.covering(p) == covering)
            #expect(stored.covering(p) == covering)
            let near = b.nearestByBoundary(to: p, metric: metric, limit: 3)
            for index in [a, stored] {
                let found = index.nearestByBoundary(to: p, metric: metric, limit: 3)
                #expect(found.map(\.item) == near.map(\.item))
                #expect(found.map(\.distance) == near.map(\.distance))
            }
        }
        #expect(covered > 500)
    }
}
