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
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSCovers_r(handle, a.pointer, b.pointer), "covers")
    }

    /// True when no point of `a` lies outside `b`: `coveredBy(a, b) == covers(b, a)`.
    public func coveredBy(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSCoveredBy_r(handle, a.pointer, b.pointer), "coveredBy")
    }

    /// True when `b` lies in `a` and their interiors meet (a point on `a`'s edge is not contained).
    public func contains(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSContains_r(handle, a.pointer, b.pointer), "contains")
    }

    /// `within(a, b) == contains(b, a)`.
    public func within(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSWithin_r(handle, a.pointer, b.pointer), "within")
    }

    /// True when `a` and `b` share at least one point (boundaries included).
    public func intersects(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSIntersects_r(handle, a.pointer, b.pointer), "intersects")
    }

    /// True when `a` and `b` share no point: `disjoint == !intersects`.
    public func disjoint(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSDisjoint_r(handle, a.pointer, b.pointer), "disjoint")
    }

    /// True when `a` and `b` meet only on their boundaries.
    public func touches(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> Bool {
        checkOwnership(a)
        checkOwnership(b)
        return try predicateResult(GEOSTouches_r(handle, a.pointer, b.pointer), "touches")
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
}
