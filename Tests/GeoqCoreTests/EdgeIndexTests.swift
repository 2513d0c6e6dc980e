import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

/// The edge index's nearest-segment query against a scan of every segment in input order that
/// keeps the first strictly nearer one, on seeded random segments.
@Suite struct EdgeIndexTests {
    typealias Answer = (edge: Int, point: Point, distance: Double)

    static func bruteForce(_ segments: [Segment], _ p: Point, _ metric: LocalMetric, within limit: Double) -> Answer? {
        var best: Answer?
        for (i, s) in segments.enumerated() {
            let c = metric.closestPoint(on: s, to: p)
            if c.distance <= limit, c.distance < (best?.distance ?? .infinity) { best = (i, c.point, c.distance) }
        }
        return best
    }

    /// Short random segments in a 1000 × 1000 square; about one in ten of zero length.
    static func randomSegments(_ n: Int, rng: inout SeededRandom) -> [Segment] {
        (0..<n).map { _ in
            let a = Point(x: rng.uniform(0...1000), y: rng.uniform(0...1000))
            if rng.uniform(0...1) < 0.1 { return Segment(a, a) }
            return Segment(a, Point(x: a.x + rng.uniform(-40...40), y: a.y + rng.uniform(-40...40)))
        }
    }

    static func expectSame(_ got: Answer?, _ expected: Answer?, _ p: Point) {
        #expect(got?.edge == expected?.edge, "at \(p)")
        #expect(got?.distance == expected?.distance, "at \(p)")
        #expect(got?.point == expected?.point, "at \(p)")
    }

    @Test(arguments: [1, 2, 16, 17, 300, 4000])
    func nearestMatchesBruteForce(count: Int) {
        var rng = SeededRandom(seed: 1000 + UInt64(count))
        let segments = Self.randomSegments(count, rng: &rng)
        let index = EdgeIndex(segments: segments)
        #expect(index.count == count && index.segments == segments)
        for _ in 0..<1000 {
            let p = Point(x: rng.uniform(-50...1050), y: rng.uniform(-50...1050))
            Self.expectSame(
                index.nearest(to: p, metric: .planar), Self.bruteForce(segments, p, .planar, within: .infinity), p)
        }
    }

    /// With a limit, some points find nothing and some find a segment just inside it.
    @Test func withinLimitMatchesBruteForce() {
        var rng = SeededRandom(seed: 77)
        let segments = Self.randomSegments(500, rng: &rng)
        let index = EdgeIndex(segments: segments)
        var found = 0, missed = 0
        for _ in 0..<2000 {
            let p = Point(x: rng.uniform(0...1000), y: rng.uniform(0...1000))
            let limit = rng.uniform(0...25)
            let expected = Self.bruteForce(segments, p, .planar, within: limit)
            Self.expectSame(index.nearest(to: p, metric: .planar, within: limit), expected, p)
            if expected == nil { missed += 1 } else { found += 1 }
        }
        #expect(found > 100 && missed > 100, "found \(found), missed \(missed)")
    }

    /// A segment exactly at the limit counts.
    @Test func theLimitIsInclusive() throws {
        let index = EdgeIndex(segments: [Segment(Point(x: 0, y: 0), Point(x: 10, y: 0))])
        let p = Point(x: 5, y: 3)
        let hit = try #require(index.nearest(to: p, metric: .planar, within: 3))
        #expect(hit.edge == 0 && hit.distance == 3 && hit.point == Point(x: 5, y: 0))
        #expect(index.nearest(to: p, metric: .planar, within: 2.999_999) == nil)
    }

    /// Every segment present several times: the answer is always the first copy, as in the scan.
    @Test func tiesGoToTheLowestIndex() {
        var rng = SeededRandom(seed: 3)
        let base = Self.randomSegments(400, rng: &rng)
        // Copies far apart in input order, so they land in different leaves of the tree.
        let segments = base + base.reversed() + base
        let index = EdgeIndex(segments: segments)
        for _ in 0..<1000 {
            let p = Point(x: rng.uniform(0...1000), y: rng.uniform(0...1000))
            let expected = Self.bruteForce(segments, p, .planar, within: .infinity)
            #expect((expected?.edge ?? .max) < base.count)
            Self.expectSame(index.nearest(to: p, metric: .planar), expected, p)
        }
    }

    /// The centre of a square, equidistant from its four sides, takes the side listed first,
    /// whatever the order of the sides.
    @Test func equidistantSegmentsTakeTheLowestIndex() throws {
        let corners = [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 4), Point(x: 0, y: 4)]
        var sides = (0..<4).map { Segment(corners[$0], corners[($0 + 1) % 4]) }
        for _ in 0..<4 {
            let index = EdgeIndex(segments: sides)
            let centre = try #require(index.nearest(to: Point(x: 2, y: 2), metric: .planar))
            #expect(centre.edge == 0 && centre.distance == 2)
            sides.append(sides.removeFirst())
        }
    }

    @Test func emptyIndexFindsNothing() {
        let index = EdgeIndex(segments: [])
        #expect(index.count == 0)
        #expect(index.nearest(to: Point(x: 0, y: 0), metric: .planar) == nil)
        #expect(EdgeIndex(MultiPolygon([])).nearest(to: Point(x: 1, y: 1), metric: .planar) == nil)
    }

    /// A zero-length segment is its point: the distance is the distance to that point.
    @Test func zeroLengthSegmentsArePoints() throws {
        let a = Point(x: 3, y: 4)
        let index = EdgeIndex(segments: [Segment(a, a), Segment(Point(x: 10, y: 10), Point(x: 10, y: 10))])
        let hit = try #require(index.nearest(to: Point(x: 0, y: 0), metric: .planar))
        #expect(hit.edge == 0 && hit.distance == 5 && hit.point == a)
    }

    /// A polygon's edges in ring order, in metres under a WGS84 metric, against the scan; and
    /// the polygon queries' boundary distance, the same to a nanometre.
    @Test func polygonEdgesInRingOrder() throws {
        var rng = SeededRandom(seed: 12)
        let shell = (0..<60).map { k -> Point in
            let angle = Double(k) / 60 * 2 * .pi
            let r = 0.01 * rng.uniform(0.6...1)
            return Point(x: -1.64 + r * cos(angle), y: 42.81 + r * sin(angle))
        }
        let ring = shell + [shell[0]]
        let shape = MultiPolygon([Polygon(shell: try Ring(ring))])
        let index = EdgeIndex(shape)
        let edges = (1..<ring.count).map { Segment(ring[$0 - 1], ring[$0]) }
        #expect(index.segments == edges)
        let indexed = IndexedPolygon(shape)
        for _ in 0..<500 {
            let p = Point(x: -1.64 + rng.uniform(-0.02...0.02), y: 42.81 + rng.uniform(-0.02...0.02))
            let metric = LocalMetric(wgs84AtLatitude: p.y)
            let expected = Self.bruteForce(edges, p, metric, within: .infinity)
            Self.expectSame(index.nearest(to: p, metric: metric), expected, p)
            // The polygon path stops at the first segment the search reaches; where two segments
            // meet at the nearest vertex, their distances may differ in the last bits.
            let boundary = indexed.nearestBoundaryPoint(to: p, metric: metric).distance
            #expect(abs(boundary - (expected?.distance ?? 0)) <= 1e-9, "at \(p)")
        }
    }
}
