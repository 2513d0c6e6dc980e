import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

@Suite struct ClipperTests {
    let clipper = TileClipper(extent: 4096, buffer: 64)

    /// A ring larger than the tile comes out as exactly the buffered square.
    @Test func ringLargerThanTile() {
        let big = [Point(x: -1e6, y: -1e6), Point(x: 1e6, y: -1e6), Point(x: 1e6, y: 1e6), Point(x: -1e6, y: 1e6)]
        let out = clipper.clip(ring: big)
        #expect(
            Set(out) == [
                Point(x: -64, y: -64), Point(x: 4160, y: -64), Point(x: 4160, y: 4160), Point(x: -64, y: 4160),
            ])
        #expect(out.count == 4)
    }

    @Test func ringOutside() {
        #expect(clipper.clip(ring: [Point(x: 5000, y: 0), Point(x: 6000, y: 0), Point(x: 6000, y: 100)]).isEmpty)
    }

    /// A ring crossing the west edge: the part east of x = -64, worked by hand.
    @Test func ringAcrossOneEdge() {
        let out = clipper.clip(ring: [
            Point(x: -164, y: 0), Point(x: 36, y: 0), Point(x: 36, y: 100), Point(x: -164, y: 100),
        ])
        #expect(Set(out) == [Point(x: -64, y: 0), Point(x: 36, y: 0), Point(x: 36, y: 100), Point(x: -64, y: 100)])
    }

    /// A line through the tile and out twice: two pieces, ends on the border.
    @Test func lineLeavingAndComingBack() {
        let line = [
            Point(x: -200, y: 100), Point(x: 100, y: 100), Point(x: 100, y: -200), Point(x: 200, y: -200),
            Point(x: 200, y: 200),
        ]
        let pieces = clipper.clip(line: line)
        #expect(
            pieces == [
                [Point(x: -64, y: 100), Point(x: 100, y: 100), Point(x: 100, y: -64)],
                [Point(x: 200, y: -64), Point(x: 200, y: 200)],
            ])
        #expect(clipper.clip(line: [Point(x: -100, y: -100), Point(x: -100, y: 5000)]).isEmpty)
    }

    /// A simple polygon around `center`: `n` vertices at increasing angles and random radii, so
    /// that it is star-shaped (never self-crossing) and usually concave.
    static func starPolygon(n: Int, center: Point, maxRadius: Double, using random: inout SeededRandom) -> [Point] {
        var angles = (0..<n).map { _ in Double.random(in: 0..<(2 * .pi), using: &random) }
        angles.sort()
        return angles.map { a in
            let r = Double.random(in: 0.1...1, using: &random) * maxRadius
            return Point(x: center.x + r * cos(a), y: center.y + r * sin(a))
        }
    }

    /// The area of `polygon` ∩ the square [lo, hi]², by scanlines: at the middle of each of `rows`
    /// strips, the length inside the polygon (even-odd crossings of the unclipped polygon, cut to
    /// [lo, hi]) times the strip's height.
    ///
    /// Error bound: the slice length f(y) is continuous with |f'(y)| at most the sum over the edges
    /// crossing y of |dx/dy|, so its total variation is at most Σ|dx| over the edges; a strip of
    /// height h errs by at most h times the variation of f inside it, and the whole estimate by at
    /// most h·Σ|dx|.
    static func scanlineArea(_ polygon: [Point], lo: Double, hi: Double, rows: Int) -> (area: Double, bound: Double) {
        let h = (hi - lo) / Double(rows)
        var area = 0.0
        var crossings: [Double] = []
        for row in 0..<rows {
            let y = lo + (Double(row) + 0.5) * h
            crossings.removeAll(keepingCapacity: true)
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                if (a.y <= y) != (b.y <= y) {
                    crossings.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
            crossings.sort()
            for k in stride(from: 0, to: crossings.count - 1, by: 2) {
                let from = max(crossings[k], lo), to = min(crossings[k + 1], hi)
                if to > from { area += (to - from) * h }
            }
        }
        var dx = 0.0
        for i in polygon.indices { dx += abs(polygon[(i + 1) % polygon.count].x - polygon[i].x) }
        return (area, h * dx)
    }

    static func shoelace(_ ring: [Point]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// Seeded random polygons, many crossing the square's edges and corners: every output vertex
    /// lies in the square, and the clipped area matches the scanline area within its bound.
    @Test(arguments: 0..<40)
    func randomPolygons(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let center = Point(
            x: Double.random(in: -3000...7000, using: &random), y: Double.random(in: -3000...7000, using: &random))
        let polygon = Self.starPolygon(
            n: Int.random(in: 3...40, using: &random), center: center,
            maxRadius: Double.random(in: 100...6000, using: &random), using: &random)
        let clipped = clipper.clip(ring: seed % 2 == 0 ? polygon : polygon.reversed())
        for p in clipped {
            #expect(p.x >= -64 && p.x <= 4160 && p.y >= -64 && p.y <= 4160, "\(p) outside the square")
        }
        let (expected, bound) = Self.scanlineArea(polygon, lo: -64, hi: 4160, rows: 8 * 4224)
        let area = abs(Self.shoelace(clipped))
        #expect(abs(area - expected) <= bound + 1e-6, "area \(area), scanlines \(expected) ± \(bound)")
        // The bound is far below the areas in play, so a part lost or added would show.
        if expected > 1e5 { #expect(bound < expected / 10) }
    }

    /// Seeded random lines: every piece's points lie in the square, and the clipped length equals
    /// the length of the segments' parts inside, measured by sampling each segment finely.
    @Test(arguments: 0..<20)
    func randomLines(seed: UInt64) {
        var random = SeededRandom(seed: seed + 1000)
        let line = (0..<Int.random(in: 2...12, using: &random)).map { _ in
            Point(
                x: Double.random(in: -2000...6000, using: &random), y: Double.random(in: -2000...6000, using: &random))
        }
        let pieces = clipper.clip(line: line)
        var length = 0.0
        for piece in pieces {
            #expect(piece.count >= 2)
            for p in piece { #expect(clipper.contains(p)) }
            for i in 1..<piece.count { length += hypot(piece[i].x - piece[i - 1].x, piece[i].y - piece[i - 1].y) }
        }
        // Sampling: each sample stands for 1/samples of its segment; the error is at most two
        // samples' worth per segment (where it enters and leaves the convex square).
        var sampled = 0.0
        var bound = 0.0
        let samples = 20_000
        for i in 1..<line.count {
            let a = line[i - 1], b = line[i]
            let segment = hypot(b.x - a.x, b.y - a.y)
            var inside = 0
            for k in 0..<samples {
                let t = (Double(k) + 0.5) / Double(samples)
                if clipper.contains(Point(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))) { inside += 1 }
            }
            sampled += segment * Double(inside) / Double(samples)
            bound += 2 * segment / Double(samples)
        }
        #expect(abs(length - sampled) <= bound + 1e-9, "length \(length), sampled \(sampled) ± \(bound)")
    }
}
