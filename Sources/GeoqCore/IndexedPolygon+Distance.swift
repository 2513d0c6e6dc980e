extension IndexedPolygon {
    /// The point of the boundary (any ring of any part) nearest to `p`, found through the
    /// edge R-tree, with its distance under `metric`.
    ///
    /// For a point inside, this says how safely inside it is; for a point outside, it is the
    /// distance to the polygon. Ties between edges go to the lower edge index (ring order).
    public func nearestBoundaryPoint(to p: Point, metric: LocalMetric) -> (point: Point, distance: Double) {
        var best: (point: Point, distance: Double) = (p, .infinity)
        edgeTree.nearest(
            boxDistance: { metric.distance(p, $0) },
            itemDistance: { metric.closestPoint(on: edges[$0], to: p).distance }
        ) { edge, _ in
            best = metric.closestPoint(on: edges[edge], to: p)
            return false
        }
        return best
    }
}
