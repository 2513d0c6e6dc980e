/// Exact distances and bearings on the WGS84 ellipsoid, as the domain modules need them.
///
/// The core states the contract; the PROJ adapter provides the implementation (Karney's
/// algorithm, `geod_inverse`), so modules on the core stay free of C libraries and tests can
/// substitute a solver.
public protocol GeodesicSolving: Sendable {
    /// Distance in metres along the geodesic from `a` to `b`, and the initial bearing at `a` in
    /// degrees clockwise from true north, in [0, 360).
    func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double)
}
