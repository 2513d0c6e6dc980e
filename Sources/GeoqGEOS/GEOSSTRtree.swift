import CGEOS
import GeoqCore

/// GEOS's packed R-tree (Sort-Tile-Recursive; Leutenegger, Lopez & Edgington, "STR: A Simple
/// and Efficient Algorithm for R-Tree Packing", ICDE 1997) over integer ids.
///
/// Contract: **build once, then query only.** GEOS 3.11 builds the tree on its first query
/// and silently ignores later inserts, so this type takes all its items at initialisation,
/// builds the tree there, and offers no insert. To change the items, build a new tree and swap.
///
/// Items are `Int` ids (indices into the caller's own arrays, 0 or more) stored directly in
/// GEOS's `void *` item slot as id + 1, so that no item is a null pointer; the tree holds only
/// their boxes. Boxes are closed: a query point on a
/// box's edge finds it. Queries return *candidates* whose boxes intersect the query envelope,
/// in no particular order; re-check them exactly (for example with a
/// ``GEOSPreparedGeometry``).
///
/// Ownership: owns the `GEOSSTRtree*` (freed with `GEOSSTRtree_destroy_r`) and keeps its
/// context alive. Thread rule: like its context, one thread or task at a time.
///
/// Complexity: building is O(n log n); a query visits O(log n + k) nodes for k hits, and
/// allocates nothing per hit.
public final class GEOSSTRtree {
    public let context: GEOSContext
    let pointer: OpaquePointer
    /// Number of items in the tree (items with empty boxes are not stored).
    public let count: Int

    /// Builds a tree over `items`, each an id with its bounding box. Items whose box is
    /// ``BoundingBox/isEmpty`` can match nothing and are left out.
    ///
    /// - Parameter nodeCapacity: the maximum children per node (at least 2; GEOS recommends 10).
    public convenience init(
        context: GEOSContext, items: [(box: BoundingBox, id: Int)], nodeCapacity: Int = 10
    ) throws(GEOSError) {
        try self.init(context: context, nodeCapacity: nodeCapacity) { tree throws(GEOSError) in
            var count = 0
            for (box, id) in items where !box.isEmpty {
                guard
                    let envelope = GEOSGeom_createRectangle_r(
                        context.handle, box.minX, box.minY, box.maxX, box.maxY)
                else { throw context.error("STRtree insert") }
                // The tree copies the envelope (GEOS >= 3.9), so the rectangle can go at once.
                GEOSSTRtree_insert_r(context.handle, tree, envelope, Self.slot(id))
                GEOSGeom_destroy_r(context.handle, envelope)
                count += 1
            }
            return count
        }
    }

    /// Builds a tree over `items`, each an id with a geometry whose envelope is its box
    /// (for example the polygon the id names). Empty geometries are left out.
    public convenience init(
        context: GEOSContext, items: [(geometry: GEOSGeometry, id: Int)], nodeCapacity: Int = 10
    ) throws(GEOSError) {
        try self.init(context: context, nodeCapacity: nodeCapacity) { tree throws(GEOSError) in
            var count = 0
            for (geometry, id) in items {
                context.checkOwnership(geometry)
                if try geometry.isEmpty { continue }
                GEOSSTRtree_insert_r(context.handle, tree, geometry.pointer, Self.slot(id))
                count += 1
            }
            return count
        }
    }

    private init(
        context: GEOSContext, nodeCapacity: Int,
        insertAll: (OpaquePointer) throws(GEOSError) -> Int
    ) throws(GEOSError) {
        precondition(nodeCapacity >= 2, "an STRtree node needs room for at least 2 children")
        guard let tree = GEOSSTRtree_create_r(context.handle, nodeCapacity) else {
            throw context.error("STRtree create")
        }
        let h = context.handle
        do throws(GEOSError) {
            context.clearError()
            count = try insertAll(tree)
            if context.hasPendingError { throw context.error("STRtree insert") }
            // Build now (GEOS builds on the first query): an empty point has a null envelope,
            // which matches nothing, so this query only packs the tree.
            guard let nothing = GEOSGeom_createEmptyPoint_r(h) else { throw context.error("STRtree build") }
            GEOSSTRtree_query_r(h, tree, nothing, { _, _ in }, nil)
            GEOSGeom_destroy_r(h, nothing)
            if context.hasPendingError { throw context.error("STRtree build") }
        } catch {
            GEOSSTRtree_destroy_r(h, tree)
            throw error
        }
        self.context = context
        self.pointer = tree
    }

    /// The id of the item nearest to `point`, by the caller's `distance` to each id; nil for an
    /// empty tree. Wraps `GEOSSTRtree_nearest_generic_r` (branch and bound over the nodes).
    ///
    /// GEOS prunes nodes by the *planar* distance from `point` to their boxes, so `distance` must be
    /// in the same planar units and never less than the distance to the item's box — for points
    /// in degrees, Euclidean distance in degrees. That is why this cannot answer "nearest by
    /// geodesic distance" (see GeoqNearby.PointIndex for that). Ties: whichever GEOS meets first.
    public func nearest(to point: Point, distance: (Int) -> Double) throws(GEOSError) -> Int? {
        let h = context.handle
        guard let query = GEOSGeom_createPointFromXY_r(h, point.x, point.y) else {
            throw context.error("STRtree nearest")
        }
        defer { GEOSGeom_destroy_r(h, query) }
        context.clearError()
        let found: UnsafeRawPointer? = withoutActuallyEscaping(distance) { distance in
            withUnsafePointer(to: distance) { sink in
                GEOSSTRtree_nearest_generic_r(
                    h, pointer, nil, query,
                    { item1, item2, result, userData in
                        guard let userData, let result else { return 0 }
                        // One of the two is the query (the null item), the other a tree item.
                        let item = item1 ?? item2
                        result.pointee = userData.assumingMemoryBound(to: ((Int) -> Double).self).pointee(
                            GEOSSTRtree.id(item))
                        return 1  // non-zero: success (GEOS 3.11 aborts the search on 0)
                    },
                    UnsafeMutableRawPointer(mutating: sink))
            }
        }
        if context.hasPendingError { throw context.error("STRtree nearest") }
        return found.map { Self.id($0) }
    }

    static func slot(_ id: Int) -> UnsafeMutableRawPointer? {
        precondition(id >= 0 && id < Int.max, "STRtree ids are 0 or more")
        return UnsafeMutableRawPointer(bitPattern: id + 1)
    }

    static func id(_ item: UnsafeRawPointer?) -> Int { Int(bitPattern: item) - 1 }

    deinit {
        GEOSSTRtree_destroy_r(context.handle, pointer)
    }

    /// Calls `body` with the id of every item whose box intersects the envelope of `envelope`
    /// (a point's envelope is the point itself).
    public func query(_ envelope: GEOSGeometry, _ body: (Int) -> Void) throws(GEOSError) {
        context.checkOwnership(envelope)
        try query(rawEnvelope: envelope.pointer, body)
    }

    /// Calls `body` with the id of every item whose box contains `point` (edges included).
    /// A GEOS point is created and freed within the call.
    public func query(_ point: Point, _ body: (Int) -> Void) throws(GEOSError) {
        let h = context.handle
        guard let raw = GEOSGeom_createPointFromXY_r(h, point.x, point.y) else { throw context.error("STRtree query") }
        defer { GEOSGeom_destroy_r(h, raw) }
        try query(rawEnvelope: raw, body)
    }

    private func query(rawEnvelope: OpaquePointer, _ body: (Int) -> Void) throws(GEOSError) {
        context.clearError()
        // The closure travels through GEOS's `void *userdata` as a pointer to a stack copy:
        // no box, no allocation. It cannot escape: GEOS calls it only during this query.
        withoutActuallyEscaping(body) { body in
            withUnsafePointer(to: body) { sink in
                GEOSSTRtree_query_r(
                    context.handle, pointer, rawEnvelope,
                    { item, userData in
                        guard let userData else { return }
                        userData.assumingMemoryBound(to: ((Int) -> Void).self).pointee(GEOSSTRtree.id(item))
                    },
                    UnsafeMutableRawPointer(mutating: sink))
            }
        }
        if context.hasPendingError { throw context.error("STRtree query") }
    }
}

@available(*, unavailable, message: "An STRtree belongs to its context's thread or task")
extension GEOSSTRtree: Sendable {}
