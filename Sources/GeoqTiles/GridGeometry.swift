/// Exact integer arithmetic on grid points: areas, turns, and the clean-up of rings and lines
/// after rounding (repeated points, and for rings collinear points and zero-area spikes).
enum GridGeometry {
    /// Twice the signed shoelace area of the ring `points[range]` (closing edge implied).
    static func signedDoubleArea(_ points: UnsafeBufferPointer<GridPoint>, _ range: Range<Int>) -> Int64 {
        guard range.count >= 3 else { return 0 }
        var sum: Int64 = 0
        var previous = points[range.upperBound - 1]
        for i in range {
            let p = points[i]
            sum += Int64(previous.x) * Int64(p.y) - Int64(p.x) * Int64(previous.y)
            previous = p
        }
        return sum
    }

    /// The cross product of b - a and c - b: zero when a, b, c lie on one line (b between them,
    /// or a spike going back over itself).
    @inline(__always)
    static func cross(_ a: GridPoint, _ b: GridPoint, _ c: GridPoint) -> Int64 {
        (Int64(b.x) - Int64(a.x)) * (Int64(c.y) - Int64(b.y)) - (Int64(b.y) - Int64(a.y)) * (Int64(c.x) - Int64(b.x))
    }

    /// Removes, from `points[start...]` taken as an open line, each point equal to the one
    /// before it.
    static func removeRepeats(_ points: inout [GridPoint], from start: Int) {
        guard points.count - start > 1 else { return }
        var write = start + 1
        for read in (start + 1)..<points.count where points[read] != points[write - 1] {
            points[write] = points[read]
            write += 1
        }
        points.removeLast(points.count - write)
    }

    /// Reduces `points[start...]`, a ring without its closing point, to its corners: repeated
    /// points and points on the line through their neighbours (straight runs and zero-area
    /// spikes) go, around the closing point too. Neither changes the area the ring encloses.
    static func reduceRing(_ points: inout [GridPoint], from start: Int) {
        // A stack over the ring, popping the middle of every straight triple as it appears.
        var top = start
        for read in start..<points.count {
            let p = points[read]
            if top > start && points[top - 1] == p { continue }
            points[top] = p
            top += 1
            while top - start >= 3 && cross(points[top - 3], points[top - 2], points[top - 1]) == 0 {
                points[top - 2] = points[top - 1]
                top -= 1
                if points[top - 2] == points[top - 1] { top -= 1 }
            }
        }
        points.removeLast(points.count - top)
        // Around the closing point: the last and the first points may still be straight or equal.
        var first = start
        while points.count - first >= 3 {
            let n = points.count
            if points[n - 1] == points[first] || cross(points[n - 2], points[n - 1], points[first]) == 0 {
                points.removeLast()
            } else if cross(points[n - 1], points[first], points[first + 1]) == 0 {
                first += 1
            } else {
                break
            }
        }
        if first > start { points.removeSubrange(start..<first) }
        if points.count - start < 3 { points.removeLast(points.count - start) }
    }
}
