import Foundation
import GeoqAPI
import GeoqPROJ
import GeoqParking
import GeoqSchedule
import GeoqTariffs
import GeoqTestSupport
import Testing

/// `/v1/tariff` against the figures of SPEC §1 (tariff A: 0.25 EUR for 10 min, then 3 min per
/// 0.05 EUR; max stay 2 h for 2.10 EUR in blue; paid time runs only in regulated hours).
@Suite struct TariffEndpointTests {
    static let data: ServiceData = {
        let tariffs = try! CityTariffs.load(
            city: "pamplona", dataDirectory: TestData.packageRoot.appendingPathComponent("data"))
        return ServiceData(
            sectorLookups: [:], layers: [], tariffs: ["pamplona": tariffs], tariffProblems: ["bilbao": "broken file"],
            storeFile: "", defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84,
            loadedAt: Date())
    }()

    func answer(_ pairs: [(String, String)], acceptLanguage: String? = nil) throws(Problem) -> TariffAnswer {
        try TariffEndpoint.answer(
            QueryParameters(pairs.map { (name: $0.0, value: $0.1) }), data: Self.data, acceptLanguage: acceptLanguage)
    }

    func problem(_ pairs: [(String, String)], acceptLanguage: String? = nil) -> Problem? {
        do {
            _ = try answer(pairs, acceptLanguage: acceptLanguage)
            return nil
        } catch { return error }
    }

    @Test func minutesAcrossTheLunchBreak() throws {
        let a = try answer([("zone", "blue"), ("minutes", "30"), ("start", "2026-11-23T13:50")])
        #expect(a.amount == "0.60")
        #expect(a.minutes == 31)
        #expect(a.end == "2026-11-23T16:20:00+01:00")
        #expect(a.maxStay.minutes == 120)
        #expect(a.maxStay.amount == "2.10")
        #expect(a.language == "es")
        #expect(a.zoneName == "Zona azul")
    }

    @Test func eurosAndCommaDecimals() throws {
        for euros in ["1.00", "1,00"] {
            let a = try answer([("zone", "azul"), ("euros", euros), ("start", "2026-11-23T10:00")])
            #expect(a.minutes == 55)
            #expect(a.end == "2026-11-23T10:55:00+01:00")
        }
    }

    @Test func saturdayTicketRunsOutOnMonday() throws {
        let a = try answer([("zone", "blue"), ("minutes", "60"), ("start", "2026-11-21T13:30")])
        #expect(a.end == "2026-11-23T09:00:00+01:00")
    }

    @Test func languageFromLangThenAcceptLanguageThenSpanish() throws {
        let request = [("zone", "blue"), ("minutes", "30"), ("start", "2026-11-23T13:50")]
        let basque = try answer(request, acceptLanguage: "eu-ES,eu;q=0.9,es;q=0.8")
        #expect(basque.language == "eu")
        #expect(basque.zoneName == "Gune urdina")
        let english = try answer(request, acceptLanguage: "fr-FR, en;q=0.5")
        #expect(english.language == "en")
        #expect(english.zoneName == "Blue zone")
        #expect(try answer(request, acceptLanguage: "fr, de").language == "es")
        #expect(try answer(request + [("lang", "en")], acceptLanguage: "eu").language == "en")
        #expect(basque.messages != english.messages)
        #expect(problem(request + [("lang", "fr")])?.parameter == "lang")
    }

    @Test func refusalsAre422WithTheRulesCodeInTheAskersLanguage() throws {
        let beyond = try #require(
            problem([("zone", "blue"), ("minutes", "121"), ("start", "2026-11-23T10:00")], acceptLanguage: "en"))
        #expect(beyond.status == 422)
        #expect(beyond.code == "beyond-max-stay")
        #expect(beyond.parameter == "minutes")
        #expect(beyond.detail.contains("2.10") || beyond.detail.contains("2,10"))
        let english = beyond.detail
        let spanish = try #require(problem([("zone", "blue"), ("minutes", "121"), ("start", "2026-11-23T10:00")]))
        #expect(spanish.detail != english)

        let coin = try #require(problem([("zone", "blue"), ("euros", "2.12"), ("start", "2026-11-23T10:00")]))
        #expect(coin.status == 422)
        #expect(coin.code == "amount-not-multiple-of-coin")
        #expect(coin.parameter == "euros")
        let minimum = try #require(problem([("zone", "blue"), ("euros", "0.20"), ("start", "2026-11-23T10:00")]))
        #expect(minimum.code == "amount-below-minimum")
        let reminder = try #require(
            problem([("zone", "blue"), ("minutes", "30"), ("start", "2026-11-23T10:00"), ("reminder", "45")]))
        #expect(reminder.status == 422)
        #expect(reminder.parameter == "reminder")
    }

    @Test func badRequestsNameTheParameter() {
        let cases: [([(String, String)], status: Int, parameter: String)] = [
            ([("minutes", "30")], 400, "zone"),
            ([("zone", "blue")], 400, "minutes"),
            ([("zone", "blue"), ("minutes", "30"), ("euros", "1.00")], 400, "euros"),
            ([("zone", "blue"), ("euros", "one euro")], 400, "euros"),
            ([("zone", "blue"), ("minutes", "x")], 400, "minutes"),
            ([("zone", "blue"), ("minutes", "0")], 400, "minutes"),
            ([("zone", "blue"), ("minutes", "30"), ("start", "tomorrow")], 400, "start"),
            ([("zone", "blue"), ("minutes", "30"), ("start", "2026-03-29T02:30")], 400, "start"),
            ([("zone", "blue"), ("minutes", "30"), ("reminder", "5,,10")], 400, "reminder"),
            ([("zone", "purple"), ("minutes", "30")], 404, "zone"),
            ([("zone", "blue"), ("minutes", "30"), ("city", "madrid")], 404, "city"),
            ([("zone", "blue"), ("minutes", "30"), ("zone", "red")], 400, "zone"),
            ([("zone", "blue"), ("minutes", "30"), ("lat", "42.8")], 400, "lat"),
        ]
        for (pairs, status, parameter) in cases {
            let p = problem(pairs)
            #expect(p?.status == status, "\(pairs)")
            #expect(p?.parameter == parameter, "\(pairs): \(p?.detail ?? "answered")")
        }
        // A city whose file is present but broken is the service's fault.
        #expect(problem([("zone", "blue"), ("minutes", "30"), ("city", "bilbao")])?.status == 500)
    }

    @Test func withoutStartTheTicketStartsNow() throws {
        let now = try #require(try Self.data.tariffs["pamplona"]?.clock.parse("2026-11-23T10:00"))
        let a = try TariffEndpoint.answer(
            QueryParameters([(name: "zone", value: "blue"), (name: "minutes", value: "10")]), data: Self.data,
            acceptLanguage: nil, now: now)
        #expect(a.start == "2026-11-23T10:00:00+01:00")
        #expect(a.amount == "0.25")
    }
}
