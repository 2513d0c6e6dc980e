extension PolygonIndex {
    /// Calls `body` once with each item that covers `p` and where `p` lies relative to it
    /// (``Location/interior`` or ``Location/boundary``, as ``locate(_:item:)`` says), in no
    /// particular order. The part that was found covering `p` gives the location, so an item
    /// of one part is located once; allocates nothing unless more than 4 items cover the point.
    public func forEachCovering(_ p: Point, located body: (_ item: Int, _ location: Location) -> Void) {
        // Locals only in the closure: capturing `self` would retain every array of the index.
        let stripes = self.stripes
        let firstPart = self.firstPart
        var reported = SmallInt32Set()
        partTree.search(containing: p) { part in
            let item = stripes.feature(of: part)
            guard !reported.contains(item) else { return true }
            let location = stripes.locate(p, part: part)
            guard location != .exterior else { return true }
            reported.insert(item)
            let parts = firstPart[Int(item)]..<firstPart[Int(item) + 1]
            // On one part's boundary, another part of the same item may hold `p` inside.
            body(Int(item), location == .interior || parts.count == 1 ? location : stripes.locate(p, parts: parts))
            return true
        }
    }

    /// ``nearestBoundaryPoint(to:item:metric:)`` for a point that item `item` covers, found
    /// faster: such a point is no farther from the item's boundary than from the sides of its
    /// bounding box (going straight to a side, it must leave the item first), so edges beyond
    /// that are never measured. The same answer for a covered point; do not use it for others.
    public func nearestBoundaryPoint(
        toCovered p: Point, item: Int, metric: LocalMetric
    ) -> (point: Point, distance: Double) {
        let box = itemBoxes[item]
        let bound = Swift.min(
            (p.x - box.minX) * metric.metresPerDegreeX, (box.maxX - p.x) * metric.metresPerDegreeX,
            (p.y - box.minY) * metric.metresPerDegreeY, (box.maxY - p.y) * metric.metresPerDegreeY)
        // A hair beyond the bound, for the rounding of a point that lies on the box's side.
        return boundaries.nearestBoundaryPoint(
            to: p, item: item, metric: metric, within: Swift.max(bound, 0) * (1 + 1e-9))
            ?? nearestBoundaryPoint(to: p, item: item, metric: metric)
    }

    /// The item whose boundary is nearest to `p` under `metric`, the boundary point and its
    /// distance: the first answer of ``nearestByBoundary(to:metric:limit:)``, the same on ties,
    /// found without allocating. Nil for an index without items.
    ///
    /// The best item measured so far caps the search: a box or an item farther than it cannot
    /// come first, so it never enters the queue, and a later item's edges beyond that distance
    /// are never opened.
    public func nearestItemByBoundary(to p: Point, metric: LocalMetric) -> (item: Int, point: Point, distance: Double)?
    {
        var best: (item: Int, point: Point, distance: Double)?
        // An upper bound of the answer's distance before any item is measured: every side of a
        // tight box holds a vertex of what it bounds (for a node, of some item below it), so
        // the boundary nearest to `p` is no farther than the nearest side's far end.
        var upper = Double.infinity
        let boundaries = self.boundaries
        let first = itemTree.firstNearest(
            boxDistance: { box in
                upper = Swift.min(upper, metric.farEndOfNearestSide(p, box) * (1 + 1e-9))
                return metric.distance(p, box)
            },
            itemDistance: { item in
                guard
                    let found = boundaries.nearestBoundaryPoint(
                        to: p, item: item, metric: metric, within: Swift.min(best?.distance ?? .infinity, upper))
                else { return .infinity }
                if let b = best, b.distance < found.distance || (b.distance == found.distance && b.item < item) {
                    return found.distance
                }
                best = (item, found.point, found.distance)
                return found.distance
            },
            // Nothing farther than the best item measured (or the bound) can come out first.
            within: { Swift.min(best?.distance ?? .infinity, upper) })
        switch first {
        case .item(let item, let distance):
            if let best, best.item == item { return best }
            // Not reached (the first item out of the queue is the best measured), but cheap to
            // keep right.
            return (item, nearestBoundaryPoint(to: p, item: item, metric: metric).point, distance)
        case .none:
            return nil
        case .queueFull:
            return nearestByBoundary(to: p, metric: metric, limit: 1).first
        }
    }
}
