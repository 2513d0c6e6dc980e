#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long a WGS84 geodesic can be, given the straight line between its ends: with the chord
/// itself as the lower bound, what lets ``PointIndex`` rank points by a few multiplications and
/// solve a geodesic only for the few that can be among the answer.
///
/// **Lower bound.** The straight line is the shortest curve: s ≥ c for the geodesic length s
/// and the chord c between the same two points.
///
/// **Upper bound.** A geodesic has no curvature within the surface, so its curvature as a
/// space curve is the surface's normal curvature along it, at most the largest principal
/// curvature κ = 1 / r with r = b² / a = 6,335,439.3 m (WGS84's meridional radius at the
/// equator, its smallest radius of curvature). For any curve of length L with curvature at most
/// κ, take the unit tangent u at its midpoint: the tangent at arc distance d from the midpoint
/// has turned from u by at most κ·d, so if κL/2 ≤ π/2 the chord is at least ∫ cos(κ·|d|) dd =
/// (2/κ) sin(κL/2). Inverting, L ≤ 2r · asin(c / 2r). The condition κL ≤ π (L ≤ 19,903 km)
/// holds for every chord up to ``longestChord`` = 10,000 km: the map (x, y, z) ↦ (x, y, z·b/a)
/// takes the sphere of radius a onto the ellipsoid and shortens every curve, and the two
/// points' preimages are at most (a/b)·c = 10,034 km apart, a great-circle arc of at most
/// 11,545 km, so the shortest geodesic is no longer than that.
///
/// Up to t = c / 2r = 0.05 (c = 634 km) the bound needs no trigonometry: asin t = t + t³/6 +
/// 3t⁵/40 + ... has every coefficient after the first at most 1/6, so asin t ≤ t + t³ / (6 (1 −
/// t²)) ≤ t + t³ / (6 · 0.9975), within 0.4 m of the circle there. Its excess over the chord, about c³/(24 r²), is 1 mm
/// at 10 km, 1 m at 100 km and 1 km at 1,000 km: after the first few hits the search admits
/// little beyond the answer.
///
/// The test suite checks c ≤ s ≤ ``longestGeodesic(chord:)`` on GeographicLib's GeodTest-short
/// and along the equatorial meridian, where the curvature is largest.
enum ChordBound {
    /// b²/a of WGS84 rounded down (a smaller radius only loosens the bound).
    static let radius = 6_335_000.0
    /// The longest chord, in metres, for which the bound is proven; beyond it, none is given.
    static let longestChord = 10_000_000.0

    /// The longest a WGS84 geodesic whose ends are `chord` metres apart can be, in metres
    /// (infinity beyond ``longestChord``), with a margin for rounding: 10⁻¹² of the length and
    /// a micrometre (cartesian coordinates near 6,400 km carry about a nanometre).
    @inline(__always)
    static func longestGeodesic(chord: Double) -> Double {
        guard chord <= longestChord else { return .infinity }
        let t = chord / (2 * radius)
        // 1 / (1 − t²) ≤ 1 / 0.9975 for t ≤ 0.05: a constant in place of a division.
        let arc = t <= 0.05 ? chord * (1 + t * t * (1 / (6 * 0.9975))) : 2 * radius * asin(t)
        return arc * (1 + 1e-12) + 1e-6
    }
}
