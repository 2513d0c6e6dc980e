import GeoqTestSupport
import Testing

@testable import GeoqCore

@Suite struct OrientationTests {
    @Test func simpleTurns() {
        let a = Point(x: 0, y: 0), b = Point(x: 10, y: 0)
        #expect(Orientation.index(a, b, Point(x: 5, y: 1)) == 1)
        #expect(Orientation.index(a, b, Point(x: 5, y: -1)) == -1)
        #expect(Orientation.index(a, b, Point(x: 20, y: 0)) == 0)
    }

    /// Shewchuk's classic failure of the naive formula: points a few ulps from the line y = x,
    /// tested against (12, 12) -> (24, 24). The exact answer is known by reasoning: a point
    /// with x > y lies right of the upward diagonal (-1), x < y left (+1), x == y on it (0).
    @Test func nearlyCollinearGridIsExact() {
        let p1 = Point(x: 12, y: 12), p2 = Point(x: 24, y: 24)
        let ulp = 0.5.ulp
        var naiveWrong = 0
        for i in 0..<64 {
            for j in 0..<64 {
                let q = Point(x: 0.5 + Double(i) * ulp, y: 0.5 + Double(j) * ulp)
                let expected = q.x > q.y ? -1 : (q.x < q.y ? 1 : 0)
                #expect(Orientation.index(p1, p2, q) == expected, "i=\(i) j=\(j)")
                let naive = (p2.x - p1.x) * (q.y - p1.y) - (p2.y - p1.y) * (q.x - p1.x)
                if Orientation.sign(naive) != expected { naiveWrong += 1 }
            }
        }
        // The test is only meaningful if the naive formula really fails here.
        #expect(naiveWrong > 0)
    }

    @Test func exactPathAgreesWithFilteredPathOnEasyCases() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let p = (0..<3).map { _ in Point(x: rng.uniform(0...100), y: rng.uniform(0...100)) }
            #expect(Orientation.exactIndex(p[0], p[1], p[2]) == Orientation.index(p[0], p[1], p[2]))
        }
    }
}
