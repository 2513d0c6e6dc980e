/// Douglas–Peucker simplification of lines, rings and polygons, with the tolerance measured in
/// a ``LocalMetric`` plane (metres at the feature's latitude, or ``LocalMetric/planar``).
///
/// Douglas & Peucker, "Algorithms for the reduction of the number of points required to
/// represent a digitized line or its caricature" (1973). Invariants:
/// - the first and last positions are always kept, and kept positions keep their order;
/// - every dropped position lies within `tolerance` of the kept polyline (of the kept segment
///   that replaced it); a position farther than `tolerance` is never dropped;
/// - a closed ring stays closed and keeps at least 4 positions, or is returned unchanged;
/// - a polygon whose simplified rings would cross or touch, or whose simplified hole would
///   leave its shell or enter another hole, is returned unchanged, so a valid polygon stays
///   valid (as GEOS's `isValid` says). The parts of a multipolygon are simplified one by one;
///   two parts that were close may overlap afterwards.
///
/// Complexity: O(n log n) typical, O(n²) worst case per line; the polygon check sweeps the
/// kept segments by x (typically O(k log k) for k kept positions).
public enum DouglasPeucker {
    /// The indices of `points` that Douglas–Peucker keeps, ascending; always the first and the
    /// last. A negative or non-finite tolerance keeps every position.
    public static func keptIndices(_ points: [Point], tolerance: Double, metric: LocalMetric) -> [Int] {
        guard points.count > 2, tolerance >= 0, tolerance.isFinite else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        // An explicit stack: a 20,000-vertex ring could recurse that deep.
        var pending = [(0, points.count - 1)]
        while let (first, last) = pending.popLast() {
            guard last - first > 1 else { continue }
            let segment = Segment(points[first], points[last])
            var (farthest, distance) = (first, -1.0)
            for index in (first + 1)..<last {
                let d = metric.closestPoint(on: segment, to: points[index]).distance
                if d > distance { (farthest, distance) = (index, d) }
            }
            guard distance > tolerance else { continue }
            keep[farthest] = true
            pending.append((first, farthest))
            pending.append((farthest, last))
        }
        return keep.indices.filter { keep[$0] }
    }

    /// `points` simplified (an open line; its ends are kept).
    public static func simplify(_ points: [Point], tolerance: Double, metric: LocalMetric) -> [Point] {
        keptIndices(points, tolerance: tolerance, metric: metric).map { points[$0] }
    }

    /// `ring` simplified, its closing position kept; unchanged when fewer than 4 positions
    /// would remain.
    public static func simplify(_ ring: Ring, tolerance: Double, metric: LocalMetric) -> Ring {
        let kept = simplify(ring.points.array, tolerance: tolerance, metric: metric)
        guard kept.count >= 4, let simplified = try? Ring(kept) else { return ring }
        return simplified
    }

    /// `polygon` with each ring simplified; unchanged when the simplified rings would not make
    /// a valid polygon (see the type's invariants).
    public static func simplify(_ polygon: Polygon, tolerance: Double, metric: LocalMetric) -> Polygon {
        let shell = simplify(polygon.shell, tolerance: tolerance, metric: metric)
        let holes = polygon.holes.map { simplify($0, tolerance: tolerance, metric: metric) }
        if shell == polygon.shell && holes == polygon.holes { return polygon }
        let simplified = Polygon(shell: shell, holes: holes)
        return isSimple(simplified) && holesStayApart(simplified) ? simplified : polygon
    }

    /// `geometry` simplified: lines, rings and polygons as above; points as they are.
    public static func simplify(_ geometry: Geometry, tolerance: Double, metric: LocalMetric) -> Geometry {
        switch geometry {
        case .point, .multiPoint: geometry
        case .lineString(let line): .lineString(simplify(line, tolerance: tolerance, metric: metric))
        case .multiLineString(let lines):
            .multiLineString(lines.map { simplify($0, tolerance: tolerance, metric: metric) })
        case .polygon(let polygon): .polygon(simplify(polygon, tolerance: tolerance, metric: metric))
        case .multiPolygon(let parts):
            .multiPolygon(MultiPolygon(parts.polygons.map { simplify($0, tolerance: tolerance, metric: metric) }))
        }
    }

    /// Whether no two edges of `polygon`'s rings meet, except consecutive edges of one ring at
    /// their shared vertex (without folding back over each other).
    static func isSimple(_ polygon: Polygon) -> Bool {
        struct Edge {
            var ring: Int, index: Int, count: Int
            var a: Point, b: Point
            var box: BoundingBox
        }
        var edges: [Edge] = []
        for (r, ring) in polygon.rings.enumerated() {
            let count = ring.edgeCount
            for i in 0..<count {
                let (a, b) = (ring.points[i], ring.points[i + 1])
                edges.append(Edge(ring: r, index: i, count: count, a: a, b: b, box: BoundingBox(around: [a, b])))
            }
        }
        edges.sort { $0.box.minX < $1.box.minX }
        for i in edges.indices {
            let e = edges[i]
            var j = i + 1
            while j < edges.count, edges[j].box.minX <= e.box.maxX {
                let f = edges[j]
                j += 1
                guard f.box.minY <= e.box.maxY, e.box.minY <= f.box.maxY else { continue }
                if e.ring == f.ring {
                    let step = (f.index - e.index + e.count) % e.count
                    if step == 1 {  // f follows e: they share e.b
                        if foldsBack(e.a, e.b, f.b) { return false }
                        continue
                    }
                    if step == e.count - 1 {  // e follows f: they share f.b
                        if foldsBack(f.a, f.b, e.b) { return false }
                        continue
                    }
                }
                if segmentsMeet(e.a, e.b, f.a, f.b) { return false }
            }
        }
        return true
    }

    /// Whether the path a → b → c turns back along itself (c on the line through a and b, on
    /// a's side of b), so that the two edges overlap.
    private static func foldsBack(_ a: Point, _ b: Point, _ c: Point) -> Bool {
        guard Orientation.index(a, b, c) == 0 else { return false }
        return (a.x - b.x) * (c.x - b.x) + (a.y - b.y) * (c.y - b.y) > 0
    }

    /// Whether the closed segments pq and rs share a point (exact orientation tests).
    private static func segmentsMeet(_ p: Point, _ q: Point, _ r: Point, _ s: Point) -> Bool {
        let o1 = Orientation.index(p, q, r), o2 = Orientation.index(p, q, s)
        let o3 = Orientation.index(r, s, p), o4 = Orientation.index(r, s, q)
        if o1 * o2 < 0 && o3 * o4 < 0 { return true }
        func within(_ a: Point, _ b: Point, _ c: Point) -> Bool {
            min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
        }
        return (o1 == 0 && within(p, q, r)) || (o2 == 0 && within(p, q, s)) || (o3 == 0 && within(r, s, p))
            || (o4 == 0 && within(r, s, q))
    }

    /// Whether, for rings that do not meet, every hole is inside the shell and outside the
    /// other holes (one vertex of each decides).
    static func holesStayApart(_ polygon: Polygon) -> Bool {
        for (i, hole) in polygon.holes.enumerated() {
            if polygon.shell.locate(hole.points[0]) != .interior { return false }
            for (j, other) in polygon.holes.enumerated() where j != i {
                if other.locate(hole.points[0]) != .exterior { return false }
            }
        }
        return true
    }
}
