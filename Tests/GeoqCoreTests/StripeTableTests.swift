import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqCore

/// The stripe count of a part and the answers of its stripes, against a ray over every edge.
@Suite struct StripeTableTests {
    /// A comb: a bar 0...1 high with `teeth` teeth 10 high on top, so that its edges climb and
    /// fall about 20 `teeth` / 11 times its height.
    static func comb(teeth: Int) throws -> Polygon {
        var points = [Point(x: 0, y: 0), Point(x: Double(2 * teeth), y: 0)]
        for t in (0..<teeth).reversed() {
            points.append(Point(x: Double(2 * t + 2), y: 1))
            points.append(Point(x: Double(2 * t + 1), y: 11))
        }
        points.append(Point(x: 0, y: 1))
        return Polygon(shell: try Ring(closing: points))
    }

    /// Where `p` lies by a ray over every one of `edges`.
    static func everyEdge(_ edges: [(Point, Point)], _ p: Point) -> Location {
        var counter = RayCrossingCounter(point: p)
        for (a, b) in edges {
            counter.count(a, b)
            if counter.isOnBoundary { return .boundary }
        }
        return counter.location
    }

    @Test func partsThatClimbMoreThanThriceTheirHeightGetFewerStripes() throws {
        let polygon = try Self.comb(teeth: 500)
        let points = Array(polygon.shell.points)
        let edges = points.count - 1
        let climb = zip(points, points.dropFirst()).reduce(0) { $0 + abs($1.1.y - $1.0.y) }
        let table = StripeTable([polygon])
        let expected = Int((Double(edges) * 1.0 * min(1, 3.0 * 11 / climb)).rounded(.up))
        #expect(table.storage.parts[0].stripeCount == expected)
        #expect(expected < edges / 5)
        #expect(table.checkInvariants())

        var rng = SeededRandom(seed: 31)
        var probes = (0..<5_000).map { _ in Point(x: rng.uniform(-1...1001), y: rng.uniform(-1...12)) }
        // On the boundary: every vertex and the middle of every edge.
        for (a, b) in zip(points, points.dropFirst()) { probes += [a, Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)] }
        let edgeList = Array(zip(points, points.dropFirst()))
        let wrong = probes.filter { table.locate($0, part: 0) != Self.everyEdge(edgeList, $0) }
        #expect(wrong.isEmpty, "\(wrong.count) points answered otherwise, the first: \(wrong.prefix(3))")
        let inside = probes.filter { table.locate($0, part: 0) == .interior }.count
        let onBoundary = probes.filter { table.locate($0, part: 0) == .boundary }.count
        #expect(inside > 200 && onBoundary >= 2 * edges)
    }

    /// Every stripe lists exactly the edges whose closed y-range meets it, in the order of the
    /// vertices, worked out here edge by edge and stripe by stripe: parts with holes, teeth
    /// that span many stripes, horizontal edges and a part of a single height.
    @Test func stripesListExactlyTheEdgesTheyMeet() throws {
        var rng = SeededRandom(seed: 11)
        var polygons = [try Self.comb(teeth: 7), try Self.comb(teeth: 40)]
        for _ in 0..<6 {
            let n = Int(rng.uniform(3...60))
            let star = (0..<n).map { k in
                let a = Double(k) * 2 * .pi / Double(n), r = rng.uniform(0.2...1)
                return Point(x: 5 + r * cos(a), y: 5 + r * sin(a))
            }
            let hole = (0..<5).map { k in
                let a = -Double(k) * 2 * .pi / 5
                return Point(x: 5 + 0.1 * cos(a), y: 5 + 0.1 * sin(a))
            }
            polygons.append(Polygon(shell: try Ring(closing: star), holes: [try Ring(closing: hole)]))
        }
        let band = [Point(x: 0, y: 2), Point(x: 3, y: 2), Point(x: 3, y: 2.5), Point(x: 0, y: 2.5)]
        polygons.append(Polygon(shell: try Ring(closing: band)))
        let table = StripeTable(polygons)
        let ranges = LayerVertices.ringRanges(of: polygons.map { MultiPolygon([$0]) })
        let v = table.storage.vertices.points
        for (k, part) in table.storage.parts.enumerated() {
            func stripe(_ y: Double) -> Int {
                min(max(Int((y - part.boundingBox.minY) * part.stripesPerUnit), 0), part.stripeCount - 1)
            }
            for s in 0..<part.stripeCount {
                var expected: [Int] = []
                for ring in ranges[k] where ring.count > 1 {
                    for e in ring.lowerBound..<ring.upperBound - 1 {
                        let low = min(v[e].y, v[e + 1].y), high = max(v[e].y, v[e + 1].y)
                        if stripe(low) <= s && s <= stripe(high) { expected.append(e) }
                    }
                }
                #expect(table.edges(of: k, stripe: s) == expected, "part \(k), stripe \(s)")
            }
        }
        #expect(table.checkInvariants())
    }

    /// A part of more than 65,536 edges keeps four bytes an edge, the parts around it two
    /// (numbered from their own first edge, far past 65,536 in the layer): both answer as a ray
    /// over every edge does, and both read back from stored bytes.
    @Test func longPartsKeepWideEdgesAndTheOthersNarrow() throws {
        func star(_ n: Int, at cx: Double, radius: Double, wobble: Double) throws -> Polygon {
            let points = (0..<n).map { k in
                let a = Double(k) * 2 * .pi / Double(n)
                let r = radius * (1 + wobble * sin(37 * a))
                return Point(x: cx + r * cos(a), y: r * sin(a))
            }
            return Polygon(shell: try Ring(closing: points))
        }
        let polygons = [
            try star(300, at: -3, radius: 1, wobble: 0.2), try star(70_000, at: 0, radius: 1, wobble: 0.1),
            try star(500, at: 3, radius: 1, wobble: 0.3),
        ]
        let table = StripeTable(polygons)
        #expect(table.storage.parts.map(\.isNarrow) == [true, false, true])
        #expect(table.storage.parts[2].edgeBase > Int32(StripeTable.narrowSpan))
        #expect(table.storage.wideEdges.count >= 70_000 && table.storage.narrowEdges.count >= 800)
        #expect(table.checkInvariants())

        let shapes = polygons.map { MultiPolygon([$0]) }
        var writer = IndexByteWriter()
        table.write(to: &writer)
        let read = try writer.bytes.withUnsafeBytes { bytes in
            var reader = IndexByteReader(bytes)
            return try StripeTable(from: &reader, featureCount: 3, vertices: LayerVertices(shapes))
        }

        var rng = SeededRandom(seed: 5)
        for (k, polygon) in polygons.enumerated() {
            let points = Array(polygon.shell.points)
            let edges = Array(zip(points, points.dropFirst()))
            var probes = (0..<2_000).map { _ in Point(x: rng.uniform(-4.5...4.5), y: rng.uniform(-1.5...1.5)) }
            probes += points.prefix(500)
            let wrong = probes.filter { p in
                let expected = Self.everyEdge(edges, p)
                return table.locate(p, part: k) != expected || read.locate(p, part: k) != expected
            }
            #expect(wrong.isEmpty, "part \(k): \(wrong.count) points answered otherwise, the first: \(wrong.prefix(3))")
            #expect(probes.contains { table.locate($0, part: k) == .interior })
        }
    }

    @Test func convexPartsKeepAStripePerEdge() throws {
        let circle = (0..<400).map { k in
            let a = Double(k) * 2 * .pi / 400
            return Point(x: cos(a), y: sin(a))
        }
        let polygon = Polygon(shell: try Ring(closing: circle))
        #expect(StripeTable([polygon]).storage.parts[0].stripeCount == 400)
    }
}
