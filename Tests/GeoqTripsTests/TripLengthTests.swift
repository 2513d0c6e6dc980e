import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import GeoqTrips
import Testing

/// Lengths against values known independently of the summation: step sums by construction
/// and the analytic perimeter of a regular polygon.
@Suite struct TripLengthTests {
    let g = Geodesic.wgs84

    @Test func meridianStepsSumToTheirLength() {
        let trip = Traces.trip(Traces.line(count: 100, step: 100, azimuth: 0))
        let r = trip.report(geodesic: g)
        #expect(abs(r.lengthMetres - 9_900) < 0.001)
        #expect(r.fixesRead == 100 && r.fixesKept == 100 && r.segments == 1)
        #expect(r.duration == 99)
        #expect(abs(r.averageSpeed! - 100) < 1e-5)
    }

    @Test func eastwardStepsSumToTheirLength() {
        // Re-aimed east at every fix: not one geodesic, but each step is a 100 m geodesic.
        let trip = Traces.trip(Traces.line(count: 100, step: 100, azimuth: 90))
        #expect(abs(trip.length(geodesic: g) - 9_900) < 0.001)
    }

    /// 360 fixes on a geodesic circle of radius 1 km, closed: the perimeter of a regular
    /// 360-gon, 2·n·r·sin(π/n) = 6,283.1056 m. On the ellipsoid the geodesic circle and its
    /// chords differ from the plane's by terms of order r²/R² ≈ 2.5e-8 (0.2 mm here): the
    /// tolerance is 1 mm.
    @Test func circlePerimeterIsTheRegularPolygons() {
        let (r, n) = (1_000.0, 360)
        let expected = 2 * Double(n) * r * sin(Double.pi / Double(n))
        let length = Traces.trip(Traces.circle(radius: r, count: n, closed: true)).length(geodesic: g)
        #expect(abs(length - expected) < 0.001, "length \(length), analytic \(expected)")
        #expect(abs(expected - 6_283.105_6) < 0.000_1)
        // Shorter than the arc 2πr by the factor sin(π/n)/(π/n): 3.2 cm on 6.3 km.
        #expect(length < 2 * Double.pi * r)
    }

    @Test func segmentsAreSummedSeparatelyNotBridged() {
        let a = Traces.line(count: 3, step: 100, azimuth: 0)
        let b = Traces.line(count: 2, step: 250, azimuth: 90, from: Point(latitude: 42.9, longitude: -1.5))
        let trip = Trip(trace: TripTrace(segments: [a, [], b]))
        let r = trip.report(geodesic: g)
        #expect(abs(r.lengthMetres - 450) < 0.001)
        #expect(r.segments == 2 && r.fixesRead == 5)
    }

    @Test func fewerThanTwoFixesHaveNoLength() {
        let r = Traces.trip(Array(Traces.line(count: 1, step: 100, azimuth: 0))).report(geodesic: g)
        #expect(r.lengthMetres == 0 && r.fixesKept == 1 && r.duration == nil && r.averageSpeed == nil)
    }
}

/// The distance filter (`minStep`) and the accuracy filter (`maxAccuracy`).
@Suite struct TripFilterTests {
    let g = Geodesic.wgs84

    /// The vehicle app's 500 m filter on a fix every 100 m over 10 km: fixes 0, 500, …, 10,000.
    @Test func distanceFilterOnAStraightLine() {
        let fixes = Traces.line(count: 101, step: 100, azimuth: 0)
        let r = Traces.trip(fixes, TripOptions(minStep: 500)).report(geodesic: g)
        #expect(r.fixesKept == 21)
        #expect(r.droppedForStep == 80)
        #expect(abs(r.lengthMetres - 10_000) < 0.001)
        #expect(r.fixesKept + r.droppedForStep + r.droppedForAccuracy == r.fixesRead)
        let kept = Traces.trip(fixes, TripOptions(minStep: 500)).keptSegments(geodesic: g)[0]
        #expect(kept.map(\.time) == stride(from: 0, through: 100, by: 5).map { fixes[$0].time })
    }

    /// The last fix of a segment is always kept: 10,200 m keeps 0, 500, …, 10,000 and 10,200.
    @Test func lastFixIsAlwaysKept() {
        let r = Traces.trip(Traces.line(count: 103, step: 100, azimuth: 0), TripOptions(minStep: 500))
            .report(geodesic: g)
        #expect(r.fixesKept == 22)
        #expect(abs(r.lengthMetres - 10_200) < 0.001)
    }

    /// On a bend of radius 2 km sampled every 0.1°, a 500 m filter keeps every 144th fix
    /// (chord 2r·sin(7.2°) = 501.3 m ≥ 500 > 2r·sin(7.15°)): 25 chords, 12,533.1 m, against the
    /// 3,600-gon's 12,566.4 m, 0.26 % shorter, as 1 − sin(θ/2)/(θ/2) with θ = 14.4° says.
    @Test func distanceFilterShortensACurveWithinTheBound() {
        let r = 2_000.0
        let fixes = Traces.circle(radius: r, count: 3_600, closed: true)
        let full = Traces.trip(fixes).report(geodesic: g)
        let filtered = Traces.trip(fixes, TripOptions(minStep: 500)).report(geodesic: g)
        let chord = 2 * r * sin(7.2 * Double.pi / 180)
        #expect(filtered.fixesKept == 26)
        #expect(abs(filtered.lengthMetres - 25 * chord) < 0.001, "\(filtered.lengthMetres) vs \(25 * chord)")
        #expect(abs(full.lengthMetres - 3_600 * 2 * r * sin(Double.pi / 3_600)) < 0.001)
        let shortfall = (full.lengthMetres - filtered.lengthMetres) / full.lengthMetres
        let theta = 14.4 * Double.pi / 180
        #expect(abs(shortfall - (1 - sin(theta / 2) / (theta / 2))) < 1e-4, "shortfall \(shortfall)")
        #expect(full.lengthMetres - filtered.lengthMetres < filtered.stepFilterBound)
    }

    /// The proven bounds 0 ≤ L − Lf < 2·minStep·dropped on seeded random jittery traces.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func distanceFilterBoundHoldsOnJitter(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var p = Traces.pamplona
        var fixes: [TripFix] = []
        for _ in 0..<400 {
            p = g.direct(from: p, azimuth: random.uniform(0...360), distance: random.uniform(0...300))
            fixes.append(TripFix(point: p))
        }
        let minStep = [100.0, 300, 500][Int(seed % 3)]
        let full = Traces.trip(fixes).report(geodesic: g)
        let filtered = Traces.trip(fixes, TripOptions(minStep: minStep)).report(geodesic: g)
        #expect(filtered.lengthMetres <= full.lengthMetres + 1e-6)
        #expect(full.lengthMetres - filtered.lengthMetres < filtered.stepFilterBound + 1e-6)
        #expect(filtered.droppedForStep > 0)
    }

    @Test func accuracyFilterDropsWorseAndInvalidFixes() {
        let accuracies: [Double?] = [5, 80, nil, 20, 200, -1, 50]
        let fixes = zip(Traces.line(count: 7, step: 100, azimuth: 0), accuracies).map { fix, a in
            var f = fix
            f.accuracy = a
            return f
        }
        let limited = Traces.trip(fixes, TripOptions(maxAccuracy: 50)).report(geodesic: g)
        #expect(limited.droppedForAccuracy == 3)  // 80, 200 and the invalid -1; 50 is not worse than 50
        #expect(limited.fixesKept == 4)
        #expect(abs(limited.lengthMetres - 600) < 0.001)  // fixes 0, 2, 3, 6
        let unlimited = Traces.trip(fixes).report(geodesic: g)
        #expect(unlimited.droppedForAccuracy == 1)  // negative accuracy: CoreLocation's invalid fix
    }

    @Test func accuracyFilterRunsBeforeTheDistanceFilter() {
        var fixes = Traces.line(count: 11, step: 100, azimuth: 0)
        fixes[5].accuracy = 1_000
        let r = Traces.trip(fixes, TripOptions(minStep: 500, maxAccuracy: 100)).report(geodesic: g)
        // Fix 5 is gone; fix 6 is the first ≥ 500 m from fix 0; then fix 10 (the last).
        #expect(r.droppedForAccuracy == 1 && r.fixesKept == 3 && r.droppedForStep == 7)
        #expect(abs(r.lengthMetres - 1_000) < 0.001)
    }
}
