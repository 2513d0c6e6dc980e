import Foundation
import GeoqCore
import GeoqPROJ
import GeoqParking
import GeoqQuery
import GeoqTariffs
import GeoqTestSupport
import Testing

/// The park question over a sector layer and kerbs made in the test (no shared data): the
/// repository's Pamplona tariffs joined with two made-up sectors and an orange kerb placed with
/// PROJ's geodesic.
@Suite struct ParkQueryOverValuesTests {
    static let geodesic = Geodesic.wgs84
    static let car = Point(latitude: 42.8100, longitude: -1.6400)

    let tariffs: CityTariffs
    let query: ParkQuery

    init() throws {
        tariffs = try CityTariffs.load(
            city: "pamplona", dataDirectory: TestData.packageRoot.appendingPathComponent("data"))
        // Sector "2" around the car, sector "1" to the north; an exact layer (no approximation note).
        func square(_ id: String, south: Double) throws -> Feature {
            let ring = try Ring(closing: [
                Point(x: -1.645, y: south), Point(x: -1.635, y: south), Point(x: -1.635, y: south + 0.01),
                Point(x: -1.645, y: south + 0.01),
            ])
            return Feature(id: id, geometry: .polygon(Polygon(shell: ring)))
        }
        let layer = Layer(
            name: "sectors", title: "Made-up sectors",
            features: [try square("2", south: 42.805), try square("1", south: 42.815)], approximation: nil,
            source: "made in the test", sourceCRS: "EPSG:4326", notes: [])
        // A north–south orange kerb 4 m east of the car.
        let kerbMiddle = Self.geodesic.direct(from: Self.car, azimuth: 90, distance: 4)
        let kerb = [
            Self.geodesic.direct(from: kerbMiddle, azimuth: 180, distance: 30),
            Self.geodesic.direct(from: kerbMiddle, azimuth: 0, distance: 30),
        ]
        let zones = ZoneLocator(
            features: [Feature(id: "k1", geometry: .lineString(kerb))], toleranceMetres: 10, zoneOf: { _ in "orange" })
        query = ParkQuery(
            tariffs: tariffs, sectors: SectorLookup(layer: layer, geodesic: Self.geodesic), zones: zones)
    }

    @Test func theKerbGivesTheZoneAndTheSectorGivesTheResidents() throws {
        let time = try #require(try tariffs.clock.parse("2026-11-23T10:00"))
        let (answer, quote) = try query.answer(
            at: Self.car, time: time, zoneID: nil, request: .amount(Money(cents: 300)), language: .en)
        #expect(answer.sector.layer == "sectors" && answer.sector.id == "2" && !answer.sector.approximate)
        #expect(answer.zone?.id == "orange" && answer.zone?.source == "zone-layer")
        #expect(abs(try #require(answer.zone?.distanceMetres) - 4) < 0.01)
        // SPEC: orange zone, 3.00 € buys 300 minutes; 10:00–14:00 is 240, the other 60 from 16:00.
        #expect(quote?.minutes == 300)
        #expect(answer.ticket?.end == "2026-11-23T17:00:00+01:00")
        #expect(answer.residents.first == "Residents of sector 2 with a card, no ticket, no limit.")
        #expect(!answer.messages.contains { $0.localizedCaseInsensitiveContains("approximate") })
    }

    @Test func farFromAnyKerbTheZoneIsNotGuessed() throws {
        let time = try #require(try tariffs.clock.parse("2026-11-23T10:00"))
        let away = Self.geodesic.direct(from: Self.car, azimuth: 270, distance: 200)
        let (answer, _) = try query.answer(at: away, time: time, zoneID: nil, request: nil, language: .en)
        #expect(answer.sector.id == "2")
        #expect(answer.zone == nil)
        #expect(answer.notes.contains { $0.contains("10 m") })
    }
}
