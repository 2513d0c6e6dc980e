import GeoqCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lower bound of the WGS84 geodesic distance from one query point to anything in a
/// longitude/latitude box: the fast path of ``PointIndex``'s best-first search, used only for
/// pruning (every answer's distance is Karney's).
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
/// micrometre more off every bound, which keeps each bound strictly below the exact distance
/// (ties between equal exact distances then come out in index order; see
/// ``PointIndex/nearest(to:limit:within:where:geodesic:)``). The bound is tight within about
/// 0.6 % along meridians near the equator and looser (up to 1 %) elsewhere. The test suite
/// checks `s12 ≥ radius · σ` on GeographicLib's 10,000 GeodTest-short geodesics.
///
/// **The box.** The nearest point of a box [φ₁, φ₂] × [λ₁, λ₂] to q = (φ, λ) on the sphere:
/// - when λ lies in [λ₁, λ₂] (modulo 360°), the latitude difference to [φ₁, φ₂] (σ ≥ |Δφ|
///   always, and the box holds the meridian of q);
/// - otherwise a point of one of the two meridian edges (moving a point's longitude towards
///   q's, the shorter way round, shortens its distance): the foot of the perpendicular from q
///   on the edge's meridian when it falls inside [φ₁, φ₂], else one of the edge's ends
///   (computed through cos σ, with a cushion for rounding, see ``cosineCushion``).
/// Longitude differences go through `cos Δλ` and `sin²(Δλ / 2)` (haversine), which have period
/// 360°, so a box at longitude 179.9 and a query at -179.9 are 0.2° apart, not 359.8°. Boxes around a
/// pole need nothing special: every meridian edge reaches the pole's neighbourhood, and a
/// query at a pole is at the same distance from all of a parallel's points.
///
/// A degenerate box (a single point, as every item of a ``PointIndex`` is) takes the fast path:
/// one haversine.
struct SphericalBound {
    /// Metres per radian of central angle that no WGS84 geodesic undercuts: b²/a rounded down.
    static let radius = 6_335_000.0
    /// Metres taken off every bound so that it stays strictly below the exact distance.
    static let slack = 1e-6

    /// Added to a box's largest cos σ before acos, so that rounding cannot raise the bound.
    static let cosineCushion = 2e-15

    static let radiansPerDegree = Double.pi / 180

    let latitude: Double
    let longitude: Double
    let cosLatitude: Double
    let sinLatitude: Double

    init(query: Point) {
        latitude = query.y * Self.radiansPerDegree
        longitude = query.x * Self.radiansPerDegree
        cosLatitude = cos(latitude)
        sinLatitude = sin(latitude)
    }

    /// The haversine of the central angle from the query to (φ, λ) in radians, with cos φ given.
    @inline(__always)
    func haversine(latitude phi: Double, cosLatitude cosPhi: Double, longitude lambda: Double) -> Double {
        let sinHalfDLat = sin((phi - latitude) / 2)
        let sinHalfDLon = sin((lambda - longitude) / 2)
        return sinHalfDLat * sinHalfDLat + cosLatitude * cosPhi * sinHalfDLon * sinHalfDLon
    }

    /// Metres from a haversine: R · 2 asin(√h), less the slack.
    @inline(__always)
    static func metres(haversine h: Double) -> Double {
        radius * 2 * asin(Swift.min(1, Swift.max(0, h)).squareRoot()) - slack
    }

    /// A lower bound of the geodesic distance in metres from the query to the point
    /// (longitude `x`, latitude `y` in degrees): the fast path.
    @inline(__always)
    func distance(x: Double, y: Double) -> Double {
        let phi = y * Self.radiansPerDegree
        return Self.metres(
            haversine: haversine(latitude: phi, cosLatitude: cos(phi), longitude: x * Self.radiansPerDegree))
    }

    /// A lower bound of the geodesic distance in metres from the query to every point of
    /// `box` (x = longitude, y = latitude, degrees; longitudes within [-180, 180]). Infinite
    /// for an empty box.
    func distance(to box: BoundingBox) -> Double {
        if box.isEmpty { return .infinity }
        if box.minX == box.maxX && box.minY == box.maxY { return distance(x: box.minX, y: box.minY) }
        let phi1 = box.minY * Self.radiansPerDegree
        let phi2 = box.maxY * Self.radiansPerDegree
        let lambda1 = box.minX * Self.radiansPerDegree
        let lambda2 = box.maxX * Self.radiansPerDegree
        let twoPi = 2 * Double.pi
        if (lambda1...lambda2).contains(longitude) || (lambda1...lambda2).contains(longitude + twoPi)
            || (lambda1...lambda2).contains(longitude - twoPi)
        {
            // The box holds q's meridian: the latitude difference.
            let dLat = Swift.max(phi1 - latitude, 0, latitude - phi2)
            return Self.radius * dLat - Self.slack
        }
        // On the meridian of an edge, cos σ(φ) = sin φq sin φ + cos φq cos Δλ cos φ =: f(φ) is
        // largest at the foot of the perpendicular from q, where it equals
        // √(sin² φq + cos² φq cos² Δλ); the foot lies inside the edge exactly when f rises at
        // φ₁ and falls at φ₂. Otherwise the nearer end of the edge is the nearest point.
        let sin1 = sin(phi1), cos1 = cos(phi1), sin2 = sin(phi2), cos2 = cos(phi2)
        func largestCos(onMeridian lambda: Double) -> Double {
            let k = cosLatitude * cos(lambda - longitude)
            if sinLatitude * cos1 - k * sin1 > 0 && sinLatitude * cos2 - k * sin2 < 0 {
                return (sinLatitude * sinLatitude + k * k).squareRoot()
            }
            return Swift.max(sinLatitude * sin1 + k * cos1, sinLatitude * sin2 + k * cos2)
        }
        let largestCos = Swift.max(largestCos(onMeridian: lambda1), largestCos(onMeridian: lambda2))
        // acos is ill-conditioned near 0: the cushion covers f's rounding (a few units of
        // 10⁻¹⁶), at the price of up to about 0.4 m of looseness for boxes right next to q.
        return Self.radius * acos(Swift.min(1, largestCos + Self.cosineCushion)) - Self.slack
    }
}
