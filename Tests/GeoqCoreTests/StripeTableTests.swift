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

    @Test func convexPartsKeepAStripePerEdge() throws {
        let circle = (0..<400).map { k in
            let a = Double(k) * 2 * .pi / 400
            return Point(x: cos(a), y: sin(a))
        }
        let polygon = Polygon(shell: try Ring(closing: circle))
        #expect(StripeTable([polygon]).storage.parts[0].stripeCount == 400)
    }
}
