import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import Testing

@testable import GeoqNearby

/// The fast path of nearest answers against Karney (PROJ's `geod_inverse`): within
/// ``ShortGeodesic/distanceError`` metres and ``ShortGeodesic/bearingError`` degrees.
@Suite struct ShortGeodesicTests {
    static func solve(_ from: Point, _ to: Point) -> (distance: Double, bearing: Double)? {
        let line = ShortGeodesic(latitude: from.latitude, longitude: from.longitude)
        let end = EllipsoidPosition(latitude: to.latitude, longitude: to.longitude)
        return line.distance(to: end).map { ($0, line.bearing(to: end)) }
    }

    /// The bearing's arctangent against the library's `atan2` taken into a full turn: random
    /// vectors of every length and direction, and the cases its selects decide (the axes, the
    /// diagonals, both sides of tan(π/8), signed zeros).
    @Test func azimuthIsAtan2InAFullTurn() {
        func expected(_ east: Double, _ north: Double) -> Double {
            let angle = atan2(east, north)
            return angle < 0 ? angle + 2 * .pi : angle
        }
        var cases: [(Double, Double)] = []
        let eighth = tan(Double.pi / 8)
        for (e, n) in [
            (0.0, 1.0), (1, 0), (0, -1), (-1, 0), (-0.0, 1), (-0.0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
            (eighth, 1), (eighth.nextUp, 1), (eighth.nextDown, 1), (1, eighth), (-1, -eighth.nextUp),
        ] {
            cases.append((e, n))
            cases.append((e * 1e5, n * 1e5))
        }
        var rng = SeededRandom(seed: 88)
        for _ in 0..<500_000 {
            let scale = pow(10, rng.uniform(-3...5))
            cases.append((rng.uniform(-1...1) * scale, rng.uniform(-1...1) * scale))
        }
        var worst = 0.0, outsideTheTurn = 0
        for (east, north) in cases {
            let azimuth = ShortGeodesic.azimuth(east: east, north: north)
            let difference = (azimuth - expected(east, north)).magnitude
            // 0 and 2π are one direction.
            worst = max(worst, min(difference, (difference - 2 * .pi).magnitude))
            if !(azimuth >= 0 && azimuth <= 2 * .pi) { outsideTheTurn += 1 }
        }
        #expect(worst <= 2e-15)
        #expect(outsideTheTurn == 0)
    }

    /// 200,000 random lines: starts uniform on the sphere (and 1 in 10 within a degree of a
    /// pole or on the antimeridian), directions uniform, lengths log-uniform from 1 m to 120 km.
    @Test func randomLinesAgreeWithKarney() {
        var rng = SeededRandom(seed: 2026)
        let wgs84 = Geodesic.wgs84
        var worstDistance = 0.0, worstBearing = 0.0, answered = 0
        for k in 0..<200_000 {
            var start = rng.pointOnSphere()
            switch k % 10 {
            case 0: start = Point(latitude: rng.uniform(89...89.999_9), longitude: start.longitude)
            case 1: start = Point(latitude: start.latitude, longitude: 179.999)
            default: break
            }
            let length = pow(10, rng.uniform(0...log10(120_000)))
            let end = wgs84.direct(from: start, azimuth: rng.uniform(-180...180), distance: length)
            let karney = wgs84.distanceAndBearing(from: start, to: end)
            guard let fast = Self.solve(start, end) else { continue }
            answered += 1
            worstDistance = max(worstDistance, abs(fast.distance - karney.distance))
            worstBearing = max(worstBearing, bearingDifference(fast.bearing, karney.bearing))
        }
        #expect(answered > 180_000)
        #expect(worstDistance <= ShortGeodesic.distanceError)
        #expect(worstBearing <= ShortGeodesic.bearingError)
    }

    /// GeographicLib's GeodTest-short, the independent reference: every line the short-line
    /// formula answers (chord from 1 m to 100 km) against the file's s12 and azi1.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ChordBoundTests.geodTest.path),
            "GeodTest-short.dat.gz not found"))
    func geodTestShortLinesAgree() throws {
        let text = try ChordBoundTests.geodTestText()
        var answered = 0
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ").map { Double($0)! }
            let start = Point(latitude: f[0], longitude: f[1]), end = Point(latitude: f[3], longitude: f[4])
            guard let fast = Self.solve(start, end) else { continue }
            answered += 1
            #expect(abs(fast.distance - f[6]) <= ShortGeodesic.distanceError, "\(line)")
            let azimuth = f[2] < 0 ? f[2] + 360 : f[2]
            #expect(bearingDifference(fast.bearing, azimuth) <= ShortGeodesic.bearingError, "\(line)")
        }
        #expect(answered > 1000, "the file has thousands of short lines")
    }
}
