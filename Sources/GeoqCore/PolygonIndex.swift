/// A layer of areal features indexed for point queries.
///
/// Point queries go through an R-tree over the *parts* (the polygons of each multipolygon)
/// rather than over whole features: a country with overseas territories has a box spanning
/// half the world, but each of its parts has a tight one. The parts' y-stripe indexes are the
/// ones of the features' ``IndexedPolygon``s, shared (arrays are copy-on-write), not copied.
///
/// Items are identified by their position in the array given to ``init(_:)``. Immutable
/// once built, so one index can be shared by any number of concurrent readers.
public struct PolygonIndex: Sendable {
    public let polygons: [IndexedPolygon]
    /// Every part of every feature, feature by feature.
    @usableFromInline let parts: [StripedPart]
    /// `partFeature[i]` is the item that part `i` belongs to.
    @usableFromInline let partFeature: [Int32]
    /// Over the parts' boxes (for point queries).
    @usableFromInline let partTree: PackedRTree
    /// Over the features' boxes (for nearest-feature queries).
    @usableFromInline let tree: PackedRTree

    public init(_ shapes: [MultiPolygon]) {
        let polygons = shapes.map(IndexedPolygon.init)
        self.polygons = polygons
        self.parts = polygons.flatMap(\.parts)
        self.partFeature = polygons.enumerated().flatMap { item, polygon in
            Array(repeating: Int32(item), count: polygon.parts.count)
        }
        self.partTree = PackedRTree(boxes: parts.map(\.boundingBox))
        self.tree = PackedRTree(boxes: polygons.map(\.boundingBox))
    }

    public var count: Int { polygons.count }

    /// Calls `body` once with each item that covers `p` (interior or boundary), in no
    /// particular order. Allocates nothing unless more than 16 items cover the point.
    @inlinable
    public func forEachCovering(_ p: Point, _ body: (Int) -> Void) {
        parts.withUnsafeBufferPointer { parts in
            partFeature.withUnsafeBufferPointer { partFeature in
                // A feature's parts may touch at the very point; report the feature once.
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { reported in
                    var count = 0
                    var overflow: [Int32] = []
                    partTree.search(containing: p) { part in
                        let item = partFeature[part]
                        if reported[..<count].contains(item) || overflow.contains(item) { return true }
                        if parts[part].locate(p) != .exterior {
                            if count < reported.count {
                                reported[count] = item
                                count += 1
                            } else {
                                overflow.append(item)
                            }
                            body(Int(item))
                        }
                        return true
                    }
                }
            }
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
        parts.withUnsafeBufferPointer { parts in
            partTree.search(containing: p) { part in
                guard parts[part].locate(p) != .exterior else { return true }
                found = Int(partFeature[part])
                return false
            }
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
