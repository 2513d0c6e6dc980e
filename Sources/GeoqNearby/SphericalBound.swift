import GeoqCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lower bound of the WGS84 geodesic distance between two points: what lets ``PointIndex``
/// prune boxes of its tree without computing any distance inside them.
///
/// **The bound.** Let σ(p, q) be the central angle between p and q on the unit sphere with
/// their *geodetic* latitudes and longitudes, that is the angle between the ellipsoid's
/// surface normals at p and q. Along any curve on the ellipsoid the normal turns at a rate of
/// at most the largest principal curvature, 1 / R_min, where R_min = b² / a = 6,335,439.3 m is
/// the smallest radius of curvature of WGS84 (the meridional one at the equator). Integrating,
/// the normal turns by at most s / R_min along a curve of length s, and it must turn by at
/// least σ(p, q) to get from p to q; so every curve from p to q, the geodesic included, is at
/// least R_min · σ(p, q) long. ``radius`` is R_min rounded down to 6,335,000 m (a relative
/// margin of 7·10⁻⁵ that absorbs rounding in the trigonometry), and ``slack`` takes one
/// micrometre more off. The bound is tight within about 0.6 % along meridians near the equator
/// and looser (up to 1 %) elsewhere. The test suite checks `s12 ≥ radius · σ` on
/// GeographicLib's 10,000 GeodTest-short geodesics.
///
/// The index works with the chord between unit normals, 2 sin(σ/2), which grows with σ and
/// needs no trigonometry (see `NormalTree` and ``PointIndex/squaredChordBound(metres:)``); this
/// type states the bound in metres, by haversine.
struct SphericalBound {
    /// Metres per radian of central angle that no WGS84 geodesic undercuts: b²/a rounded down.
    static let radius = 6_335_000.0
    /// Metres taken off every bound so that it stays strictly below the exact distance.
    static let slack = 1e-6

    static let radiansPerDegree = Double.pi / 180

    let latitude: Double
    let longitude: Double
    let cosLatitude: Double

    init(query: Point) {
        latitude = query.y * Self.radiansPerDegree
        longitude = query.x * Self.radiansPerDegree
        cosLatitude = cos(latitude)
    }

    /// A lower bound of the geodesic distance in metres from the query to the point
    /// (longitude `x`, latitude `y` in degrees): R · 2 asin(√haversine), less the slack.
    func distance(x: Double, y: Double) -> Double {
        let phi = y * Self.radiansPerDegree
        let sinHalfDLat = sin((phi - latitude) / 2)
        let sinHalfDLon = sin((x * Self.radiansPerDegree - longitude) / 2)
        let h = sinHalfDLat * sinHalfDLat + cosLatitude * cos(phi) * sinHalfDLon * sinHalfDLon
        return Self.radius * 2 * asin(Swift.min(1, Swift.max(0, h)).squareRoot()) - Self.slack
    }
}
