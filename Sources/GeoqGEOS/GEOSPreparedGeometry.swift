import CGEOS
import GeoqCore

/// A geometry prepared for many predicate tests against it (`GEOSPrepare_r`): GEOS indexes
/// its segments on first use, so repeated `covers`/`contains`/`intersects` are fast.
///
/// Ownership: owns the `GEOSPreparedGeometry*` (freed with `GEOSPreparedGeom_destroy_r`) and
/// keeps ``base`` alive, which the prepared geometry reads without owning.
///
/// Thread rule: one thread or task at a time, like its context; GEOS builds the index lazily
/// inside predicate calls, so a prepared geometry must never be shared. Not `Sendable`.
///
/// GEOS 3.11 has no point-coordinate predicates (`GEOSPreparedContainsXY_r` is 3.12), so the
/// ``covers(_:)-(Point)`` convenience creates and frees a GEOS point per call.
public final class GEOSPreparedGeometry {
    /// The geometry that was prepared.
    public let base: GEOSGeometry
    let pointer: OpaquePointer

    /// Prepares `geometry` (the index itself is built by GEOS on the first predicate call).
    public init(_ geometry: GEOSGeometry) throws(GEOSError) {
        let context = geometry.context
        guard let prepared = GEOSPrepare_r(context.handle, geometry.pointer) else {
            throw context.error("prepare")
        }
        self.base = geometry
        self.pointer = prepared
    }

    deinit {
        GEOSPreparedGeom_destroy_r(base.context.handle, pointer)
    }

    /// The context of ``base``; `other` geometries must come from it.
    public var context: GEOSContext { base.context }

    /// True when no point of `other` lies outside the prepared geometry (edges included).
    public func covers(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        context.checkOwnership(other)
        return try context.predicateResult(
            GEOSPreparedCovers_r(context.handle, pointer, other.pointer), "preparedCovers")
    }

    /// True when `other` lies in the prepared geometry and their interiors meet (a point on
    /// the edge is not contained; see ``covers(_:)-(GEOSGeometry)``).
    public func contains(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        context.checkOwnership(other)
        return try context.predicateResult(
            GEOSPreparedContains_r(context.handle, pointer, other.pointer), "preparedContains")
    }

    /// True when `other` and the prepared geometry share at least one point.
    public func intersects(_ other: GEOSGeometry) throws(GEOSError) -> Bool {
        context.checkOwnership(other)
        return try context.predicateResult(
            GEOSPreparedIntersects_r(context.handle, pointer, other.pointer), "preparedIntersects")
    }

    /// `covers` for a position, without allocating a ``GEOSGeometry`` object: a GEOS point is
    /// created, tested and freed within the call.
    public func covers(_ point: Point) throws(GEOSError) -> Bool {
        let h = context.handle
        guard let raw = GEOSGeom_createPointFromXY_r(h, point.x, point.y) else {
            throw context.error("preparedCovers")
        }
        defer { GEOSGeom_destroy_r(h, raw) }
        return try context.predicateResult(GEOSPreparedCovers_r(h, pointer, raw), "preparedCovers")
    }
}

@available(*, unavailable, message: "A prepared geometry builds its index lazily; never share it")
extension GEOSPreparedGeometry: Sendable {}

extension GEOSContext {
    /// Prepares `geometry` for repeated predicate tests; see ``GEOSPreparedGeometry``.
    public func prepare(_ geometry: GEOSGeometry) throws(GEOSError) -> GEOSPreparedGeometry {
        checkOwnership(geometry)
        return try GEOSPreparedGeometry(geometry)
    }
}
