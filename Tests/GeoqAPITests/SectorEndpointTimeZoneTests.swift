import Foundation
import GeoqAPI
import GeoqCore
import GeoqPROJ
import GeoqQuery
import Testing

/// `/v1/sector` on a time-zone layer: the zone and the local time at `at`, or now. A made-up
/// layer of two boxes (mainland Spain, India) stands in for the world's time zones, whose
/// real answers the layer tests check.
@Suite struct SectorEndpointTimeZoneTests {
    static let data: ServiceData = {
        func box(_ id: String, _ zone: String, west: Double, south: Double, east: Double, north: Double) -> Feature {
            let ring = try! Ring(closing: [
                Point(x: west, y: south), Point(x: east, y: south), Point(x: east, y: north), Point(x: west, y: north),
            ])
            return Feature(
                id: id, name: id, geometry: .polygon(Polygon(shell: ring)), properties: ["tzid": .string(zone)])
        }
        let layer = Layer(
            name: "zones", title: "Zones",
            features: [
                box("Europe/Madrid", "Europe/Madrid", west: -10, south: 36, east: 3, north: 44),
                box("Asia/Kolkata", "Asia/Kolkata", west: 68, south: 8, east: 97, north: 35),
            ], approximation: nil, source: "test", sourceCRS: "EPSG:4326", notes: []
        ).marking(timeZoneField: "tzid")
        return ServiceData(
            sectorLookups: ["zones": SectorLookup(layer: layer, geodesic: Geodesic.wgs84)],
            layers: [
                .init(name: "zones", title: "Zones", kind: "polygon", features: 2, approximate: false, error: nil)
            ],
            storeFile: "test", defaultSectorLayer: "zones", geodesic: Geodesic.wgs84, loadedAt: Date())
    }()

    func ask(_ pairs: [(String, String)], now: Date = Date()) throws(Problem) -> SectorAnswer {
        try SectorEndpoint.answer(QueryParameters(pairs.map { ($0.0, $0.1) }), data: Self.data, now: now).answer
    }

    /// Madrid is UTC+1 in winter and UTC+2 in summer (EU rules); India UTC+5:30 all year.
    @Test func theLocalTimeAtTheInstantAsked() throws {
        let summer = try ask([("lat", "40.4168"), ("lon", "-3.7038"), ("at", "2026-07-15T12:00:00Z")])
        #expect(summer.timeZone?.zone == "Europe/Madrid")
        #expect(summer.timeZone?.utcOffset == "+02:00")
        #expect(summer.timeZone?.localTime == "2026-07-15T14:00:00+02:00")
        let winter = try ask([("lat", "40.4168"), ("lon", "-3.7038"), ("at", "2026-01-15T13:00:00+01:00")])
        #expect(winter.timeZone?.utcOffset == "+01:00")
        #expect(winter.timeZone?.instant == "2026-01-15T12:00:00Z")
        let delhi = try ask([("lat", "28.6139"), ("lon", "77.209"), ("at", "2026-01-15T12:00:00Z")])
        #expect(delhi.timeZone?.localTime == "2026-01-15T17:30:00+05:30")
    }

    @Test func withoutAtTheTimeIsNow() throws {
        let now = try #require(LocalTime.instant(parsing: "2026-07-15T12:00:00Z"))
        let answer = try ask([("lat", "40.4168"), ("lon", "-3.7038")], now: now)
        #expect(answer.timeZone?.localTime == "2026-07-15T14:00:00+02:00")
    }

    /// An `at` whose fraction of a second is forty digits long (on which ICU traps) is answered.
    @Test func anInstantWithALongFractionIsAnswered() throws {
        let at = "2026-07-15T12:00:00." + String(repeating: "8", count: 40) + "Z"
        let answer = try ask([("lat", "40.4168"), ("lon", "-3.7038"), ("at", at)])
        #expect(answer.timeZone?.localTime == "2026-07-15T14:00:00+02:00")
    }

    @Test(arguments: ["2026-07-15", "2026-07-15T12:00:00", "noon"])
    func anInstantWithoutAnOffsetIsABadRequest(at: String) {
        #expect {
            _ = try ask([("lat", "40.4168"), ("lon", "-3.7038"), ("at", at)])
        } throws: { error in
            guard let problem = error as? Problem else { return false }
            return problem.status == 400 && problem.parameter == "at" && problem.type == "/problems/invalid-parameter"
        }
    }
}
