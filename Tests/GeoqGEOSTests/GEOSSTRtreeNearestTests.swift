import GeoqCore
import GeoqGEOS
import GeoqTestSupport
import Testing

/// `GEOSSTRtree.nearest` against a brute-force planar scan on seeded random boxes and points.
@Suite struct GEOSSTRtreeNearestTests {
    @Test func nearestBoxMatchesBruteForce() throws {
        let context = GEOSContext()
        var random = SeededRandom(seed: 77)
        let boxes: [BoundingBox] = (0..<2_000).map { i in
            let x = random.uniform(0...100), y = random.uniform(0...100)
            let w = i.isMultiple(of: 3) ? 0 : random.uniform(0...2)
            let h = i.isMultiple(of: 3) ? 0 : random.uniform(0...2)
            return BoundingBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
        }
        let tree = try GEOSSTRtree(context: context, items: boxes.enumerated().map { (box: $1, id: $0) })
        let planar = LocalMetric.planar
        var calls = 0
        for _ in 0..<400 {
            let q = Point(x: random.uniform(-20...120), y: random.uniform(-20...120))
            let found = try #require(
                try tree.nearest(to: q) { id in
                    calls += 1
                    return planar.distance(q, boxes[id])
                })
            let best = boxes.map { planar.distance(q, $0) }.min()!
            // Ids may differ only on an exact tie.
            #expect(planar.distance(q, boxes[found]) == best, "query \(q)")
        }
        // The search is pruned: far fewer distance calls than a scan would make.
        #expect(calls < 400 * boxes.count / 10)
    }

    @Test func idZeroIsFoundAndAnEmptyTreeFindsNothing() throws {
        let context = GEOSContext()
        let one = try GEOSSTRtree(
            context: context, items: [(box: BoundingBox(minX: 1, minY: 1, maxX: 2, maxY: 2), id: 0)])
        #expect(try one.nearest(to: Point(x: 10, y: 10)) { _ in 1 } == 0)
        var queried: [Int] = []
        try one.query(Point(x: 1.5, y: 1.5)) { queried.append($0) }
        #expect(queried == [0])
        let empty = try GEOSSTRtree(context: context, items: [(box: BoundingBox, id: Int)]())
        #expect(try empty.nearest(to: Point(x: 0, y: 0)) { _ in 0 } == nil)
    }
}
