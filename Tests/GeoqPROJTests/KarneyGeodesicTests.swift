import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import Testing

/// geoq's own Karney inverse (``KarneyGeodesic``) checked as PROJ's is in ``GeodesicTests``:
/// against GeographicLib's GeodTest-short (exact values computed in high precision), and
/// against PROJ's `geod_inverse` on seeded random lines and the special cases of the algorithm
/// (meridional, equatorial, polar, coincident and nearly antipodal lines).
@Suite struct KarneyGeodesicTests {
    /// Karney's stated accuracy of the inverse solution on WGS84, in metres.
    static let karneyAccuracy = 15e-9

    @Test func inverseMatchesGeographicLib() throws {
        try #require(GeodesicTests.lines.count == 10_000)
        let check = GeodTestInverse(distanceTolerance: Self.karneyAccuracy) { a, b in
            let r = KarneyGeodesic.wgs84.inverse(from: a, to: b)
            return (r.distance, r.initialAzimuth, r.finalAzimuth)
        }
        // All in the antipodal blocks, each within GeographicLib's own bound; 1,123 here
        // (PROJ: 1,114 — the two differ by rounding where m12 vanishes).
        #expect(check.illConditioned <= 1_123)
        print("Karney inverse (Swift): " + check.summary)
    }

    /// The bearing of ``GeodesicSolving`` is the initial azimuth in [0, 360).
    @Test func bearingIsTheInitialAzimuthInAFullTurn() {
        let lines = GeodesicTests.lines
        let geodesic = KarneyGeodesic.wgs84
        for l in lines.prefix(2_000) {
            let a = Point(latitude: l.lat1, longitude: l.lon1), b = Point(latitude: l.lat2, longitude: l.lon2)
            let r = geodesic.distanceAndBearing(from: a, to: b)
            let azimuth = geodesic.inverse(from: a, to: b).initialAzimuth
            #expect((0..<360).contains(r.bearing))
            #expect(abs(GeodesicTests.angleDifference(azimuth, r.bearing)) == 0)
        }
    }

    /// Same lines through both implementations: distances within a nanometre-scale bound,
    /// azimuths within 10⁻⁹° wherever they are well-conditioned.
    static func expectAgreement(_ a: Point, _ b: Point, _ what: String, worst: inout (Double, Double)) {
        let mine = KarneyGeodesic.wgs84.inverse(from: a, to: b)
        let proj = Geodesic.wgs84.inverse(from: a, to: b)
        let distanceError = abs(mine.distance - proj.distance)
        worst.0 = max(worst.0, distanceError)
        #expect(distanceError <= karneyAccuracy, "\(what) \(a) → \(b): \(mine.distance) vs PROJ \(proj.distance)")
        let azimuthError = abs(GeodesicTests.angleDifference(proj.initialAzimuth, mine.initialAzimuth))
        let reduced = abs(reducedLength(a, b))
        // Where the reduced length vanishes (conjugate, nearly antipodal points) the azimuth is
        // ill-conditioned: judge the sideways displacement it causes, as GeographicLib does.
        if reduced > 1_000 {
            worst.1 = max(worst.1, azimuthError)
            #expect(
                azimuthError <= 1e-9, "\(what) \(a) → \(b): azimuth \(mine.initialAzimuth) vs \(proj.initialAzimuth)")
        } else {
            #expect(
                azimuthError * .pi / 180 * reduced < 1e-6,
                "\(what) \(a) → \(b): azimuth \(mine.initialAzimuth) vs \(proj.initialAzimuth), m12 \(reduced)")
        }
    }

    /// m12 from the published definition by differences of the direct problem (PROJ), enough
    /// to tell conjugate points.
    static func reducedLength(_ a: Point, _ b: Point) -> Double {
        let g = Geodesic.wgs84
        let line = g.inverse(from: a, to: b)
        let delta = 1e-6
        let turned = g.direct(from: a, azimuth: line.initialAzimuth + delta, distance: line.distance)
        return g.inverse(from: b, to: turned).distance / (delta * .pi / 180)
    }

    @Test func agreesWithPROJOnRandomLines() {
        var random = SeededRandom(seed: 2013)
        var worst = (0.0, 0.0)
        for _ in 0..<20_000 {
            let a = Point(latitude: asin(random.uniform(-1...1)) * 180 / .pi, longitude: random.uniform(-180...180))
            let b = Point(latitude: asin(random.uniform(-1...1)) * 180 / .pi, longitude: random.uniform(-180...180))
            Self.expectAgreement(a, b, "random", worst: &worst)
        }
        print("Karney inverse (Swift) vs PROJ, random lines: worst \(worst.0) m, \(worst.1)°")
    }

    /// The last Newton step taken by correction (``KarneyGeodesic/solve(_:_:)``) against the
    /// same step taken by one more evaluation of the line, as geodesic.c takes it: the same
    /// azimuths bit for bit (the step's sine and cosine are the step and 1 in doubles), lengths
    /// within 4 ε (a + s) of each other (5.7 nm at 0 to 23 nm at 20,000 km), on GeodTest-short
    /// and on random lines. The correction leaves out terms of order v² a (under 10⁻¹¹ m);
    /// what is left is rounding: the residual v comes from arctangents good to about ε, which
    /// moves the corrected length by about a ε (1.4 nm), and σ₁₂ of either rounds by about
    /// ε σ₁₂, s ε in length. The correction is taken on most random lines (their lengths are
    /// not bit for bit the evaluated ones). GeodTest-short's own check (15 nm) is
    /// ``inverseMatchesGeographicLib()``.
    @Test func lastStepByCorrectionEqualsAnotherEvaluation() {
        let geodesic = KarneyGeodesic.wgs84
        var random = SeededRandom(seed: 2024)
        let randomLines = (0..<100_000).map { _ in
            (
                Point(latitude: asin(random.uniform(-1...1)) * 180 / .pi, longitude: random.uniform(-180...180)),
                Point(latitude: asin(random.uniform(-1...1)) * 180 / .pi, longitude: random.uniform(-180...180))
            )
        }
        let testLines = GeodesicTests.lines.map {
            (Point(latitude: $0.lat1, longitude: $0.lon1), Point(latitude: $0.lat2, longitude: $0.lon2))
        }
        var worst = 0.0
        var differing = 0
        for (a, b) in testLines + randomLines {
            let from = geodesic.endpoint(a), to = geodesic.endpoint(b)
            let corrected = geodesic.solve(from, to, lastStep: .firstOrder)
            let evaluated = geodesic.solve(from, to, lastStep: .evaluated)
            #expect(corrected.salp1 == evaluated.salp1 && corrected.calp1 == evaluated.calp1, "\(a) → \(b)")
            #expect(corrected.salp2 == evaluated.salp2 && corrected.calp2 == evaluated.calp2, "\(a) → \(b)")
            let difference = abs(corrected.distance - evaluated.distance)
            let bound = 4 * Double.ulpOfOne * (geodesic.equatorialRadius + evaluated.distance)
            #expect(difference <= bound, "\(a) → \(b): \(difference) m")
            worst = max(worst, difference / bound)
            differing += corrected.distance != evaluated.distance ? 1 : 0
        }
        #expect(differing > 10_000)
        print("Karney last step by correction: worst difference \(worst) of the bound, \(differing) lines differ")
    }

    /// The last step taken by the second-order correction (``KarneyGeodesic/LastStep/secondOrder``,
    /// what nearest-N ranks by) against the full loop with one more evaluation: lengths within
    /// a nanometre plus rounding (4 ε (a + s)), both azimuths within 3.3·10⁻⁹ rad, on
    /// GeodTest-short, on random lines and on lines as nearest-10 answers have them (queries
    /// uniform on the sphere to their ten nearest of 5,000 seeded places), where it saves an
    /// evaluation on most lines. GeodTest-short's exact values hold for it too, within
    /// Karney's 15 nm.
    @Test func lastStepBySecondOrderCorrection() throws {
        let geodesic = KarneyGeodesic.wgs84
        var random = SeededRandom(seed: 77)
        func uniform() -> Point {
            Point(latitude: asin(random.uniform(-1...1)) * 180 / .pi, longitude: random.uniform(-180...180))
        }
        let randomLines = (0..<100_000).map { _ in (uniform(), uniform()) }
        let testLines = GeodesicTests.lines.map {
            (Point(latitude: $0.lat1, longitude: $0.lon1), Point(latitude: $0.lat2, longitude: $0.lon2))
        }
        // Lines as nearest-10 answers have them: a query anywhere to its ten nearest of 5,000
        // places spread over the sphere (by the angle between their directions).
        func direction(_ p: Point) -> SIMD3<Double> {
            let (lat, lon) = (p.latitude * .pi / 180, p.longitude * .pi / 180)
            return SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        }
        let places = (0..<5_000).map { _ in uniform() }
        let directions = places.map(direction)
        var answerLines: [(Point, Point)] = []
        for _ in 0..<2_000 {
            let q = uniform(), dq = direction(q)
            var best: [(place: Int, cosine: Double)] = []
            for (i, d) in directions.enumerated() {
                let cosine = (d * dq).sum()
                guard best.count < 10 || cosine > best[9].cosine else { continue }
                if best.count == 10 { best.removeLast() }
                best.insert((i, cosine), at: best.firstIndex { $0.cosine < cosine } ?? best.count)
            }
            for (i, _) in best { answerLines.append((q, places[i])) }
        }
        var worstDistance = 0.0, worstAzimuth = 0.0
        var shortened = 0
        for (a, b) in testLines + randomLines + answerLines {
            let from = geodesic.endpoint(a), to = geodesic.endpoint(b)
            let second = geodesic.solve(from, to, lastStep: .secondOrder)
            let evaluated = geodesic.solve(from, to, lastStep: .evaluated)
            let difference = abs(second.distance - evaluated.distance)
            let bound = 1e-9 + 4 * Double.ulpOfOne * (geodesic.equatorialRadius + evaluated.distance)
            #expect(difference <= bound, "\(a) → \(b): \(difference) m")
            worstDistance = max(worstDistance, difference)
            // The angle between two azimuths given by sine and cosine, in radians.
            func turn(_ s: Double, _ c: Double, _ s0: Double, _ c0: Double) -> Double {
                abs(atan2(s * c0 - c * s0, c * c0 + s * s0))
            }
            let turn1 = turn(second.salp1, second.calp1, evaluated.salp1, evaluated.calp1)
            let turn2 = turn(second.salp2, second.calp2, evaluated.salp2, evaluated.calp2)
            #expect(max(turn1, turn2) <= 3.3e-9, "\(a) → \(b): azimuths off by \(turn1), \(turn2) rad")
            worstAzimuth = max(worstAzimuth, turn1, turn2)
            let first = geodesic.solve(from, to, lastStep: .firstOrder)
            shortened += second.salp1 != first.salp1 || second.calp1 != first.calp1 ? 1 : 0
        }
        // The shortcut is taken: the azimuths differ from the first-order ones wherever it was.
        #expect(shortened > 50_000)
        let exact = GeodTestInverse(distanceTolerance: Self.karneyAccuracy) { a, b in
            let r = geodesic.solve(geodesic.endpoint(a), geodesic.endpoint(b), lastStep: .secondOrder)
            return (r.distance, atan2(r.salp1, r.calp1) * 180 / .pi, atan2(r.salp2, r.calp2) * 180 / .pi)
        }
        #expect(exact.illConditioned <= 1_123)
        print(
            "Karney last step by second-order correction: worst length difference \(worstDistance) m, "
                + "azimuth \(worstAzimuth) rad, taken on \(shortened) of \(testLines.count + randomLines.count + answerLines.count) lines; "
                + exact.summary)
    }

    @Test func agreesWithPROJOnSpecialCases() {
        var random = SeededRandom(seed: 87)
        var worst = (0.0, 0.0)
        for _ in 0..<2_000 {
            let lat = random.uniform(-90...90), lon = random.uniform(-180...180)
            let a = Point(latitude: lat, longitude: lon)
            // Nearly antipodal: the antipode moved by up to a few hundredths of a degree.
            let antipode = Point(
                latitude: -lat + random.uniform(-0.05...0.05),
                longitude: (lon + 180 + random.uniform(-0.05...0.05)).remainder(dividingBy: 360))
            Self.expectAgreement(a, antipode, "nearly antipodal", worst: &worst)
            // Exactly antipodal.
            Self.expectAgreement(
                a, Point(latitude: -lat, longitude: (lon + 180).remainder(dividingBy: 360)), "antipodal", worst: &worst)
            // Equatorial, short and long (past the point where the geodesic leaves the equator).
            Self.expectAgreement(
                Point(latitude: 0, longitude: lon), Point(latitude: 0, longitude: random.uniform(-180...180)),
                "equatorial", worst: &worst)
            // Meridional, on one half-meridian and over a pole.
            Self.expectAgreement(
                a, Point(latitude: random.uniform(-90...90), longitude: lon), "meridional", worst: &worst)
            Self.expectAgreement(
                a, Point(latitude: random.uniform(-90...90), longitude: (lon + 180).remainder(dividingBy: 360)),
                "over a pole", worst: &worst)
            // From a pole, and a point to itself.
            Self.expectAgreement(
                Point(latitude: lat < 0 ? -90 : 90, longitude: lon),
                Point(latitude: random.uniform(-90...90), longitude: 0),
                "from a pole", worst: &worst)
            Self.expectAgreement(a, a, "coincident", worst: &worst)
            // Short lines, metres to kilometres, where the auxiliary sphere alone answers.
            let d = pow(10, random.uniform(-5 ... -1))
            Self.expectAgreement(
                a, Point(latitude: max(-90, min(90, lat + d)), longitude: lon + d), "short", worst: &worst)
        }
        print("Karney inverse (Swift) vs PROJ, special cases: worst \(worst.0) m, \(worst.1)°")
    }

    @Test func knownLengthsAndOtherEllipsoids() {
        // WGS84 quarter meridian 10,001,965.729 m; a degree of the equator 2πa/360 = 111,319.491 m.
        let g = KarneyGeodesic.wgs84
        #expect(abs(g.inverse(from: Point(x: 0, y: 0), to: Point(x: 0, y: 90)).distance - 10_001_965.729) < 0.001)
        let equator = g.inverse(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0))
        #expect(abs(equator.distance - 111_319.491) < 0.001)
        #expect(equator.initialAzimuth == 90 && equator.finalAzimuth == 90)
        // On a sphere, a quarter great circle is πR/2.
        let sphere = KarneyGeodesic(equatorialRadius: 6_371_000, flattening: 0)
        #expect(
            abs(sphere.inverse(from: Point(x: 0, y: 0), to: Point(x: 90, y: 0)).distance - .pi * 6_371_000 / 2) < 1e-6)
        // A flatter, larger ellipsoid against PROJ.
        let mine = KarneyGeodesic(equatorialRadius: 7_000_000, flattening: 1 / 150)
        let proj = Geodesic(equatorialRadius: 7_000_000, flattening: 1 / 150)
        var random = SeededRandom(seed: 150)
        for _ in 0..<1_000 {
            let a = Point(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            let b = Point(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            #expect(abs(mine.inverse(from: a, to: b).distance - proj.inverse(from: a, to: b).distance) < 2e-8)
        }
        // Latitudes out of range give NaN, as PROJ's do.
        #expect(g.inverse(from: Point(x: 0, y: 91), to: Point(x: 0, y: 0)).distance.isNaN)
    }
}
