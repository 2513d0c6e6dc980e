import CGEOS

/// Binary predicates and measures, as thin wrappers over GEOS (planar, in the units of the
/// coordinates). Both geometries must come from this context.
///
/// Boundary policy, on purpose: a point on a polygon's edge is *covered* by it but not
/// *contained* in it (`contains` needs a common interior point). Sector look-ups that must
/// assign edge points use ``covers(_:_:)``.
///
/// Every function throws ``GEOSError`` when GEOS raises an exception (return value 2).
extension GEOSContext {
    /// True when no point of `b` lies outside `a` (boundary included).
    public func covers(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("covers", a, b, GEOSCovers_r)
    }

    /// True when no point of `a` lies outside `b`: `coveredBy(a, b) == covers(b, a)`.
    public func coveredBy(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("coveredBy", a, b, GEOSCoveredBy_r)
    }

    /// True when `b` lies in `a` and their interiors meet (a point on `a`'s edge is not contained).
    public func contains(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("contains", a, b, GEOSContains_r)
    }

    /// `within(a, b) == contains(b, a)`.
    public func within(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("within", a, b, GEOSWithin_r)
    }

    /// True when `a` and `b` share at least one point (boundaries included).
    public func intersects(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("intersects", a, b, GEOSIntersects_r)
    }

    /// True when `a` and `b` share no point: `disjoint == !intersects`.
    public func disjoint(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("disjoint", a, b, GEOSDisjoint_r)
    }

    /// True when `a` and `b` meet only on their boundaries.
    public func touches(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        try binaryPredicate("touches", a, b, GEOSTouches_r)
    }

    /// The DE-9IM intersection matrix of `a` and `b`, as 9 characters (`"0FFFFF212"`, ...).
    public func relate(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> String {
        checkOwnership(a)
        checkOwnership(b)
        guard let matrix = GEOSRelate_r(handle, a.pointer, b.pointer) else { throw error("relate") }
        return takeString(matrix)
    }

    /// The planar (Cartesian) distance between the closest points of `a` and `b`, in
    /// coordinate units: degrees for WGS84 data, so not metres.
    public func distance(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Double {
        checkOwnership(a)
        checkOwnership(b)
        var d = 0.0
        guard GEOSDistance_r(handle, a.pointer, b.pointer, &d) == 1 else { throw error("distance") }
        return d
    }

    /// Runs one of GEOS's binary predicates on two geometries of this context.
    private func binaryPredicate(
        _ name: String, _ a: GEOSGeometry, _ b: GEOSGeometry,
        _ predicate: (GEOSContextHandle_t?, OpaquePointer?, OpaquePointer?) -> CChar
    ) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(predicate(handle, a.pointer, b.pointer), name)
    }
}
