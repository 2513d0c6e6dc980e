import CGEOS
import GeoqCore

/// Distances from a position to a prepared geometry (planar, in the coordinates' units), as
/// GEOS measures them with the prepared geometry's segment index. Like
/// ``GEOSPreparedGeometry/covers(_:)-(Point)``, each call creates and frees a GEOS point
/// (GEOS 3.11 has no coordinate-only variant).
extension GEOSPreparedGeometry {
    /// The point of the prepared geometry nearest to `point` (`GEOSPreparedNearestPoints_r`).
    /// For a polygon and a point inside it that is the point itself: prepare the polygon's
    /// boundary to find the nearest edge point.
    public func nearestPoint(to point: Point) throws(GEOSError) -> Point {
        let h = context.handle
        guard let raw = GEOSGeom_createPointFromXY_r(h, point.x, point.y) else {
            throw context.error("preparedNearestPoints")
        }
        defer { GEOSGeom_destroy_r(h, raw) }
        guard let sequence = GEOSPreparedNearestPoints_r(h, pointer, raw) else {
            throw context.error("preparedNearestPoints")
        }
        defer { GEOSCoordSeq_destroy_r(h, sequence) }
        var x = 0.0
        var y = 0.0
        // The first point of the pair lies on the prepared geometry, the second on `point`.
        guard GEOSCoordSeq_getXY_r(h, sequence, 0, &x, &y) == 1 else { throw context.error("preparedNearestPoints") }
        return Point(x: x, y: y)
    }

    /// The distance from `point` to the prepared geometry (`GEOSPreparedDistance_r`): 0 for a
    /// point a polygon covers.
    public func distance(to point: Point) throws(GEOSError) -> Double {
        let h = context.handle
        guard let raw = GEOSGeom_createPointFromXY_r(h, point.x, point.y) else {
            throw context.error("preparedDistance")
        }
        defer { GEOSGeom_destroy_r(h, raw) }
        var d = 0.0
        guard GEOSPreparedDistance_r(h, pointer, raw, &d) == 1 else { throw context.error("preparedDistance") }
        return d
    }
}
