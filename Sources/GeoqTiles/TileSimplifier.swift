import GeoqCore

/// Douglas–Peucker simplification in a tile's grid units (Douglas & Peucker, "Algorithms for
/// the reduction of the number of points required to represent a digitized line or its
/// caricature", 1973), done before rounding to the grid.
///
/// Contract: the first and last points of a line are kept, and a ring's first point (where it
/// closes); kept points keep their order; every dropped point lies within `tolerance` of the
/// segment of kept points that replaced it, and a point farther than that is never dropped. A
/// tolerance of 0 or less, or not finite, keeps every point. Rings are simplified one by one, so
/// two rings of a polygon may come to cross; at a tolerance of about one grid unit that is
/// invisible, and renderers fill such rings without complaint.
///
/// Complexity: O(n log n) typical, O(n²) worst case; no recursion (an explicit stack).
public enum TileSimplifier {
    /// `line` simplified, its ends kept.
    public static func simplify(line: [Point], tolerance: Double) -> [Point] {
        var points = line
        var work = Workspace()
        simplify(&points, from: 0, tolerance: tolerance, closed: false, work: &work)
        return points
    }

    /// `ring` (without its closing point) simplified, its first point kept.
    public static func simplify(ring: [Point], tolerance: Double) -> [Point] {
        var points = ring
        var work = Workspace()
        simplify(&points, from: 0, tolerance: tolerance, closed: true, work: &work)
        return points
    }

    /// Buffers reused from one call to the next, so that simplifying allocates nothing once
    /// they are large enough.
    struct Workspace {
        var keep: [Bool] = []
        var stack: [(Int, Int)] = []
    }

    /// Simplifies `points[start...]` in place: a line, or with `closed` a ring without its
    /// closing point.
    static func simplify(
        _ points: inout [Point], from start: Int, tolerance: Double, closed: Bool, work: inout Workspace
    ) {
        guard tolerance > 0, tolerance.isFinite, points.count - start > 2 else { return }
        // A ring runs from its first point back to it: the closing point joins for the pass.
        if closed { points.append(points[start]) }
        let last = points.count - 1
        let toleranceSquared = tolerance * tolerance
        work.keep.removeAll(keepingCapacity: true)
        work.keep.append(contentsOf: repeatElement(false, count: points.count - start))
        work.keep[0] = true
        work.keep[last - start] = true
        work.stack.removeAll(keepingCapacity: true)
        work.stack.append((start, last))
        points.withUnsafeBufferPointer { p in
            while let (first, end) = work.stack.popLast() {
                guard end - first > 1 else { continue }
                var (farthest, distance) = (first, -1.0)
                for i in (first + 1)..<end {
                    let d = squaredDistance(p[i], p[first], p[end])
                    if d > distance { (farthest, distance) = (i, d) }
                }
                guard distance > toleranceSquared else { continue }
                work.keep[farthest - start] = true
                work.stack.append((first, farthest))
                work.stack.append((farthest, end))
            }
        }
        var write = start
        for read in start...last where work.keep[read - start] {
            points[write] = points[read]
            write += 1
        }
        points.removeLast(points.count - write)
        if closed { points.removeLast() }
    }

    /// The squared distance from `p` to the segment ab (to a itself when a == b).
    @inline(__always)
    static func squaredDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        var (x, y) = (a.x, a.y)
        let lengthSquared = dx * dx + dy * dy
        if lengthSquared > 0 {
            let t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared
            if t >= 1 {
                (x, y) = (b.x, b.y)
            } else if t > 0 {
                (x, y) = (a.x + t * dx, a.y + t * dy)
            }
        }
        return (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
    }
}
