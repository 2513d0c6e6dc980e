import GeoqCore

/// Clips geometry in a tile's coordinates (``Point`` with x eastwards and y southwards in units
/// of the grid, before rounding) to the square `-buffer ... extent + buffer` on both axes.
///
/// - Rings: Sutherland–Hodgman against the four edges, one ring at a time (Sutherland & Hodgman,
///   "Reentrant polygon clipping", 1974). The square is convex, so a ring's output is the
///   intersection of its area with the square, possibly with edges running along the square's
///   sides where a concave ring left it and came back; a hole inside its exterior stays inside
///   the clipped exterior. A ring that misses the square comes out empty.
/// - Lines: Liang–Barsky per segment (Liang & Barsky, "A new concept and method for line
///   clipping", 1984); a line that leaves and re-enters the square comes out as several pieces.
/// - Points: kept when inside the square or on its border.
///
/// Rings are taken and given without their closing point. Points on the square's border count
/// as inside; intersections are put exactly on the border.
public struct TileClipper: Hashable, Sendable {
    public let minimum: Double
    public let maximum: Double

    /// The square `-buffer ... extent + buffer`.
    public init(extent: Int, buffer: Int) {
        minimum = -Double(buffer)
        maximum = Double(extent) + Double(buffer)
    }

    /// Whether `p` lies inside the square or on its border.
    @inlinable
    public func contains(_ p: Point) -> Bool {
        p.x >= minimum && p.x <= maximum && p.y >= minimum && p.y <= maximum
    }

    /// Whether every point of `box` lies in the square, so that clipping would change nothing.
    @inlinable
    public func contains(_ box: BoundingBox) -> Bool {
        box.minX >= minimum && box.maxX <= maximum && box.minY >= minimum && box.maxY <= maximum
    }

    /// Whether `box` meets the square.
    @inlinable
    public func meets(_ box: BoundingBox) -> Bool {
        box.minX <= maximum && box.maxX >= minimum && box.minY <= maximum && box.maxY >= minimum
    }

    /// `ring` (without its closing point) clipped to the square; empty when nothing is left.
    public func clip(ring: [Point]) -> [Point] {
        var output: [Point] = []
        var scratch: [Point] = []
        clip(ring: ring, into: &output, scratch: &scratch)
        return output
    }

    /// `line` clipped to the square: the pieces inside it, in order.
    public func clip(line: [Point]) -> [[Point]] {
        var points: [Point] = []
        var ends: [Int] = []
        clip(line: line, into: &points, pieceEnds: &ends)
        var pieces: [[Point]] = []
        var start = 0
        for end in ends {
            pieces.append(Array(points[start..<end]))
            start = end
        }
        return pieces
    }

    /// Replaces `output` with `ring` clipped, using `scratch` between the edges; both keep
    /// their capacity, so a caller that reuses them allocates nothing once they are large enough.
    public func clip(ring: [Point], into output: inout [Point], scratch: inout [Point]) {
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: ring)
        guard !ring.isEmpty else { return }
        // Four passes, each from one buffer into the other, ending back in `output`.
        clipEdge(from: output, into: &scratch, axis: .x, bound: minimum, keepAbove: true)
        clipEdge(from: scratch, into: &output, axis: .x, bound: maximum, keepAbove: false)
        clipEdge(from: output, into: &scratch, axis: .y, bound: minimum, keepAbove: true)
        clipEdge(from: scratch, into: &output, axis: .y, bound: maximum, keepAbove: false)
    }

    private enum Axis { case x, y }

    /// One Sutherland–Hodgman pass: the part of the ring `input` on the kept side of the line
    /// `axis = bound`, into `output`.
    private func clipEdge(from input: [Point], into output: inout [Point], axis: Axis, bound: Double, keepAbove: Bool) {
        output.removeAll(keepingCapacity: true)
        guard let last = input.last else { return }
        @inline(__always) func inside(_ p: Point) -> Bool {
            let v = axis == .x ? p.x : p.y
            return keepAbove ? v >= bound : v <= bound
        }
        // The crossing on the line, its other coordinate kept between the ends' (rounding could
        // otherwise put it a hair beyond an edge already clipped).
        @inline(__always) func crossing(_ a: Point, _ b: Point) -> Point {
            if axis == .x {
                let t = (bound - a.x) / (b.x - a.x)
                let y = a.y + t * (b.y - a.y)
                return Point(x: bound, y: Swift.min(Swift.max(y, Swift.min(a.y, b.y)), Swift.max(a.y, b.y)))
            }
            let t = (bound - a.y) / (b.y - a.y)
            let x = a.x + t * (b.x - a.x)
            return Point(x: Swift.min(Swift.max(x, Swift.min(a.x, b.x)), Swift.max(a.x, b.x)), y: bound)
        }
        output.reserveCapacity(input.count + 4)
        var previous = last
        var previousInside = inside(previous)
        for current in input {
            let currentInside = inside(current)
            if currentInside {
                if !previousInside { output.append(crossing(previous, current)) }
                output.append(current)
            } else if previousInside {
                output.append(crossing(previous, current))
            }
            previous = current
            previousInside = currentInside
        }
    }

    /// Appends `line` clipped to `points`, and the end of each piece to `pieceEnds`.
    public func clip(line: [Point], into points: inout [Point], pieceEnds: inout [Int]) {
        guard let first = line.first else { return }
        if line.count == 1 {
            if contains(first) {
                points.append(first)
                pieceEnds.append(points.count)
            }
            return
        }
        var open = false  // whether the last point appended ends a piece still going on
        for i in 1..<line.count {
            let a = line[i - 1], b = line[i]
            guard let (t0, t1) = liangBarsky(a, b) else {
                if open { pieceEnds.append(points.count) }
                open = false
                continue
            }
            let start = t0 == 0 ? a : onBorder(Point(x: a.x + t0 * (b.x - a.x), y: a.y + t0 * (b.y - a.y)))
            let end = t1 == 1 ? b : onBorder(Point(x: a.x + t1 * (b.x - a.x), y: a.y + t1 * (b.y - a.y)))
            if !open || t0 > 0 {
                if open { pieceEnds.append(points.count) }
                points.append(start)
                open = true
            }
            points.append(end)
            if t1 < 1 {
                pieceEnds.append(points.count)
                open = false
            }
        }
        if open { pieceEnds.append(points.count) }
    }

    /// `p`, computed to lie on the border, moved onto it where rounding put it a hair outside.
    @inline(__always)
    private func onBorder(_ p: Point) -> Point {
        Point(x: Swift.min(Swift.max(p.x, minimum), maximum), y: Swift.min(Swift.max(p.y, minimum), maximum))
    }

    /// The parameters `t0 <= t1` in 0...1 of the part of segment ab inside the square, or nil
    /// when the segment misses it.
    @inline(__always)
    private func liangBarsky(_ a: Point, _ b: Point) -> (Double, Double)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = 0.0, t1 = 1.0
        // For one side: p is the rate at which the segment moves outwards, q the room left at
        // t = 0; false when the segment lies wholly beyond that side.
        @inline(__always) func narrow(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                if r > t0 { t0 = r }
            } else {
                if r < t0 { return false }
                if r < t1 { t1 = r }
            }
            return true
        }
        guard narrow(-dx, a.x - minimum), narrow(dx, maximum - a.x), narrow(-dy, a.y - minimum),
            narrow(dy, maximum - a.y)
        else { return nil }
        return (t0, t1)
    }
}
