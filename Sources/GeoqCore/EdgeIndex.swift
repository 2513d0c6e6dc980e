/// Every edge of a multipolygon in a packed R-tree, for nearest-boundary queries.
@usableFromInline
struct EdgeIndex: Sendable {
    @usableFromInline let edges: [Segment]
    @usableFromInline let tree: PackedRTree

    init(_ shape: MultiPolygon) {
        var edges: [Segment] = []
        edges.reserveCapacity(shape.vertexCount)
        for polygon in shape.polygons {
            for ring in polygon.rings {
                for i in 1..<ring.points.count { edges.append(Segment(ring.points[i - 1], ring.points[i])) }
            }
        }
        self.edges = edges
        self.tree = PackedRTree(boxes: edges.map(\.boundingBox))
    }

    /// The boundary point nearest to `p` under `metric`, and its distance. Ties between edges
    /// go to the lower edge index (ring order). `(p, .infinity)` for a shape without edges.
    func nearestBoundaryPoint(to p: Point, metric: LocalMetric) -> (point: Point, distance: Double) {
        var best: (point: Point, distance: Double) = (p, .infinity)
        tree.nearest(
            boxDistance: { metric.distance(p, $0) },
            itemDistance: { metric.closestPoint(on: edges[$0], to: p).distance }
        ) { edge, _ in
            best = metric.closestPoint(on: edges[edge], to: p)
            return false
        }
        return best
    }
}
