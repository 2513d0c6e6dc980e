/// A layer of areal features indexed for point queries: an R-tree over the features' boxes,
/// and an ``IndexedPolygon`` per feature.
///
/// Items are identified by their position in the array given to ``init(_:)``. Immutable
/// once built, so one index can be shared by any number of concurrent readers.
public struct PolygonIndex: Sendable {
    public let polygons: [IndexedPolygon]
    @usableFromInline let tree: PackedRTree

    public init(_ shapes: [MultiPolygon]) {
        self.polygons = shapes.map(IndexedPolygon.init)
        self.tree = PackedRTree(boxes: polygons.map(\.boundingBox))
    }

    public var count: Int { polygons.count }

    /// Calls `body` with each item that covers `p` (interior or boundary), without allocating.
    @inlinable
    public func forEachCovering(_ p: Point, _ body: (Int) -> Void) {
        tree.search(containing: p) { item in
            if polygons[item].covers(p) { body(item) }
            return true
        }
    }

    /// The items that cover `p`, in increasing index order.
    public func covering(_ p: Point) -> [Int] {
        var result: [Int] = []
        forEachCovering(p) { result.append($0) }
        return result.sorted()
    }

    /// The first item found that covers `p`, if any: the fast path for layers whose features
    /// do not overlap.
    @inlinable
    public func firstCovering(_ p: Point) -> Int? {
        var found: Int?
        tree.search(containing: p) { item in
            if polygons[item].covers(p) {
                found = item
                return false
            }
            return true
        }
        return found
    }

    /// Items ordered by the distance from `p` to their boundary under `metric`, nearest first,
    /// at most `limit` of them. Meant for points outside every feature, where that distance is
    /// the distance to the feature.
    public func nearestByBoundary(
        to p: Point, metric: LocalMetric, limit: Int
    ) -> [(item: Int, point: Point, distance: Double)] {
        var result: [(item: Int, point: Point, distance: Double)] = []
        guard limit > 0 else { return result }
        tree.nearest(
            boxDistance: { metric.distance(p, $0) },
            itemDistance: { polygons[$0].nearestBoundaryPoint(to: p, metric: metric).distance }
        ) { item, _ in
            let nearest = polygons[item].nearestBoundaryPoint(to: p, metric: metric)
            result.append((item, nearest.point, nearest.distance))
            return result.count < limit
        }
        return result
    }
}
