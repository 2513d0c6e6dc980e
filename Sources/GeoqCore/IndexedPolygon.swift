/// A multipolygon prepared for repeated point-in-polygon tests.
///
/// Each part's edges are bucketed into horizontal stripes of equal height: an edge is listed
/// in every stripe its y-range touches. A horizontal ray from a point can only cross edges
/// whose y-range contains the point's y, so a test reads one stripe (a few edges for
/// well-behaved data) instead of every edge: O(1) stripe lookup plus O(k) edges, where k is
/// the number of edges in that stripe. The layout is flat: stripe `s` of a part is the slice
/// `edges[offsets[s] ..< offsets[s + 1]]`, each edge stored by value next to its neighbours.
///
/// Boundary semantics are those of ``RayCrossingCounter`` (GEOS's), so a point on an edge or
/// vertex is ``Location/boundary`` and is covered.
///
/// Within one part the even–odd rule is applied to shell and holes together; for a valid
/// polygon (holes inside the shell, rings not crossing) that is exactly the OGC rule of
/// ``Polygon/locate(_:)``. Between parts, the multipolygon rule of
/// ``MultiPolygon/locate(_:)`` applies.
///
/// Immutable once built; building is O(n log n) in the number of edges (the sort of the
/// distance index) and takes O(n) memory for the stripes plus the edge R-tree used by
/// ``nearestBoundaryPoint(to:metric:)``.
public struct IndexedPolygon: Sendable {
    /// The geometry this index was built from.
    public let shape: MultiPolygon
    public let boundingBox: BoundingBox
    @usableFromInline let parts: [StripedPart]
    /// Every edge of every ring, for distance queries.
    @usableFromInline let edges: [Segment]
    @usableFromInline let edgeTree: PackedRTree

    public init(_ shape: MultiPolygon) {
        self.shape = shape
        self.boundingBox = shape.boundingBox
        self.parts = shape.polygons.map(StripedPart.init)
        var edges: [Segment] = []
        edges.reserveCapacity(shape.vertexCount)
        for polygon in shape.polygons {
            for ring in polygon.rings {
                for i in 1..<ring.points.count { edges.append(Segment(ring.points[i - 1], ring.points[i])) }
            }
        }
        self.edges = edges
        self.edgeTree = PackedRTree(boxes: edges.map(\.boundingBox))
    }

    public init(_ polygon: Polygon) { self.init(MultiPolygon([polygon])) }

    /// Number of edges over all rings.
    public var edgeCount: Int { edges.count }

    /// Where `p` lies: interior, on the boundary, or exterior.
    @inlinable
    public func locate(_ p: Point) -> Location {
        guard boundingBox.contains(p) else { return .exterior }
        return parts.withUnsafeBufferPointer { parts in
            if parts.count == 1 { return parts[0].locate(p) }
            var onBoundary = false
            for i in parts.indices {
                switch parts[i].locate(p) {
                case .interior: return .interior
                case .boundary: onBoundary = true
                case .exterior: break
                }
            }
            return onBoundary ? .boundary : .exterior
        }
    }

    /// True when `p` is inside or on the boundary (the "covers" predicate).
    @inlinable
    public func covers(_ p: Point) -> Bool {
        guard boundingBox.contains(p) else { return false }
        return parts.withUnsafeBufferPointer { parts in
            for i in parts.indices where parts[i].locate(p) != .exterior { return true }
            return false
        }
    }
}

/// One polygon part (shell and holes) with its edges bucketed into y-stripes.
///
/// Invariants: `offsets.count == stripeCount + 1`, `offsets` is non-decreasing,
/// `offsets.last == stripedEdges.count`, and every edge whose closed y-range meets stripe
/// `s`'s y-range appears in `stripedEdges[offsets[s] ..< offsets[s + 1]]`.
@usableFromInline
struct StripedPart: Sendable {
    @usableFromInline let boundingBox: BoundingBox
    @usableFromInline let stripeCount: Int
    /// Stripes per unit of y: stripe of `y` is `Int((y - minY) * stripesPerUnit)`, clamped.
    @usableFromInline let stripesPerUnit: Double
    @usableFromInline let offsets: [Int32]
    @usableFromInline let stripedEdges: [Segment]

    init(_ polygon: Polygon) {
        let box = polygon.boundingBox
        var edges: [Segment] = []
        for ring in polygon.rings {
            for i in 1..<ring.points.count { edges.append(Segment(ring.points[i - 1], ring.points[i])) }
        }
        // About one stripe per edge: a stripe then holds the edges crossing its y-line (two
        // for a convex shape) plus the few that start or end in it.
        let count = box.height > 0 ? Swift.max(1, Swift.min(edges.count, 1 << 20)) : 1
        let perUnit = box.height > 0 ? Double(count) / box.height : 0
        func stripe(_ y: Double) -> Int {
            let s = Int((y - box.minY) * perUnit)
            return s < 0 ? 0 : (s >= count ? count - 1 : s)
        }
        // Counting sort: first the size of each stripe, then the edges in place.
        var sizes = [Int32](repeating: 0, count: count + 1)
        for e in edges {
            let (lo, hi) = (stripe(Swift.min(e.start.y, e.end.y)), stripe(Swift.max(e.start.y, e.end.y)))
            for s in lo...hi { sizes[s + 1] += 1 }
        }
        for s in 0..<count { sizes[s + 1] += sizes[s] }
        var cursor = sizes
        var striped = [Segment](repeating: Segment(Point(x: 0, y: 0), Point(x: 0, y: 0)), count: Int(sizes[count]))
        for e in edges {
            let (lo, hi) = (stripe(Swift.min(e.start.y, e.end.y)), stripe(Swift.max(e.start.y, e.end.y)))
            for s in lo...hi {
                striped[Int(cursor[s])] = e
                cursor[s] += 1
            }
        }
        self.boundingBox = box
        self.stripeCount = count
        self.stripesPerUnit = perUnit
        self.offsets = sizes
        self.stripedEdges = striped
    }

    @inlinable
    func locate(_ p: Point) -> Location {
        guard boundingBox.contains(p) else { return .exterior }
        var s = Int((p.y - boundingBox.minY) * stripesPerUnit)
        if s < 0 { s = 0 } else if s >= stripeCount { s = stripeCount - 1 }
        let (lower, upper) = offsets.withUnsafeBufferPointer { (Int($0[s]), Int($0[s + 1])) }
        return stripedEdges.withUnsafeBufferPointer { edges in
            var counter = RayCrossingCounter(point: p)
            for i in lower..<upper {
                counter.count(edges[i].start, edges[i].end)
                if counter.isOnBoundary { return .boundary }
            }
            return counter.location
        }
    }

    /// Checks the invariants stated on the type; for tests.
    func checkInvariants() -> Bool {
        guard offsets.count == stripeCount + 1, offsets.last.map(Int.init) == stripedEdges.count else { return false }
        return zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

extension IndexedPolygon {
    /// Checks the stripe invariants of every part; for tests.
    public func _checkInvariants() -> Bool { parts.allSatisfy { $0.checkInvariants() } }
}
