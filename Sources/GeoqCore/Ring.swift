/// A closed linear ring: the boundary of a polygon shell or hole.
///
/// Invariant: `points.count >= 4`, every coordinate is finite and `points.first == points.last`.
/// The orientation is not normalised (GeoJSON asks for counter-clockwise shells, but real files
/// do not always comply, and point-in-polygon does not depend on it).
public struct Ring: Hashable, Sendable {
    /// The positions, closing position included.
    public let points: RingPoints

    /// Validates and wraps `points`.
    public init(_ points: [Point]) throws(GeometryError) {
        try self.init(RingPoints(points))
    }

    /// Validates and wraps `points` (an array's or a shared buffer's).
    public init(_ points: RingPoints) throws(GeometryError) {
        guard points.count >= 4 else { throw .tooFewPoints(count: points.count) }
        try points.withUnsafeBufferPointer { (points) throws(GeometryError) in
            for (i, p) in points.enumerated() where !(p.x.isFinite && p.y.isFinite) {
                throw .nonFiniteCoordinate(index: i)
            }
        }
        try self.init(finite: points)
    }

    /// Wraps `points`, which a reader has already found finite one by one (a pass less over a
    /// large layer's vertices: 15 ms on the time zones); still checks their count and closure.
    package init(finite points: RingPoints) throws(GeometryError) {
        guard points.count >= 4 else { throw .tooFewPoints(count: points.count) }
        guard points[0] == points[points.count - 1] else {
            throw .notClosed(first: points[0], last: points[points.count - 1])
        }
        self.points = points
    }

    /// The ring of the positions of `buffer` from `start` to its end, closing it first by
    /// appending its first position if it is open and the buffer has room (see
    /// ``init(closing:)``). Nil if an open ring does not fit: the caller keeps the positions
    /// elsewhere.
    public init?(closingPositionsOf buffer: PointArena, from start: Int) throws(GeometryError) {
        let n = buffer.count - start
        if n >= 3, buffer.base[start] != buffer.base[buffer.count - 1] {
            guard buffer.free > 0 else { return nil }
            buffer.append(buffer.base[start])
        }
        try self.init(buffer.points(start..<buffer.count))
    }

    /// Wraps `points`, appending the first position if the ring is open. For sources such as
    /// shapefile parts or GEOS output that are closed by construction, or formats that allow an
    /// implicit close. Still rejects rings too short or not finite.
    public init(closing points: [Point]) throws(GeometryError) {
        var pts = points
        if let first = pts.first, pts.count >= 3, first != pts[pts.count - 1] { pts.append(first) }
        try self.init(pts)
    }

    /// Number of edges (positions minus the closing one).
    @inlinable public var edgeCount: Int { points.count - 1 }

    public var boundingBox: BoundingBox { BoundingBox(around: points) }

    /// Twice the signed area by the shoelace formula: positive for counter-clockwise rings
    /// (with x to the east and y to the north).
    public var signedDoubleArea: Double {
        points.withUnsafeBufferPointer { points in
            var sum = 0.0
            for i in 0..<(points.count - 1) {
                let a = points[i], b = points[i + 1]
                sum += (a.x * b.y - b.x * a.y)
            }
            return sum
        }
    }
}
