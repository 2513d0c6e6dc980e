import GeoqCore

/// Geodesics on the WGS84 ellipsoid, fast for short lines: ``ShortGeodesic``'s closed form
/// (within 0.1 mm of Karney's distance, 5·10⁻⁷° of its bearing) when the straight line between
/// the ends is at most 100 km, and the `fallback` solver given at initialisation (Karney's
/// algorithm) for every other line.
///
/// What the fallback answers: lines whose chord is longer than 100 km, lines that start at a
/// pole, and (for ``distanceAndBearing(from:to:)`` only) lines shorter than 1 m, whose bearing
/// the cartesian coordinates cannot resolve. ``distance(from:to:)`` answers those short lines
/// itself: under 1 m the chord and the geodesic differ by less than 10⁻¹⁴ m.
///
/// A plain value; `Sendable` because the fallback is.
public struct EllipsoidGeodesic: GeodesicSolving {
    /// The solver for lines the closed form does not answer (Karney's, on WGS84).
    public let fallback: any GeodesicSolving

    /// - Parameter fallback: Karney's solver on WGS84 (in geoq, ``KarneyGeodesic/wgs84``);
    ///   its answers must be on the same ellipsoid, or long and short lines disagree.
    public init(fallback: any GeodesicSolving) {
        self.fallback = fallback
    }

    /// The geodesic of every sector answer, the command's and the service's alike: geoq's own
    /// Karney solver (``KarneyGeodesic/wgs84``) behind the closed form.
    public static let wgs84 = EllipsoidGeodesic(fallback: KarneyGeodesic.wgs84)

    public func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double) {
        let line = ShortGeodesic(latitude: a.latitude, longitude: a.longitude)
        let end = EllipsoidPosition(latitude: b.latitude, longitude: b.longitude)
        guard let distance = line.distance(to: end) else { return fallback.distanceAndBearing(from: a, to: b) }
        return (distance, line.bearing(to: end))
    }

    /// The distance in metres along the geodesic from `a` to `b` (the first half of
    /// ``distanceAndBearing(from:to:)``, without the bearing's cost).
    public func distance(from a: Point, to b: Point) -> Double {
        let line = ShortGeodesic(latitude: a.latitude, longitude: a.longitude)
        let end = Self.position(of: b, near: a, on: line)
        let c2 = line.squaredChord(to: end)
        if c2 < ShortGeodesic.minimumChord * ShortGeodesic.minimumChord && c2.isFinite {
            // The chord falls short of the arc by about κ²c³/24: under 10⁻¹⁴ m here.
            return c2.squareRoot()
        }
        return line.distance(to: end, squaredChord: c2) ?? fallback.distanceAndBearing(from: a, to: b).distance
    }

    /// The prepared position of `b`, a point near the start `a` of `line`: the start's normal
    /// plus its small change, from the start's sines and cosines (which `line` holds: sin φ in
    /// the normal's z, cos λ and −sin λ in the east vector) and short series for the sines and
    /// cosines of the differences of latitude and longitude. Four library calls fewer than
    /// ``ShortGeodesic``'s own, within a few units in the last place of it (nanometres), and
    /// exactly the start for the start itself. Far points, and starts at a pole (where `line`
    /// has no east), take the library's sines and cosines.
    @inline(__always)
    static func position(of b: Point, near a: Point, on line: ShortGeodesic) -> EllipsoidPosition {
        let dPhi = (b.latitude - a.latitude) * .pi / 180
        let dLambda = (b.longitude - a.longitude) * .pi / 180
        let n = line.normal
        guard dPhi.magnitude <= 0.05, dLambda.magnitude <= 0.05, n.z.magnitude < 1 - 1e-12 else {
            return EllipsoidPosition(latitude: b.latitude, longitude: b.longitude)
        }
        let sinPhi = n.z, cosPhi = (n.x * n.x + n.y * n.y).squareRoot()
        let cosLambda = line.east.y, sinLambda = -line.east.x
        let (sinDPhi, cosDPhiLessOne) = smallAngleSineCosine(dPhi)
        let (sinDLambda, cosDLambdaLessOne) = smallAngleSineCosine(dLambda)
        // The changes of sin φ, cos φ, cos λ and sin λ, each small and without cancellation.
        let dSinPhi = sinPhi * cosDPhiLessOne + cosPhi * sinDPhi
        let dCosPhi = cosPhi * cosDPhiLessOne - sinPhi * sinDPhi
        let dCosLambda = cosLambda * cosDLambdaLessOne - sinLambda * sinDLambda
        let dSinLambda = sinLambda * cosDLambdaLessOne + cosLambda * sinDLambda
        let normal = SIMD4(
            n.x + cosPhi * dCosLambda + dCosPhi * (cosLambda + dCosLambda),
            n.y + cosPhi * dSinLambda + dCosPhi * (sinLambda + dSinLambda),
            n.z + dSinPhi, 0)
        return EllipsoidPosition(normal: normal)
    }

    /// sin x and cos x − 1 for |x| ≤ 0.05 by their Taylor series, to terms below 10⁻²⁰.
    @inline(__always)
    static func smallAngleSineCosine(_ x: Double) -> (sine: Double, cosineLessOne: Double) {
        let x2 = x * x
        let sine = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
        let cosineLessOne = -x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * (1 - x2 / 90))))
        return (sine, cosineLessOne)
    }
}
