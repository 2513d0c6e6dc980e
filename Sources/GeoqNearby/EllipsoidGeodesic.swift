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

    /// - Parameter fallback: Karney's solver on WGS84 (in geoq, `Geodesic.wgs84` of GeoqPROJ);
    ///   its answers must be on the same ellipsoid, or long and short lines disagree.
    public init(fallback: any GeodesicSolving) {
        self.fallback = fallback
    }

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
        let end = EllipsoidPosition(latitude: b.latitude, longitude: b.longitude)
        let c2 = line.squaredChord(to: end)
        if c2 < ShortGeodesic.minimumChord * ShortGeodesic.minimumChord && c2.isFinite {
            // The chord falls short of the arc by about κ²c³/24: under 10⁻¹⁴ m here.
            return c2.squareRoot()
        }
        return line.distance(to: end, squaredChord: c2) ?? fallback.distanceAndBearing(from: a, to: b).distance
    }
}
