/// Segments in a packed R-tree, for "which segment is nearest to this point" queries: the
/// boundary of a polygon, the kerbs of a street layer, the pieces of any line strings.
///
/// Contract: built once from all segments, then queried; it never changes. A segment is
/// identified by its position in the array given to ``init(segments:)`` (for
/// ``init(_:)``, ring order: part by part, shell before holes, each ring's edges in order).
/// Segments of zero length (a repeated vertex) are allowed and behave as points; an index
/// without segments answers every query with nil.
///
/// Distances are those of the ``LocalMetric`` given to each query, so one index serves
/// metres around any reference latitude as well as plain Cartesian distance.
///
/// Complexity: building is O(n log n) in the number of segments; a query opens the tree's
/// boxes best first (``PackedRTree/nearest(boxDistance:itemDistance:_:)``) and costs about
/// O(log n) on well-spread segments.
public struct EdgeIndex: Sendable {
    /// The indexed segments, in input order.
    public let segments: [Segment]
    let tree: PackedRTree

    /// Indexes `segments`; `segments[i]` is edge `i` in every answer.
    public init(segments: [Segment]) {
        self.segments = segments
        self.tree = PackedRTree(boxes: segments.map(\.boundingBox))
    }

    /// Indexes every edge of every ring of `shape`, in ring order.
    public init(_ shape: MultiPolygon) {
        var edges: [Segment] = []
        edges.reserveCapacity(shape.vertexCount)
        for polygon in shape.polygons {
            for ring in polygon.rings {
                for i in 1..<ring.points.count { edges.append(Segment(ring.points[i - 1], ring.points[i])) }
            }
        }
        self.init(segments: edges)
    }

    /// Number of segments.
    public var count: Int { segments.count }

    /// The segment nearest to `p` under `metric`, the point of it nearest to `p`, and their
    /// distance; nil when no segment is within `maxDistance` (a segment exactly at
    /// `maxDistance` counts).
    ///
    /// Ties: of several segments at the same smallest distance, the one of lowest index wins,
    /// so the answer is that of a scan in input order keeping the first strictly nearer one.
    public func nearest(
        to p: Point, metric: LocalMetric, within maxDistance: Double = .infinity
    ) -> (edge: Int, point: Point, distance: Double)? {
        guard
            let found = tree.nearestItem(
                boxDistance: { metric.distance(p, $0) },
                itemDistance: { metric.closestPoint(on: segments[$0], to: p).distance },
                within: maxDistance)
        else { return nil }
        let closest = metric.closestPoint(on: segments[found.item], to: p)
        return (found.item, closest.point, closest.distance)
    }

    /// The boundary point nearest to `p` under `metric`, and its distance; `(p, .infinity)`
    /// without segments. The polygon queries' fast path: the distance is that of
    /// ``nearest(to:metric:within:)``; of segments at exactly the same distance the lowest
    /// index wins here too, but two segments whose distances differ only in the last bit of
    /// their squares count as tied (their points are then a few nanometres apart, or the same
    /// shared vertex). Allocates nothing (see ``nearestBoundaryPoint(to:metric:within:)``).
    func nearestBoundaryPoint(to p: Point, metric: LocalMetric) -> (point: Point, distance: Double) {
        nearestBoundaryPoint(to: p, metric: metric, within: .infinity) ?? (p, .infinity)
    }

    /// ``nearestBoundaryPoint(to:metric:)`` when its distance is at most `maxDistance`, else nil.
    ///
    /// Best first over the tree's nodes, by squared distances (no square root until the
    /// answer): a queue of nodes on the stack, each leaf's segments scanned in place against
    /// the best so far, and the search ends when the nearest unopened node is farther than
    /// that. Boxes beyond `maxDistance` are never opened.
    func nearestBoundaryPoint(
        to p: Point, metric: LocalMetric, within maxDistance: Double
    ) -> (point: Point, distance: Double)? {
        guard !segments.isEmpty else { return nil }
        // A hair looser than `maxDistance`: the final check below is on the distance itself,
        // so that a segment exactly at `maxDistance` counts whatever its square rounds to.
        let limit = maxDistance.isFinite ? maxDistance * maxDistance * (1 + 1e-12) : .infinity
        let best = segments.withUnsafeBufferPointer { segments in
            tree.nearestSegment(
                boxDistance: { metric.squaredDistance(p, $0) },
                // Squared, and a hair loose so that rounding never cuts off the nearest segment.
                boxUpperBound: {
                    let far = metric.farEndOfNearestSide(p, $0)
                    return far * far * (1 + 1e-9)
                },
                segmentDistance: { metric.squaredDistance(p, segments[$0]) },
                within: limit)
        }
        switch best {
        case .item(let edge, _):
            let closest = metric.closestPoint(on: segments[edge], to: p)
            return closest.distance <= maxDistance ? closest : nil
        case .none:
            return nil
        case .queueFull:
            var best: (point: Point, distance: Double)?
            tree.nearest(
                boxDistance: { metric.distance(p, $0) },
                itemDistance: { metric.closestPoint(on: segments[$0], to: p).distance }
            ) { edge, _ in
                best = metric.closestPoint(on: segments[edge], to: p)
                return false
            }
            guard let best, best.distance <= maxDistance else { return nil }
            return best
        }
    }
}
