import Foundation
import GeoqCore
import Testing

@testable import GeoqQuery

/// The local time of a time-zone answer. Every expected offset is worked out from the zone's
/// published rules, not from Foundation: the EU changes to summer time on the last Sunday of
/// March at 01:00 UTC (29 March in 2026) and back on the last Sunday of October; India keeps
/// +05:30 and Nepal +05:45 all year; Newfoundland is -03:30, -02:30 in summer; Lord Howe Island
/// moves by half an hour; POSIX `Etc/GMT+N` zones are N hours *behind* UTC.
@Suite struct LocalTimeTests {
    static let january = instant("2026-01-15T12:00:00Z")
    static let july = instant("2026-07-15T12:00:00Z")

    static func instant(_ text: String) -> Date { LocalTime.instant(parsing: text)! }

    @Test(arguments: [
        ("Europe/Madrid", january, "+01:00", 3600, "2026-01-15T13:00:00+01:00", false),
        ("Europe/Madrid", july, "+02:00", 7200, "2026-07-15T14:00:00+02:00", true),
        ("Europe/Madrid", instant("2026-03-29T00:59:59Z"), "+01:00", 3600, "2026-03-29T01:59:59+01:00", false),
        ("Europe/Madrid", instant("2026-03-29T01:00:00Z"), "+02:00", 7200, "2026-03-29T03:00:00+02:00", true),
        ("Atlantic/Canary", july, "+01:00", 3600, "2026-07-15T13:00:00+01:00", true),
        ("Asia/Kolkata", january, "+05:30", 19800, "2026-01-15T17:30:00+05:30", false),
        ("Asia/Kolkata", july, "+05:30", 19800, "2026-07-15T17:30:00+05:30", false),
        ("Asia/Kathmandu", july, "+05:45", 20700, "2026-07-15T17:45:00+05:45", false),
        ("America/St_Johns", january, "-03:30", -12600, "2026-01-15T08:30:00-03:30", false),
        ("America/St_Johns", july, "-02:30", -9000, "2026-07-15T09:30:00-02:30", true),
        ("America/New_York", instant("2026-01-15T03:00:00Z"), "-05:00", -18000, "2026-01-14T22:00:00-05:00", false),
        ("America/Phoenix", july, "-07:00", -25200, "2026-07-15T05:00:00-07:00", false),
        ("Australia/Sydney", january, "+11:00", 39600, "2026-01-15T23:00:00+11:00", true),
        ("Australia/Sydney", july, "+10:00", 36000, "2026-07-15T22:00:00+10:00", false),
        ("Australia/Lord_Howe", july, "+10:30", 37800, "2026-07-15T22:30:00+10:30", false),
        ("Etc/GMT+2", july, "-02:00", -7200, "2026-07-15T10:00:00-02:00", false),
        ("Etc/GMT-14", july, "+14:00", 50400, "2026-07-16T02:00:00+14:00", false),
        ("Etc/GMT", july, "+00:00", 0, "2026-07-15T12:00:00+00:00", false),
    ])
    func offsetsFollowTheZonesRules(
        zone: String, at: Date, offset: String, seconds: Int, local: String, summer: Bool
    ) throws {
        guard let timeZone = TimeZone(identifier: zone) else {
            Issue.record("the system's tzdata does not know \(zone)")
            return
        }
        let time = LocalTime(zone: zone, timeZone: timeZone, at: at)
        #expect(time.zone == zone)
        #expect(time.utcOffset == offset)
        #expect(time.utcOffsetSeconds == seconds)
        #expect(time.localTime == local)
        #expect(time.daylightSaving == summer)
        #expect(time.problem == nil)
    }

    @Test func theInstantIsWrittenInUTCToTheSecond() {
        let time = LocalTime(
            zone: "Europe/Madrid", timeZone: TimeZone(identifier: "Europe/Madrid"),
            at: Self.instant("2026-07-15T14:00:00.75+02:00"))
        #expect(time.instant == "2026-07-15T12:00:00Z")
        #expect(time.localTime == "2026-07-15T14:00:00+02:00")
    }

    /// Days since 1970-01-01 of a leap day and of a date before 1970, from Python's
    /// `(date(2024, 2, 29) - date(1970, 1, 1)).days` and the same for 1900-03-01.
    @Test func civilDatesOnBothSidesOf1970() {
        #expect(LocalTime.civilDate(daysSince1970: 19782) == (2024, 2, 29))
        #expect(LocalTime.civilDate(daysSince1970: -25508) == (1900, 3, 1))
        #expect(LocalTime.civilDate(daysSince1970: -1) == (1969, 12, 31))
        #expect(LocalTime.iso8601(secondsSince1970: -1, offset: nil) == "1969-12-31T23:59:59Z")
    }

    @Test func aZoneTheSystemDoesNotKnowIsSaidSo() {
        let time = LocalTime(zone: "Mars/Olympus_Mons", timeZone: nil, at: Self.july)
        #expect(time.utcOffset == nil && time.localTime == nil && time.daylightSaving == nil)
        #expect(time.problem == "the system's time-zone database does not know Mars/Olympus_Mons")
    }

    /// Fractions of a second longer than ICU reads right: eleven digits, and forty (on which
    /// ICU traps), read as the instant they write, to the millisecond as any fraction is.
    @Test func longFractionsOfASecond() throws {
        let eleven = try #require(LocalTime.instant(parsing: "2026-07-15T12:00:00.55555555555Z"))
        let forty = try #require(
            LocalTime.instant(parsing: "2026-07-15T14:00:00." + String(repeating: "8", count: 40) + "+02:00"))
        #expect(abs(eleven.timeIntervalSince1970 - 1_784_116_800.555) < 1e-6)
        #expect(abs(forty.timeIntervalSince1970 - 1_784_116_800.888) < 1e-6)
    }

    @Test(arguments: ["2026-07-15", "2026-07-15T12:00:00", "yesterday", "2026-13-01T00:00:00Z", ""])
    func instantsWithoutAnOffsetAreRefused(text: String) {
        #expect(LocalTime.instant(parsing: text) == nil)
    }

    // MARK: A time-zone layer

    /// Two made-up zones: a box around Spain's mainland and one around India.
    static func zones() throws -> Layer {
        Layer(
            name: "zones", title: "Zones",
            features: [
                Feature(
                    id: "Europe/Madrid", geometry: try rectangle(west: -10, south: 36, east: 3, north: 44),
                    properties: ["tzid": .string("Europe/Madrid")]),
                Feature(
                    id: "india", geometry: try rectangle(west: 68, south: 8, east: 97, north: 35),
                    properties: ["tzid": .string("Asia/Kolkata")]),
            ], approximation: nil, source: "test", sourceCRS: "EPSG:4326", notes: [])
    }

    @Test func aTimeZoneLayerAnswersTheZoneAndTheLocalTime() throws {
        let lookup = SectorLookup(layer: try Self.zones().marking(timeZoneField: "tzid"), geodesic: FlatWorld())
        let madrid = lookup.answer(for: Point(latitude: 40.4168, longitude: -3.7038), at: Self.july)
        #expect(madrid.timeZone?.zone == "Europe/Madrid")
        #expect(madrid.timeZone?.localTime == "2026-07-15T14:00:00+02:00")
        // The zone comes from the field, not from the feature id.
        let delhi = lookup.answer(for: Point(latitude: 28.6139, longitude: 77.209), at: Self.january)
        #expect(delhi.inside.map(\.id) == ["india"])
        #expect(delhi.timeZone?.zone == "Asia/Kolkata")
        #expect(delhi.timeZone?.utcOffset == "+05:30")
        // The GeoJSON answer carries it on the query point.
        let query = try #require((lookup.geoJSON(for: madrid)["features"] as? [[String: Any]])?.first)
        let time = try #require((query["properties"] as? [String: Any])?["timeZone"] as? [String: Any])
        #expect(time["zone"] as? String == "Europe/Madrid" && time["utcOffset"] as? String == "+02:00")
        // Outside every zone: no local time.
        #expect(lookup.answer(for: Point(latitude: 0, longitude: 0), at: Self.july).timeZone == nil)
        #expect(lookup.layer.timeZones?.unknownIDs == [])
    }

    @Test func otherLayersAnswerAsBefore() throws {
        let plain = SectorLookup(layer: try Self.zones(), geodesic: FlatWorld())
        let answer = plain.answer(for: Point(latitude: 40.4168, longitude: -3.7038), at: Self.july)
        #expect(answer.timeZone == nil)
        #expect(answer == plain.answer(for: Point(latitude: 40.4168, longitude: -3.7038)))
        #expect(!String(decoding: try JSONEncoder().encode(answer), as: UTF8.self).contains("timeZone"))
    }

    /// A layer that covers the Earth would be "inside" for every swapped position: a swap hint
    /// never comes from a time-zone layer.
    @Test func noSwapHintFromATimeZoneLayer() throws {
        let box = Layer(
            name: "box", title: "Box",
            features: [Feature(id: "b", geometry: try rectangle(west: 1, south: 1, east: 2, north: 2))],
            approximation: nil, source: "test", sourceCRS: "EPSG:4326", notes: [])
        let lookup = SectorLookup(layer: box, geodesic: FlatWorld())
        // Latitude 75, longitude 30 swapped is latitude 30, longitude 75: in the India box.
        let point = Point(latitude: 75, longitude: 30)
        #expect(lookup.answer(for: point) { [try! Self.zones()] }.swapHint?.layer == "zones")
        #expect(lookup.answer(for: point) { [try! Self.zones().marking(timeZoneField: "tzid")] }.swapHint == nil)
    }
}
