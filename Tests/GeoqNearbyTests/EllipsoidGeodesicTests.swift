import Foundation
import GeoqCore
import GeoqNearby
import GeoqPROJ
import GeoqTestSupport
import Testing

/// The public fast solver against Karney (PROJ's `geod_inverse`, which is also its fallback
/// here): the closed form within 0.1 mm under 100 km, the fallback's own answer beyond.
@Suite struct EllipsoidGeodesicTests {
    static let fast = EllipsoidGeodesic(fallback: Geodesic.wgs84)

    /// 100,000 random lines, starts uniform on the sphere, directions uniform, lengths
    /// log-uniform from 1 cm to 1,000 km: short and long, answered by either path.
    @Test func randomLinesAgreeWithKarney() {
        var rng = SeededRandom(seed: 77)
        let wgs84 = Geodesic.wgs84
        var worstShort = 0.0, worstLong = 0.0, worstBearing = 0.0
        for _ in 0..<100_000 {
            let start = rng.pointOnSphere()
            let length = pow(10, rng.uniform(-2...6))
            let end = wgs84.direct(from: start, azimuth: rng.uniform(-180...180), distance: length)
            let karney = wgs84.distanceAndBearing(from: start, to: end)
            let distance = Self.fast.distance(from: start, to: end)
            let both = Self.fast.distanceAndBearing(from: start, to: end)
            // The distance alone builds the end point by another route: nanometres apart.
            #expect(abs(both.distance - distance) <= 1e-6 || length < 1.01, "\(start) → \(end)")
            if length < 99_000 {
                worstShort = max(worstShort, abs(distance - karney.distance))
            } else {
                worstLong = max(worstLong, abs(distance - karney.distance))
            }
            worstBearing = max(worstBearing, bearingDifference(both.bearing, karney.bearing))
        }
        #expect(worstShort <= 1e-4)
        // Beyond 100 km of chord the answer is the fallback's own (the same Karney).
        #expect(worstLong <= 1e-4)
        #expect(worstBearing <= 5e-7)
    }

    /// Under a metre the distance is the chord (the arc is longer by under 10⁻¹⁴ m), and the
    /// same point is 0 m away; the bearing of such lines comes from the fallback.
    @Test func shortestLinesAndTheSamePoint() {
        let pamplona = Point(latitude: 42.81, longitude: -1.64)
        #expect(Self.fast.distance(from: pamplona, to: pamplona) == 0)
        for metres in [0.001, 0.05, 0.3, 0.999] {
            let end = Geodesic.wgs84.direct(from: pamplona, azimuth: 37, distance: metres)
            let karney = Geodesic.wgs84.distanceAndBearing(from: pamplona, to: end)
            #expect(abs(Self.fast.distance(from: pamplona, to: end) - metres) <= 1e-9)
            #expect(Self.fast.distanceAndBearing(from: pamplona, to: end) == karney)
        }
    }

    /// Lines from a pole and across the antimeridian: the pole goes to the fallback, the
    /// antimeridian is nothing special for cartesian coordinates.
    @Test func poleAndAntimeridian() {
        let pole = Point(latitude: 90, longitude: 0)
        let near = Point(latitude: 89.9, longitude: 45)
        #expect(
            Self.fast.distanceAndBearing(from: pole, to: near)
                == Geodesic.wgs84.distanceAndBearing(from: pole, to: near))
        let west = Point(latitude: -16.5, longitude: 179.99), east = Point(latitude: -16.49, longitude: -179.98)
        let karney = Geodesic.wgs84.distanceAndBearing(from: west, to: east)
        #expect(abs(Self.fast.distance(from: west, to: east) - karney.distance) <= 1e-4)
        #expect(
            bearingDifference(Self.fast.distanceAndBearing(from: west, to: east).bearing, karney.bearing) <= 5e-7)
    }
}
