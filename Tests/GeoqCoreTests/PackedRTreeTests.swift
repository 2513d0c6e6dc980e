import GeoqTestSupport
import Testing

@testable import GeoqCore

@Suite struct PackedRTreeTests {
    static func randomBoxes(_ n: Int, rng: inout SeededRandom) -> [BoundingBox] {
        (0..<n).map { _ in
            let x = rng.uniform(0...1000), y = rng.uniform(0...1000)
            return BoundingBox(minX: x, minY: y, maxX: x + rng.uniform(0...30), maxY: y + rng.uniform(0...30))
        }
    }

    @Test(arguments: [0, 1, 2, 15, 16, 17, 255, 256, 257, 5000])
    func pointSearchMatchesBruteForce(count: Int) {
        var rng = SeededRandom(seed: UInt64(count) + 11)
        let boxes = Self.randomBoxes(count, rng: &rng)
        let tree = PackedRTree(boxes: boxes, nodeSize: 16)
        #expect(tree.count == count)
        var hits = 0
        for _ in 0..<500 {
            let p = Point(x: rng.uniform(-10...1040), y: rng.uniform(-10...1040))
            var found: [Int] = []
            tree.search(containing: p) {
                found.append($0); return true
            }
            let expected = boxes.indices.filter { boxes[$0].contains(p) }
            #expect(found.sorted() == expected)
            hits += expected.count
        }
        if count >= 256 { #expect(hits > 0, "the queries must hit something to test anything") }
    }

    @Test func boxSearchMatchesBruteForce() {
        var rng = SeededRandom(seed: 99)
        let boxes = Self.randomBoxes(3000, rng: &rng)
        let tree = PackedRTree(boxes: boxes, nodeSize: 8)
        for _ in 0..<200 {
            let x = rng.uniform(0...1000), y = rng.uniform(0...1000)
            let q = BoundingBox(minX: x, minY: y, maxX: x + 50, maxY: y + 50)
            #expect(tree.items(intersecting: q).sorted() == boxes.indices.filter { boxes[$0].intersects(q) })
        }
    }

    @Test func searchStopsWhenAsked() {
        let boxes = Array(repeating: BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1), count: 100)
        let tree = PackedRTree(boxes: boxes)
        var seen = 0
        tree.search(containing: Point(x: 0.5, y: 0.5)) { _ in
            seen += 1; return seen < 3
        }
        #expect(seen == 3)
    }

    /// Best-first order equals sorting every item by distance (ties by index).
    @Test func nearestOrderMatchesSortedBruteForce() {
        var rng = SeededRandom(seed: 5)
        let points = (0..<2000).map { _ in Point(x: rng.uniform(0...100), y: rng.uniform(0...100)) }
        let tree = PackedRTree(boxes: points.map { BoundingBox(around: [$0]) })
        let metric = LocalMetric.planar
        for _ in 0..<100 {
            let q = Point(x: rng.uniform(-20...120), y: rng.uniform(-20...120))
            var got: [Int] = []
            tree.nearest(
                boxDistance: { metric.distance(q, $0) },
                itemDistance: { metric.distance(q, points[$0]) }
            ) { item, _ in
                got.append(item); return got.count < 10
            }
            let expected = points.indices.sorted {
                let (a, b) = (metric.distance(q, points[$0]), metric.distance(q, points[$1]))
                return a != b ? a < b : $0 < $1
            }.prefix(10)
            #expect(got == Array(expected))
        }
    }
}
