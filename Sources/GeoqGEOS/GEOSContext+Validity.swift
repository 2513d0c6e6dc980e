import CGEOS
import GeoqCore

/// Whether a geometry is valid in the OGC Simple Features sense, and if not, why and where.
public enum Validity: Hashable, Sendable {
    case valid
    /// `reason` is GEOS's text (e.g. `"Self-intersection"`, `"Hole lies outside shell"`);
    /// `location` is a position near the problem, when GEOS gives one.
    case invalid(reason: String, location: Point?)

    public var isValid: Bool { self == .valid }
}

extension GEOSContext {
    /// Checks `geometry` with `GEOSisValidDetail_r` (the reason string and location point that
    /// GEOS allocates are copied and freed here).
    ///
    /// If GEOS raises an exception instead of answering, the geometry cannot be shown valid:
    /// the result is `.invalid` with a reason that starts with `"GEOS could not check validity: "`
    /// followed by GEOS's message, and no location.
    public func validity(of geometry: GEOSGeometry) -> Validity {
        checkOwnership(geometry)
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let result = GEOSisValidDetail_r(handle, geometry.pointer, 0, &reason, &location)
        // Take ownership of whatever GEOS returned before deciding anything.
        let reasonText = reason.map { takeString($0) }
        var position: Point?
        if let location {
            var x = 0.0
            var y = 0.0
            if GEOSisEmpty_r(handle, location) == 0, GEOSGeomGetX_r(handle, location, &x) == 1,
                GEOSGeomGetY_r(handle, location, &y) == 1
            {
                position = Point(x: x, y: y)
            }
            GEOSGeom_destroy_r(handle, location)
        }
        switch result {
        case 1: return .valid
        case 0: return .invalid(reason: reasonText ?? "invalid (GEOS gave no reason)", location: position)
        default:
            return .invalid(reason: "GEOS could not check validity: \(error("validity").message)", location: nil)
        }
    }

    /// A valid geometry covering the same area as `geometry` (`GEOSMakeValid_r`, the
    /// "linework" method). The result may be of another type, e.g. a bow-tie polygon becomes
    /// a multipolygon, and a collapsed one a GeometryCollection or lower-dimension geometry.
    public func makeValid(_ geometry: GEOSGeometry) throws(GEOSError) -> GEOSGeometry {
        checkOwnership(geometry)
        guard let raw = GEOSMakeValid_r(handle, geometry.pointer) else { throw error("makeValid") }
        return GEOSGeometry(owning: raw, context: self)
    }

    /// A valid polygonal geometry covering the same area as a polygonal `geometry`, by GEOS's
    /// "structure" method (GEOS 3.10+) with collapsed parts dropped: a bow tie becomes two
    /// triangles, a zero-area sliver disappears, and the result is always a (multi)polygon or
    /// empty. This is what `--on-invalid repair` uses, because a sector layer needs areas.
    public func makeValidPolygonal(_ geometry: GEOSGeometry) throws(GEOSError) -> GEOSGeometry {
        checkOwnership(geometry)
        guard let params = GEOSMakeValidParams_create_r(handle) else { throw error("makeValid") }
        defer { GEOSMakeValidParams_destroy_r(handle, params) }
        guard GEOSMakeValidParams_setMethod_r(handle, params, GEOS_MAKE_VALID_STRUCTURE) == 1,
            GEOSMakeValidParams_setKeepCollapsed_r(handle, params, 0) == 1,
            let raw = GEOSMakeValidWithParams_r(handle, geometry.pointer, params)
        else { throw error("makeValid") }
        return GEOSGeometry(owning: raw, context: self)
    }
}
