import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import Testing

/// Karney's geodesics (through PROJ's geodesic.h) against GeographicLib's published test set:
/// 10,000 WGS84 geodesics computed in high precision, one per line as
/// `lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 m12 S12` (degrees, metres).
///
/// The file is sampled in blocks of 1,000 from the categories of the full set (random,
/// short, near the poles, meridional, equatorial, antipodal, ...). Lines 8000–9999 are the
/// nearly antipodal geodesics. There the end point is (nearly) conjugate to the start: the
/// reduced length m12 is a few centimetres or zero, so a change in azimuth of δ moves the end
/// point only by δ·m12, and the azimuths are ill-conditioned. GeographicLib's own GeodTest
/// measures azimuth error there as |Δazi|·|m12| (its err[4], in metres), also accepting the
/// mirror-image solution when lat1 + lat2 = 0. We do the same for the lines whose azimuths
/// miss 1e-6°, require every one of them to have |m12| < 1 m, and count them
/// (1,114 with PROJ 9.1.1: 501 in the 8000s block, where m12 = 0, and 613 in the 9000s).
@Suite struct GeodesicTests {
    struct Line {
        let lat1, lon1, azi1, lat2, lon2, azi2, s12, a12, m12, s12Area: Double
    }

    static let lines: [Line] = {
        let url = TestData.url("test-suites/geographiclib/GeodTest-short.dat.gz")
        guard let text = try? gunzip(url) else { return [] }
        return text.split(separator: "\n").compactMap { row in
            let v = row.split(separator: " ").compactMap { Double($0) }
            guard v.count == 10 else { return nil }
            return Line(
                lat1: v[0], lon1: v[1], azi1: v[2], lat2: v[3], lon2: v[4], azi2: v[5],
                s12: v[6], a12: v[7], m12: v[8], s12Area: v[9])
        }
    }()

    /// The difference b - a reduced to [-180, 180): azimuths and longitudes wrap.
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d >= 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    @Test func testSetIsComplete() {
        #expect(Self.lines.count == 10_000)
    }

    @Test func inverseMatchesGeographicLib() throws {
        try #require(Self.lines.count == 10_000)
        let check = GeodTestInverse(distanceTolerance: 0.001) { a, b in
            let r = Geodesic.wgs84.inverse(from: a, to: b)
            return (r.distance, r.initialAzimuth, r.finalAzimuth)
        }
        // The exclusions stay a documented minority (1,114 with PROJ 9.1.1).
        #expect(check.illConditioned <= 1_114)
        // Observed with PROJ 9.1.1: 7.5 nm, 1.0e-6° (by construction), 2.3 nm.
        print("geodesic inverse: " + check.summary)
    }

    @Test func directMatchesGeographicLib() throws {
        try #require(Self.lines.count == 10_000)
        let geodesic = Geodesic.wgs84
        var worstLatitude = 0.0
        var worstLongitude = 0.0
        for (i, l) in Self.lines.enumerated() {
            let p = geodesic.direct(from: Point(latitude: l.lat1, longitude: l.lon1), azimuth: l.azi1, distance: l.s12)
            let dLat = abs(p.latitude - l.lat2)
            let dLon = abs(Self.angleDifference(l.lon2, p.longitude))
            worstLatitude = max(worstLatitude, dLat)
            worstLongitude = max(worstLongitude, dLon)
            #expect(dLat < 1e-8 && dLon < 1e-8, "line \(i): (\(p.latitude), \(p.longitude)) vs (\(l.lat2), \(l.lon2))")
            #expect((-180...180).contains(p.longitude))
        }
        print("geodesic direct: worst latitude error \(worstLatitude)°, worst longitude error \(worstLongitude)°")
    }

    @Test func quarterMeridianAndEquatorHaveTheirKnownLengths() {
        // WGS84 quarter meridian 10,001,965.729 m; a degree of the equator 2πa/360 = 111,319.491 m.
        let g = Geodesic.wgs84
        #expect(abs(g.inverse(from: Point(x: 0, y: 0), to: Point(x: 0, y: 90)).distance - 10_001_965.729) < 0.001)
        let equator = g.inverse(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0))
        #expect(abs(equator.distance - 111_319.491) < 0.001)
        #expect(equator.initialAzimuth == 90 && equator.finalAzimuth == 90)
        // Due north 1,000 m from the equator stays on the meridian.
        let north = g.direct(from: Point(x: 10, y: 0), azimuth: 0, distance: 1_000)
        #expect(north.x == 10 && north.y > 0.009 && north.y < 0.0091)
    }

    @Test func geodesicIsAPlainValue() {
        let copy = Geodesic.wgs84
        let sphere = Geodesic(equatorialRadius: 6_371_000, flattening: 0)
        #expect(copy.equatorialRadius == 6_378_137 && copy.flattening == 1 / 298.257_223_563)
        // On a sphere, a quarter great circle is πR/2.
        let quarter = sphere.inverse(from: Point(x: 0, y: 0), to: Point(x: 90, y: 0)).distance
        #expect(abs(quarter - .pi * 6_371_000 / 2) < 1e-6)
    }
}

/// The decompressed text of a .gz file, by `gzip -dc`.
func gunzip(_ url: URL) throws -> String {
    let process = Process()
    let candidates = ["/usr/bin/gzip", "/bin/gzip"]
    process.executableURL = URL(
        fileURLWithPath: candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/gzip")
    process.arguments = ["-dc", url.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()  // read before waiting: the pipe is small
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
    return String(decoding: data, as: UTF8.self)
}
