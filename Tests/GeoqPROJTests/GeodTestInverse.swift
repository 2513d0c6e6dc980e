import GeoqCore
import Testing

/// An inverse solver's answers on every line of GeodTest-short, judged as GeographicLib judges
/// its own: each distance within `distanceTolerance`; each azimuth within 10⁻⁶°, except where
/// the azimuths are ill-conditioned (nearly antipodal lines), where the error times the reduced
/// length m12 must stay under 10⁻⁶ m — and those lines must be the antipodal blocks' (8000 on).
/// Records an issue per line that fails; returns the worst errors for the suite to bound.
struct GeodTestInverse {
    var worstDistance = 0.0
    var worstAzimuth = 0.0
    var worstScaled = 0.0
    var illConditioned = 0

    init(
        distanceTolerance: Double,
        _ solve: (Point, Point) -> (distance: Double, initialAzimuth: Double, finalAzimuth: Double)
    ) {
        let angle = GeodesicTests.angleDifference
        for (i, l) in GeodesicTests.lines.enumerated() {
            let r = solve(Point(latitude: l.lat1, longitude: l.lon1), Point(latitude: l.lat2, longitude: l.lon2))
            let distanceError = abs(r.distance - l.s12)
            worstDistance = max(worstDistance, distanceError)
            #expect(distanceError <= distanceTolerance, "line \(i): s12 \(r.distance) vs \(l.s12)")

            let azimuthError = max(abs(angle(l.azi1, r.initialAzimuth)), abs(angle(l.azi2, r.finalAzimuth)))
            if azimuthError <= 1e-6 {
                worstAzimuth = max(worstAzimuth, azimuthError)
                continue
            }
            illConditioned += 1
            var scaled = azimuthError * .pi / 180 * abs(l.m12)
            if l.lat1 + l.lat2 == 0 {
                // Lines symmetric about the equator: either of the two mirrored geodesics is right.
                let mirrored = max(abs(angle(l.azi1, r.finalAzimuth)), abs(angle(l.azi2, r.initialAzimuth)))
                scaled = min(scaled, mirrored * .pi / 180 * abs(l.m12))
            }
            worstScaled = max(worstScaled, scaled)
            #expect(abs(l.m12) < 1, "line \(i): azimuth off by \(azimuthError)° where m12 = \(l.m12) m is not small")
            #expect(scaled < 1e-6, "line \(i): azimuth error × m12 = \(scaled) m")
            #expect(i >= 8_000, "line \(i) is outside the antipodal blocks")
        }
    }

    /// The worst errors, for the test's log.
    var summary: String {
        "worst s12 error \(worstDistance) m, worst azimuth error \(worstAzimuth)° "
            + "(\(illConditioned) ill-conditioned lines, worst |Δazi|·|m12| \(worstScaled) m)"
    }
}
