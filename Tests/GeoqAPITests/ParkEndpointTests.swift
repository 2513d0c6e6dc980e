import Foundation
import GeoqAPI
import GeoqJSON
import GeoqLayers
import GeoqPROJ
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTariffs
import GeoqTestSupport
import Testing

/// `/v1/park` over the real (approximate) Pamplona sector layer and the Pamplona tariff file,
/// against the figures of SPEC §1 (the same cases as `geoq park`'s ParkQueryTests).
@Suite struct ParkEndpointTests {
    /// Loaded once. Thrown, not trapped: with a wrong GEOQ_DATA_DIR each test that needs the
    /// data fails with the loader's message, and the other suites still run.
    static let loaded = Result { () throws -> ServiceData in
        let tariffs = try CityTariffs.load(
            city: "pamplona", dataDirectory: TestData.packageRoot.appendingPathComponent("data"))
        let library = try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
        let layer = try library.layer(named: tariffs.sectorLayer!)
        return ServiceData(
            sectorLookups: [layer.name: SectorLookup(layer: layer, geodesic: Geodesic.wgs84)], layers: [],
            tariffs: ["pamplona": tariffs],
            tariffProblems: ["bilbao": "broken file"], storeFile: "", defaultSectorLayer: "pamplona-sectors",
            geodesic: Geodesic.wgs84,
            loadedAt: Date())
    }

    let data: ServiceData
    init() throws { data = try Self.loaded.get() }

    func answer(
        _ pairs: [(String, String)], data: ServiceData? = nil, acceptLanguage: String? = nil
    ) throws(Problem) -> ParkAnswer {
        try ParkEndpoint.answer(
            QueryParameters(pairs.map { (name: $0.0, value: $0.1) }), data: data ?? self.data,
            acceptLanguage: acceptLanguage)
    }

    func problem(_ pairs: [(String, String)], data: ServiceData? = nil) -> Problem? {
        do {
            _ = try answer(pairs, data: data)
            return nil
        } catch { return error }
    }

    static let ensanche = [("lat", "42.81"), ("lon", "-1.64")]

    @Test func orangeZoneWithThreeEuros() throws {
        let a = try answer(Self.ensanche + [("zone", "naranja"), ("euros", "3,00"), ("at", "2026-11-23T10:00")])
        #expect(a.sector.id == "2" && a.sector.approximate)
        #expect(a.zone?.id == "orange")
        #expect(a.regulation.regulated && a.regulation.until == "2026-11-23T14:00:00+01:00")
        #expect(a.ticket?.minutes == 300)
        // 10:00–14:00 is 240 min; the other 60 run from 16:00.
        #expect(a.ticket?.end == "2026-11-23T17:00:00+01:00")
        #expect(a.maxStay?.minutes == 570 && a.maxStay?.amount == "4.35")
        #expect(a.messages.contains { $0.hasPrefix("Sector aproximado:") })
    }

    @Test func blueZoneAcrossTheLunchBreakInEnglish() throws {
        let a = try answer(
            Self.ensanche + [("zone", "blue"), ("minutes", "30"), ("at", "2026-11-23T13:50")], acceptLanguage: "en")
        #expect(a.ticket?.amount == "0.60")
        #expect(a.ticket?.end == "2026-11-23T16:20:00+01:00")
        #expect(!a.messages.contains { $0.hasPrefix("Sector aproximado:") })
    }

    @Test func justAskingGivesNoTicket() throws {
        let a = try answer([("lat", "42.8169"), ("lon", "-1.6440"), ("zone", "red"), ("at", "2026-11-23T10:00")])
        #expect(a.sector.id == "1")
        #expect(a.ticket == nil)
        let holiday = try answer([("lat", "42.8169"), ("lon", "-1.6440"), ("at", "2026-12-03T10:00")])
        #expect(!holiday.regulation.regulated && holiday.regulation.reason == "holiday")
        #expect(holiday.regulation.until == "2026-12-04T08:30:00+01:00")
    }

    @Test func badRequestsAndRefusals() {
        let cases: [([(String, String)], Int, String?)] = [
            ([("lon", "-1.64")], 400, "lat"),
            (Self.ensanche + [("at", "tomorrow")], 400, "at"),
            (Self.ensanche + [("minutes", "30"), ("at", "2026-11-23T10:00")], 400, "zone"),
            (Self.ensanche + [("zone", "blue"), ("minutes", "30"), ("euros", "1")], 400, "euros"),
            (Self.ensanche + [("zone", "blue"), ("reminder", "5,,10")], 400, "reminder"),
            (Self.ensanche + [("zone", "purple")], 404, "zone"),
            (Self.ensanche + [("city", "madrid")], 404, "city"),
            (Self.ensanche + [("zone", "blue"), ("euros", "2.15"), ("at", "2026-11-23T10:00")], 422, "euros"),
            (Self.ensanche + [("city", "bilbao")], 500, nil),
        ]
        for (pairs, status, parameter) in cases {
            let p = problem(pairs)
            #expect(p?.status == status, "\(pairs): \(String(describing: p?.detail))")
            #expect(p?.parameter == parameter, "\(pairs)")
        }
        // The zone the API needs is named as the API takes it (the same message serves the CLI).
        let zoneNeeded = problem(Self.ensanche + [("minutes", "30"), ("at", "2026-11-23T10:00")])
        #expect(zoneNeeded?.detail.contains("zone=") == true, "\(String(describing: zoneNeeded?.detail))")
        let noSectors = ServiceData(
            sectorLookups: [:], layers: [], tariffs: data.tariffs, storeFile: "",
            defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84,
            loadedAt: Date())
        #expect(problem(Self.ensanche, data: noSectors)?.status == 500)
    }
    /// A reload makes a new snapshot, and other tariffs in it answer at once: no tariff part
    /// kept by the previous snapshot for the same minute, zone and ticket is given again, and the
    /// new snapshot's answers, asked twice, are those of a snapshot that kept nothing yet.
    @Test func reloadedTariffsAnswerAnew() throws {
        var other = try #require(data.tariffs["pamplona"])
        let blue = try #require(other.zones.firstIndex { $0.id == "blue" })
        other.zones[blue].maxStayMinutes = 90
        other.exemptionNames["Jul 06-Jul 25 off"] = LocalizedText(es: "Fiestas", eu: "Jaiak", en: "Festival")
        func snapshot() -> ServiceData {
            ServiceData(
                sectorLookups: data.sectorLookups, layers: [], tariffs: ["pamplona": other], storeFile: "",
                defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84, loadedAt: Date())
        }
        let reloaded = snapshot()
        let ticket = Self.ensanche + [("zone", "blue"), ("minutes", "60"), ("at", "2026-11-23T10:00")]
        let sanFermin = Self.ensanche + [("zone", "blue"), ("at", "2026-07-10T10:00")]
        for ask in [ticket, sanFermin] {
            let before = try answer(ask)
            #expect(before.maxStay?.minutes == 120)
            let after = try answer(ask, data: reloaded)
            #expect(after.maxStay?.minutes == 90)
            let again = try answer(ask, data: reloaded)
            let fresh = try answer(ask, data: snapshot())
            #expect(JSONText.of(again) == JSONText.of(after) && JSONText.of(fresh) == JSONText.of(after))
        }
        let festival = try answer(sanFermin, data: reloaded).regulation.message
        #expect(festival == "Gratis: día exento por la tarifa (Fiestas); regulado de nuevo el lunes 27/07/2026 08:30.")
        let previous = try answer(sanFermin).regulation.message
        #expect(previous.contains("San Fermín"))
        let longer = Self.ensanche + [("zone", "blue"), ("minutes", "100"), ("at", "2026-11-23T10:00")]
        let longerBefore = try answer(longer)
        #expect(longerBefore.ticket?.minutes == 100)
        #expect(problem(longer, data: reloaded)?.status == 422)
    }
}
