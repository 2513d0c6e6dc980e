/// Every vertex of a layer's rings in one buffer, item after item, part after part, ring after
/// ring, each ring as given (its closing vertex included).
///
/// The point-in-polygon stripes and the boundary runs of a ``PolygonIndex`` refer to edges by
/// number into this buffer instead of keeping copies of them: edge `e` runs from vertex `e` to
/// vertex `e + 1`, and exists when both are in the same ring. Four bytes an edge in each
/// structure rather than the 32 of a ``Segment``, and the vertices are never stored with the
/// index: the layer's own geometry gives them back.
///
/// Invariant: immutable after `init` (hence safe to share between threads). Its memory is
/// either its own (freed in `deinit`) or the ``PointArena`` the shapes' rings already share,
/// which it keeps alive.
@usableFromInline
final class LayerVertices: @unchecked Sendable {
    @usableFromInline let points: UnsafeMutableBufferPointer<Point>
    /// The shapes' own buffer when their rings lie in it back to back; nil when the vertices
    /// were copied into memory of this object's own.
    private let shared: PointArena?

    /// The vertices of `shapes` in order, and for each part (polygon) of each shape the range
    /// of vertices of each of its rings: the rings' own buffer if they lie in one back to back
    /// from its start, in this order, else a copy.
    init(_ shapes: [MultiPolygon]) {
        if let buffer = Self.sharedBuffer(of: shapes) {
            shared = buffer
            points = buffer.written
            return
        }
        shared = nil
        let count = shapes.reduce(0) { total, shape in
            shape.polygons.reduce(total) { $0 + $1.rings.reduce(0) { $0 + $1.points.count } }
        }
        points = LargeAllocation.buffer(count: count)
        var next = 0
        for shape in shapes {
            for polygon in shape.polygons {
                for ring in polygon.rings {
                    ring.points.withUnsafeBufferPointer { source in
                        _ = UnsafeMutableBufferPointer(rebasing: points[next..<next + source.count])
                            .initialize(from: source)
                    }
                    next += ring.points.count
                }
            }
        }
    }

    deinit { if shared == nil { points.deallocate() } }

    /// The buffer every ring of `shapes` lies in, in order and back to back, filling it from
    /// its first position to its last written one; nil if there is no such buffer.
    private static func sharedBuffer(of shapes: [MultiPolygon]) -> PointArena? {
        guard case .shared(let buffer, _)? = shapes.first?.polygons.first?.shell.points.storage else { return nil }
        var next = 0
        for shape in shapes {
            for polygon in shape.polygons {
                guard let shell = polygon.shell.points.range(in: buffer), shell.lowerBound == next else { return nil }
                next = shell.upperBound
                for hole in polygon.holes {
                    guard let range = hole.points.range(in: buffer), range.lowerBound == next else { return nil }
                    next = range.upperBound
                }
            }
        }
        return next == buffer.count ? buffer : nil
    }

    @inlinable var count: Int { points.count }

    /// The vertex ranges of each ring of each part of `shapes`, in the order of ``init(_:)``.
    static func ringRanges(of shapes: [MultiPolygon]) -> [[Range<Int>]] {
        var parts: [[Range<Int>]] = []
        var next = 0
        for shape in shapes {
            for polygon in shape.polygons {
                parts.append(
                    polygon.rings.map { ring in
                        defer { next += ring.points.count }
                        return next..<next + ring.points.count
                    })
            }
        }
        return parts
    }

    /// Edge `e`: from vertex `e` to vertex `e + 1` (the caller knows both are in one ring).
    @inlinable @inline(__always)
    func edge(_ e: Int) -> Segment { Segment(points[e], points[e + 1]) }
}
