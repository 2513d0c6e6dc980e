/// A multipolygon prepared for repeated point-in-polygon and nearest-boundary queries: its
/// parts' edges in a y-stripe index (``StripeTable``) and all its edges in an R-tree.
///
/// Boundary semantics are those of ``RayCrossingCounter`` (GEOS's), so a point on an edge or
/// vertex is ``Location/boundary`` and is covered.
///
/// Within one part the even–odd rule is applied to shell and holes together; for a valid
/// polygon (holes inside the shell, rings not crossing) that is exactly the OGC rule of
/// ``Polygon/locate(_:)``. Between parts, the rule of ``MultiPolygon/locate(_:)`` applies.
///
/// Immutable once built; building is O(n log n) in the number of edges.
public struct IndexedPolygon: Sendable {
    /// The geometry this index was built from.
    public let shape: MultiPolygon
    public let boundingBox: BoundingBox
    @usableFromInline let stripes: StripeTable
    let edgeIndex: EdgeIndex

    public init(_ shape: MultiPolygon) {
        self.shape = shape
        self.boundingBox = shape.boundingBox
        self.stripes = StripeTable(shape.polygons)
        self.edgeIndex = EdgeIndex(shape)
    }

    public init(_ polygon: Polygon) { self.init(MultiPolygon([polygon])) }

    /// Number of edges over all rings.
    public var edgeCount: Int { edgeIndex.count }

    /// The boundary's edges (every ring's, in ring order), for nearest-point questions.
    public var boundary: EdgeIndex { edgeIndex }

    /// Where `p` lies: interior, on the boundary, or exterior.
    @inlinable
    public func locate(_ p: Point) -> Location {
        guard boundingBox.contains(p) else { return .exterior }
        return stripes.locate(p, parts: 0..<stripes.count)
    }

    /// True when `p` is inside or on the boundary (the "covers" predicate).
    @inlinable
    public func covers(_ p: Point) -> Bool {
        guard boundingBox.contains(p) else { return false }
        return stripes.covers(p, parts: 0..<stripes.count)
    }

    /// The point of the boundary (any ring of any part) nearest to `p` under `metric`, and
    /// its distance. For a point inside, this says how safely inside it is; for a point
    /// outside, it is the distance to the polygon.
    public func nearestBoundaryPoint(to p: Point, metric: LocalMetric) -> (point: Point, distance: Double) {
        edgeIndex.nearestBoundaryPoint(to: p, metric: metric)
    }

    /// Checks the stripe invariants; for tests.
    public func _checkInvariants() -> Bool { stripes.checkInvariants() }
}
