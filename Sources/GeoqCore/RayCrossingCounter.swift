/// Counts the crossings of a ring's edges with the horizontal ray that runs from a point
/// towards +x, and notices when the point lies on an edge.
///
/// The conventions are GEOS's `RayCrossingCounter` (itself JTS's), so that geoq and GEOS
/// agree on every point, including vertices and edges:
/// - an edge entirely to the left of the point is skipped;
/// - a point equal to an edge's end vertex is on the boundary;
/// - a horizontal edge counts only as boundary, never as a crossing;
/// - an upward edge includes its start and excludes its end, a downward edge the reverse,
///   so a ray through a vertex is counted once;
/// - the side of the point is decided by the exact ``Orientation/index(_:_:_:)``.
///
/// Feed it every edge that could cross the ray (for an indexed polygon, the edges of one
/// y-stripe); the order of edges does not matter.
@usableFromInline
struct RayCrossingCounter {
    @usableFromInline let point: Point
    @usableFromInline var crossings = 0
    @usableFromInline var isOnBoundary = false

    @inlinable
    init(point: Point) { self.point = point }

    /// Counts edge `p1 -> p2`.
    @inlinable
    mutating func count(_ p1: Point, _ p2: Point) {
        if p1.x < point.x && p2.x < point.x { return }
        if point.x == p2.x && point.y == p2.y {
            isOnBoundary = true
            return
        }
        if p1.y == point.y && p2.y == point.y {
            let minX = Swift.min(p1.x, p2.x), maxX = Swift.max(p1.x, p2.x)
            if point.x >= minX && point.x <= maxX { isOnBoundary = true }
            return
        }
        if (p1.y > point.y && p2.y <= point.y) || (p2.y > point.y && p1.y <= point.y) {
            var side = Orientation.index(p1, p2, point)
            if side == 0 {
                isOnBoundary = true
                return
            }
            if p2.y < p1.y { side = -side }
            if side > 0 { crossings += 1 }
        }
    }

    /// Interior for an odd number of crossings (the even-odd rule).
    @inlinable
    var location: Location {
        if isOnBoundary { return .boundary }
        return crossings & 1 == 1 ? .interior : .exterior
    }
}

extension Ring {
    /// Location of `p` relative to the area this ring encloses, by scanning every edge.
    /// O(n); ``IndexedPolygon`` answers the same question through an edge index.
    public func locate(_ p: Point) -> Location {
        guard boundingBox.contains(p) else { return .exterior }
        var counter = RayCrossingCounter(point: p)
        for i in 1..<points.count {
            counter.count(points[i - 1], points[i])
            if counter.isOnBoundary { return .boundary }
        }
        return counter.location
    }
}

extension Polygon {
    /// Location of `p` by the OGC rule: outside the shell, or inside a hole, is exterior;
    /// on any ring is boundary. O(n) scan; see ``IndexedPolygon`` for the indexed form.
    public func locate(_ p: Point) -> Location {
        let inShell = shell.locate(p)
        if inShell != .interior { return inShell }
        for hole in holes {
            switch hole.locate(p) {
            case .boundary: return .boundary
            case .interior: return .exterior
            case .exterior: continue
            }
        }
        return .interior
    }
}

extension MultiPolygon {
    /// Location of `p`: interior of some part is interior; otherwise on the boundary of some
    /// part is boundary; otherwise exterior.
    ///
    /// For a valid multipolygon, whose parts meet only at points, this is the OGC location
    /// (a point where two parts touch is on the boundary, as GEOS's relate says). For an
    /// invalid one whose parts share an edge, a point on that edge is reported as boundary;
    /// it is covered either way.
    public func locate(_ p: Point) -> Location {
        var onBoundary = false
        for polygon in polygons {
            switch polygon.locate(p) {
            case .interior: return .interior
            case .boundary: onBoundary = true
            case .exterior: break
            }
        }
        return onBoundary ? .boundary : .exterior
    }
}
