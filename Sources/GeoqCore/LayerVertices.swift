/// Every vertex of a layer's rings in one buffer, item after item, part after part, ring after
/// ring, each ring as given (its closing vertex included).
///
/// The point-in-polygon stripes and the boundary runs of a ``PolygonIndex`` refer to edges by
/// number into this buffer instead of keeping copies of them: edge `e` runs from vertex `e` to
/// vertex `e + 1`, and exists when both are in the same ring. Four bytes an edge in each
/// structure rather than the 32 of a ``Segment``, and the vertices are never stored with the
/// index: the layer's own geometry gives them back.
///
/// Invariant: immutable after `init` (hence safe to share between threads); freed in `deinit`.
@usableFromInline
final class LayerVertices: @unchecked Sendable {
    @usableFromInline let points: UnsafeMutableBufferPointer<Point>

    /// The vertices of `shapes` in order, and for each part (polygon) of each shape the range
    /// of vertices of each of its rings.
    init(_ shapes: [MultiPolygon]) {
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

    deinit { points.deallocate() }

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
