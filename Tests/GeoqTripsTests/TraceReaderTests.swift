import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTrips
import Testing

/// CSV and GPX traces. Every fixture here was written for these tests (none comes from a device).
@Suite struct TripCSVReaderTests {
    func read(_ text: String) throws(TripReadError) -> TripTrace {
        try TripCSVReader().read(text, source: "drive.csv")
    }

    func error(_ text: String) -> TripReadError? {
        do {
            _ = try read(text)
            return nil
        } catch { return error }
    }

    @Test func withHeaderAndISOTimes() throws {
        let trace = try read(
            """
            time,lat,lon,accuracy
            2026-03-01T08:00:00Z,42.81,-1.64,5
            2026-03-01T08:00:10.5Z,42.811,-1.64,
            2026-03-01T09:00:20+01:00,42.812,-1.64,12.5
            """)
        let fixes = trace.fixes
        try #require(fixes.count == 3)
        #expect(fixes[0].point == Point(latitude: 42.81, longitude: -1.64))
        #expect(fixes[0].time == Date(timeIntervalSince1970: 1_772_352_000))
        #expect(fixes[1].time == Date(timeIntervalSince1970: 1_772_352_010.5))
        #expect(fixes[2].time == Date(timeIntervalSince1970: 1_772_352_020))
        #expect(fixes.map(\.accuracy) == [5, nil, 12.5])
    }

    /// Fractions of a second longer than ICU reads right: eleven digits, and forty (on which
    /// ICU traps), read as the time they write, to the millisecond as any fraction is.
    @Test func longFractionsOfASecond() throws {
        let trace = try read(
            """
            time,lat,lon
            2026-03-01T08:00:10.55555555555Z,42.81,-1.64
            2026-03-01T08:00:10.5888888888888888888888888888888888888888+00:00,42.811,-1.64
            """)
        let times = trace.fixes.map { $0.time?.timeIntervalSince1970 }
        try #require(times.count == 2)
        #expect(abs(times[0]! - 1_772_352_010.555) < 1e-6)
        #expect(abs(times[1]! - 1_772_352_010.588) < 1e-6)
    }

    /// Text that is not RFC 3339 is refused by line and field, however it is mistyped: a date
    /// with a point for a dash and a long fraction, and a fraction that is a sign and a run of
    /// digits (the fuzzer's; ICU, which read these before, trapped on them and ended the process).
    @Test(arguments: [
        "2026-03.01T08:00:10.5888888888888888888888888888888888888888+00:00",
        "2026-03-01T08:00:10.-" + String(repeating: "8", count: 46) + "+00:4802.",
    ])
    func mistypedTimesAreRefused(time: String) {
        let e = error("time,lat,lon\n2026-03-01T08:00:10.55555555555Z,42.81,-1.64\n\(time),42.811,-1.64\n")
        #expect(e?.code == .badValue)
        #expect(e?.line == 3)
        #expect(e?.field == "time")
    }

    @Test func withoutHeaderUnixTimesAndCRLF() throws {
        let trace = try read("1772352000,42.81,-1.64\r\n\r\n1772352060.5,42.82,-1.65\r\n")
        #expect(trace.fixCount == 2)
        #expect(trace.fixes[1].time == Date(timeIntervalSince1970: 1_772_352_060.5))
        #expect(trace.fixes[1].point.latitude == 42.82 && trace.fixes[1].point.longitude == -1.65)
        #expect(trace.fixes[1].accuracy == nil)
    }

    @Test func headerNamesTheColumnOrder() throws {
        let trace = try read("latitude,longitude,accuracy,timestamp\n42.81,-1.64,7,1772352000\n")
        #expect(trace.fixes[0].point == Point(latitude: 42.81, longitude: -1.64))
        #expect(trace.fixes[0].accuracy == 7)
    }

    @Test func emptyTimeIsUnknown() throws {
        #expect(try read(",42.81,-1.64\n").fixes[0].time == nil)
    }

    /// Bad input: each error names the line and the field (table: text, code, line, field).
    @Test(
        arguments: [
            ("time,lat,lon\n1772352000,42.81,-1.64\n1772352001,x,-1.64\n", TripReadError.Code.badValue, 3, "lat"),
            ("1772352000,91,-1.64\n", .outOfRange, 1, "lat"),
            ("1772352000,42.81,-181\n", .outOfRange, 1, "lon"),
            ("1772352000,42.81,-1.64\nyesterday,42.81,-1.64\n", .badValue, 2, "time"),
            ("1772352000,42.81,-1.64,x\n", .badValue, 1, "accuracy"),
            ("1772352000,42.81\n", .badValue, 1, nil),
            ("1772352000,42.81,nan\n", .badValue, 1, "lon"),
            ("1772352060,42.81,-1.64\n1772352000,42.82,-1.64\n", .timeOrder, 2, "time"),
        ] as [(String, TripReadError.Code, Int, String?)])
    func badLines(text: String, code: TripReadError.Code, line: Int, field: String?) {
        let e = error(text)
        #expect(e?.code == code)
        #expect(e?.line == line)
        #expect(e?.field == field)
        #expect(e?.description.hasPrefix("drive.csv:\(line): ") == true, "\(String(describing: e))")
    }

    @Test func messagesSayWhatIsWrong() {
        #expect(error("1772352000,91,-1.64\n")?.description == "drive.csv:1: lat 91.0 is outside [-90, 90]")
        #expect(error("time,lat,lon\n1,x,2\n")?.description == "drive.csv:2: lat 'x' is not a number")
    }

    @Test func headerWithoutCoordinatesOrNoFixes() {
        #expect(error("when,where\n")?.code == .invalidSyntax)
        #expect(error("time,lat,lon\n")?.code == .noFixes)
        #expect(error("")?.code == .noFixes)
    }
}

@Suite struct TripGPXReaderTests {
    func read(_ text: String) throws(TripReadError) -> TripTrace {
        try TripGPXReader().read(Data(text.utf8), source: "drive.gpx")
    }

    func error(_ text: String) -> TripReadError? {
        do {
            _ = try read(text)
            return nil
        } catch { return error }
    }

    /// Two segments of points 100 m and 250 m apart (built with Karney's direct problem and
    /// printed at full precision), with a waypoint that is not part of the path.
    static func twoSegments() -> String {
        let a = [0.0, 100, 200].map { Geodesic.wgs84.direct(from: Traces.pamplona, azimuth: 0, distance: $0) }
        let start = Point(latitude: 42.9, longitude: -1.5)
        let b = [start, Geodesic.wgs84.direct(from: start, azimuth: 90, distance: 250)]
        func pt(_ p: Point, _ seconds: Int, ele: Bool) -> String {
            let time = Date(timeIntervalSince1970: 1_772_352_000 + Double(seconds))
                .formatted(Date.ISO8601FormatStyle())
            return """
                <trkpt lat="\(p.latitude)" lon="\(p.longitude)">\(ele ? "<ele>450.5</ele>" : "")<time>\(time)</time></trkpt>
                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="geoq tests" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="0" lon="0"><name>home</name></wpt>
              <trk><name>to work</name>
                <trkseg>
                  \(pt(a[0], 0, ele: true))
                  \(pt(a[1], 10, ele: false))
                  \(pt(a[2], 20, ele: false))
                </trkseg>
                <trkseg>
                  \(pt(b[0], 600, ele: false))
                  \(pt(b[1], 630, ele: false))
                </trkseg>
              </trk>
            </gpx>
            """
    }

    @Test func twoSegmentsAreSummedSeparately() throws {
        let trace = try read(Self.twoSegments())
        #expect(trace.segments.map(\.count) == [3, 2])
        #expect(trace.fixes[0].elevation == 450.5)
        #expect(trace.fixes[0].time == Date(timeIntervalSince1970: 1_772_352_000))
        let r = Trip(trace: trace).report(geodesic: Geodesic.wgs84)
        #expect(abs(r.lengthMetres - 450) < 0.001)  // 200 + 250; the 11 km gap is not counted
        #expect(r.segments == 2 && r.fixesRead == 5)
        #expect(r.duration == 630)  // elapsed, the gap included
    }

    /// With a track, the routes (plans) are ignored; prefixes are ignored; `<accuracy>` is read.
    @Test func trackWinsOverRoutesAndPrefixesAndAccuracy() throws {
        let trace = try read(
            """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1">
              <g:rte><g:rtept lat="42.81" lon="-1.64"/><g:rtept lat="42.82" lon="-1.64"/></g:rte>
              <g:trk><g:trkseg><g:trkpt lat="42.83" lon="-1.64"><g:extensions><accuracy>8</accuracy></g:extensions></g:trkpt></g:trkseg></g:trk>
            </g:gpx>
            """)
        #expect(trace.segments.map(\.count) == [1])
        #expect(trace.fixes[0].accuracy == 8)
        #expect(trace.fixes[0].point == Point(latitude: 42.83, longitude: -1.64))
    }

    /// Without a track, each route is a segment; whitespace around values is accepted.
    @Test func routesWithoutATrack() throws {
        let trace = try read(
            """
            <gpx>
              <rte><rtept lat=" 42.81 " lon="-1.64"><time>
                2026-03-01T08:00:00Z
              </time></rtept><rtept lat="42.82" lon="-1.64"/></rte>
              <rte><rtept lat="42.83" lon="-1.64"/></rte>
            </gpx>
            """)
        #expect(trace.segments.map(\.count) == [2, 1])
        #expect(trace.fixes[0].time == Date(timeIntervalSince1970: 1_772_352_000))
        #expect(trace.fixes[1].time == nil)
    }

    @Test(
        arguments: [
            ("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>", TripReadError.Code.noFixes, nil, nil),
            ("<kml></kml>", .invalidSyntax, 1, nil),
            ("", .invalidSyntax, 1, nil),
            ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"42\" lon=\"-1\"></trkseg></gpx>", .invalidSyntax, 3, nil),
            ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"95\" lon=\"-1\"/></trkseg></trk></gpx>", .outOfRange, 3, "lat"),
            ("<gpx>\n<trk><trkseg>\n<trkpt lon=\"-1\"/></trkseg></trk></gpx>", .badValue, 3, "lat"),
            (
                "<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"1\"><time>2026-03-01T08:00:10Z</time></trkpt>\n"
                    + "<trkpt lat=\"1\" lon=\"1\"><time>2026-03-01T08:00:00Z</time></trkpt></trkseg></trk></gpx>",
                .timeOrder, 3, "time"
            ),
            (
                "<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"1\"><ele>high</ele></trkpt></trkseg></trk></gpx>",
                .badValue, 2, "ele"
            ),
        ] as [(String, TripReadError.Code, Int?, String?)])
    func badDocuments(text: String, code: TripReadError.Code, line: Int?, field: String?) {
        let e = error(text)
        #expect(e?.code == code, "\(String(describing: e))")
        #expect(e?.line == line, "\(String(describing: e))")
        #expect(e?.field == field)
    }
}

extension TripGPXReaderTests {
    @Test func malformedXMLSaysWhereAndWhat() {
        let e = error("<gpx>\n<trk><trkseg>\n<trkpt lat=\"42\" lon=\"-1\"></trkseg></gpx>")
        #expect(
            e?.description
                == "drive.gpx:3: malformed XML at column 35: closing tag does not match the open element "
                + "(open elements: <gpx> <trk> <trkseg> <trkpt>)")
    }
}

@Suite struct TripTraceReaderTests {
    @Test func missingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/geoq-trips/drive.gpx")
        #expect(throws: TripReadError(.fileMissing, file: "drive.gpx", message: "no such file")) {
            try TripTraceReader.read(contentsOf: url, source: "drive.gpx")
        }
    }

    @Test func formatIsSniffedOrTakenFromTheName() throws {
        let gpx = Data("\n <gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>".utf8)
        #expect(try TripTraceReader.read(gpx, source: "x").fixCount == 1)
        #expect(try TripTraceReader.read(Data(TripGPXReaderTests.twoSegments().utf8), source: "x").fixCount == 5)
        #expect(try TripTraceReader.read(Data("1,42.81,-1.64\n".utf8), source: "x").fixCount == 1)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("drive.gpx")
        try Data(TripGPXReaderTests.twoSegments().utf8).write(to: file)
        #expect(try TripTraceReader.read(contentsOf: file).segments.count == 2)
        #expect(throws: TripReadError.self) { try TripTraceReader.read(contentsOf: dir) }
    }
}

/// Services every 10,000 km, bigger ones at 20,000 and 40,000 (SPEC §4).
@Suite struct MaintenanceForecastTests {
    @Test(
        arguments: [
            (0.0, 1_000.0, 10_000.0, [10_000.0], 10.0, 10),
            (12_500, 1_500, 20_000, [10_000, 20_000], 5, 5),
            (35_000, 2_000, 40_000, [10_000, 20_000, 40_000], 2.5, 3),
            (40_000, 2_500, 50_000, [10_000], 4, 4),
            (79_999, 1_000, 80_000, [10_000, 20_000, 40_000], 0.001, 1),
        ] as [(Double, Double, Double, [Double], Double, Int)])
    func nextMilestone(odometer: Double, monthly: Double, milestone: Double, due: [Double], months: Double, whole: Int)
        throws
    {
        let f = try #require(MaintenanceForecast(odometerKilometres: odometer, monthlyKilometres: monthly))
        #expect(f.milestoneKilometres == milestone)
        #expect(f.servicesDue == due)
        #expect(abs(f.months! - months) < 1e-9)
        #expect(f.wholeMonths == whole)
    }

    @Test func noForecastWithoutMovement() {
        #expect(MaintenanceForecast(odometerKilometres: 5_000, monthlyKilometres: 0)?.months == nil)
        #expect(MaintenanceForecast(odometerKilometres: -1, monthlyKilometres: 100) == nil)
        #expect(MaintenanceForecast(odometerKilometres: .nan, monthlyKilometres: 100) == nil)
    }
}

@Suite struct MonthlyDistanceTests {
    static func report(_ metres: Double, _ start: String?) -> TripReport {
        let date = start.map { try! Date($0, strategy: Date.ISO8601FormatStyle()) }
        return TripReport(
            fixesRead: 2, fixesKept: 2, droppedForAccuracy: 0, droppedForStep: 0, lengthMetres: metres, duration: nil,
            start: date, end: date, segments: 1, stepFilterBound: 0)
    }

    @Test func tripsCountInTheMonthTheyStartInTheTimeZone() throws {
        let reports = [
            Self.report(12_000, "2026-01-10T08:00:00Z"),
            Self.report(3_000, "2026-01-31T23:30:00Z"),  // 00:30 on 1 February in Madrid
            Self.report(500, nil),
            Self.report(45_000, "2026-03-02T08:00:00Z"),
        ]
        let madrid = MonthlyDistance(reports, timeZone: try #require(TimeZone(identifier: "Europe/Madrid")))
        #expect(madrid.metres[.init(year: 2026, month: 1)] == 12_000)
        #expect(madrid.metres[.init(year: 2026, month: 2)] == 3_000)
        #expect(madrid.undatedMetres == 500)
        #expect(madrid.meanMonthlyKilometres == 20)  // 60 km over January–March
        let utc = MonthlyDistance(reports, timeZone: try #require(TimeZone(identifier: "UTC")))
        #expect(utc.metres[.init(year: 2026, month: 1)] == 15_000)
        #expect(utc.metres.keys.sorted().map(\.description) == ["2026-01", "2026-03"])
        #expect(MonthlyDistance([], timeZone: .gmt).meanMonthlyKilometres == nil)
    }
}
