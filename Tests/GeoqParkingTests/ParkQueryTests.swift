import Foundation
import GeoqCore
import GeoqLayers
import GeoqPROJ
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTariffs
import GeoqTestSupport
import Testing

/// The join of the real (approximate) Pamplona sector layer with the Pamplona tariff file.
@Suite struct ParkQueryTests {
    let tariffs: CityTariffs
    let sectors: SectorLookup
    let query: ParkQuery

    init() throws {
        let pamplona = try PamplonaParking()
        (tariffs, sectors) = (pamplona.tariffs, pamplona.sectors)
        query = ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil)
    }

    func at(_ text: String) throws -> Date { try #require(try tariffs.clock.parse(text)) }

    @Test func ensancheOrangeWithATicket() throws {
        let (answer, quote) = try query.answer(
            at: Point(latitude: 42.81, longitude: -1.64), time: at("2026-11-23T10:00"), zoneID: "naranja",
            request: .amount(Money(cents: 300)), language: .es)
        #expect(answer.sector.id == "2" && answer.sector.approximate)
        #expect(answer.zone?.id == "orange" && answer.zone?.source == "argument")
        #expect(answer.regulation.regulated && answer.regulation.until == "2026-11-23T14:00:00+01:00")
        #expect(quote?.minutes == 300)
        // 10:00–14:00 is 240 min; the other 60 run from 16:00.
        #expect(answer.ticket?.end == "2026-11-23T17:00:00+01:00")
        #expect(answer.maxStay?.minutes == 570 && answer.maxStay?.amount == "4.35")
        // Sector 1's residents may use sector 2's orange zone.
        #expect(
            answer.residents == [
                "Residentes del sector 2 con tarjeta, sin tique y sin límite.",
                "Los residentes del sector 1 (Casco Antiguo) también pueden aparcar aquí como residentes.",
            ])
        #expect(answer.messages.contains { $0.hasPrefix("Sector aproximado:") })
    }

    @Test func cascoAntiguoRedZoneResidentsPay() throws {
        let (answer, _) = try query.answer(
            at: Point(latitude: 42.8169, longitude: -1.6440), time: at("2026-11-23T10:00"), zoneID: "red",
            request: nil, language: .en)
        #expect(answer.sector.id == "1")
        #expect(answer.residents == ["Residents must buy a ticket too."])
        #expect(answer.ticket == nil)
    }

    @Test func withoutAZoneEveryZoneIsExplainedAndNoTicketIsPriced() throws {
        let (answer, quote) = try query.answer(
            at: Point(latitude: 42.8169, longitude: -1.6440), time: at("2026-12-03T10:00"), zoneID: nil,
            request: .minutes(30), language: .en)
        #expect(quote == nil && answer.zone == nil)
        #expect(!answer.regulation.regulated && answer.regulation.reason == "holiday")
        #expect(answer.regulation.until == "2026-12-04T08:30:00+01:00")
        #expect(answer.residents.count == 4)
        #expect(answer.notes.first?.hasPrefix("Zone unknown") == true)
    }

    @Test func outsideEverySectorSaysSo() throws {
        // Pamplona's bus station area (Yanguas y Miranda) lies outside the three approximated sectors.
        let (answer, _) = try query.answer(
            at: Point(latitude: 42.8125, longitude: -1.6620), time: at("2026-11-23T10:00"), zoneID: "blue",
            request: nil, language: .es)
        #expect(answer.sector.id == nil && answer.sector.nearestID != nil)
        #expect(answer.residents == ["Este punto no está en ningún sector de residentes."])
    }

    @Test func theZoneLayerGivesTheZoneWhenNoneIsGiven() throws {
        let spot = Point(latitude: 42.8169, longitude: -1.6440)
        let kerb = ZoneLocator(
            segments: [
                .init(
                    zone: "blue", featureID: "k1", a: Point(latitude: 42.8168, longitude: -1.64405),
                    b: Point(latitude: 42.8170, longitude: -1.64405))
            ], toleranceMetres: 10)
        let query = ParkQuery(tariffs: tariffs, sectors: sectors, zones: kerb)
        let (answer, quote) = try query.answer(
            at: spot, time: at("2026-11-23T13:50"), zoneID: nil, request: .minutes(30), language: .es)
        #expect(answer.zone?.id == "blue" && answer.zone?.source == "zone-layer")
        #expect(abs(answer.zone!.distanceMetres! - 4.09) < 0.01)
        #expect(quote?.amount.decimal == "0.60")
        #expect(answer.ticket?.end == "2026-11-23T16:20:00+01:00")
    }
}
