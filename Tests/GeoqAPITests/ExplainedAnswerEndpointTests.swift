import Foundation
import GeoqAPI
import GeoqLayers
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTestSupport
import Testing

/// `/v1/tariff`, `/v1/park` and `/v1/sector` explain themselves as the CLI does: the days a
/// ticket skips with their reasons, the same reminders from both parking endpoints, and an
/// approximate layer's note in the language asked (`lang`, else `Accept-Language`).
@Suite struct ExplainedAnswerEndpointTests {
    let data: ServiceData
    init() throws { data = try ParkEndpointTests.loaded.get() }

    func query(_ pairs: [(String, String)]) -> QueryParameters {
        QueryParameters(pairs.map { (name: $0.0, value: $0.1) })
    }

    /// Saturday 28 November 2026 13:30 + 45 min ends on Tuesday 1 December at 08:45, over
    /// Sunday 29 and San Saturnino (Monday 30).
    @Test func bothEndpointsNameTheSkippedDays() throws {
        let ticket = [("zone", "blue"), ("minutes", "45"), ("reminder", "5,10,15")]
        for (language, sunday, holiday) in [
            ("es", "los domingos no hay horario regulado", "festivo: San Saturnino (trasladado al lunes)"),
            ("eu", "igandeetan ez dago ordutegi arauturik", "jaieguna: San Saturnino (astelehenera aldatua)"),
            ("en", "no regulated hours on Sundays", "public holiday: Saint Saturninus' Day (moved to Monday)"),
        ] {
            let tariff = try TariffEndpoint.answer(
                query(ticket + [("start", "2026-11-28T13:30")]), data: data, acceptLanguage: language)
            let park = try ParkEndpoint.answer(
                query(ticket + [("lat", "42.8169"), ("lon", "-1.6440"), ("at", "2026-11-28T13:30")]), data: data,
                acceptLanguage: language)
            #expect(tariff.end == "2026-12-01T08:45:00+01:00" && park.ticket?.end == tariff.end)
            let pause = try #require(tariff.pauses.first)
            #expect(pause.days.map(\.date) == ["2026-11-29", "2026-11-30"])
            #expect(pause.message.contains(sunday) && pause.message.contains(holiday), "\(pause.message)")
            #expect(park.ticket?.pauses == tariff.pauses)
            #expect(park.messages.contains(pause.message))
            #expect(park.reminders == tariff.reminders)
            #expect(park.reminders.map(\.minutesBefore) == [5, 10, 15])
            #expect(
                park.reminders.map(\.at) == [
                    "2026-12-01T08:40:00+01:00", "2026-12-01T08:35:00+01:00", "2026-12-01T08:30:00+01:00",
                ])
        }
    }

    @Test func parkWithoutATicketHasNoReminders() throws {
        let park = try ParkEndpoint.answer(
            query([("lat", "42.8169"), ("lon", "-1.6440"), ("at", "2026-11-28T13:30")]), data: data,
            acceptLanguage: nil)
        #expect(park.ticket == nil && park.reminders.isEmpty)
    }

    @Test func approximationNoteInTheAnswersLanguage() throws {
        let lookup = try #require(data.sectorLookups["pamplona-sectors"])
        let note = try #require(lookup.layer.approximation)
        #expect(note.es != nil && note.eu != nil)
        let point = [("lat", "42.81"), ("lon", "-1.64")]
        for (pairs, header, expected) in [
            (point, nil, note.en),  // English by default, as before
            (point + [("lang", "es")], nil, note.es!),
            (point, "eu-ES,eu;q=0.9,es;q=0.8", note.eu!),
            (point + [("lang", "en")], "es", note.en),
        ] as [([(String, String)], String?, String)] {
            let answer = try SectorEndpoint.answer(query(pairs), data: data, acceptLanguage: header).answer
            #expect(answer.approximation == expected)
        }
        let englishSentences = note.en.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        for language in ["es", "eu"] {
            let park = try ParkEndpoint.answer(
                query(point + [("zone", "blue"), ("minutes", "30"), ("at", "2026-11-23T10:00")]), data: data,
                acceptLanguage: language)
            let everything = park.messages + [park.sector.approximation ?? ""] + park.notes
            for sentence in englishSentences {
                #expect(!everything.contains { $0.contains(sentence) }, "\(language): \(sentence)")
            }
        }
        #expect(throws: Problem.self) {
            try SectorEndpoint.answer(query(point + [("lang", "fr")]), data: data)
        }
    }

    /// A batch's answers carry the note in the language asked, as `/v1/sector` does.
    @Test func batchAnswersInTheLanguageAsked() throws {
        let note = try #require(data.sectorLookups["pamplona-sectors"]?.layer.approximation)
        let items = try SectorBatchEndpoint.items(
            Data("{\"lat\": 42.81, \"lon\": -1.64}\n".utf8), contentType: "application/x-ndjson", maxPoints: 10)
        for (pairs, header, expected) in [
            ([], nil, note.en),
            ([("lang", "es")], nil, note.es!),
            ([], "eu", note.eu!),
        ] as [([(String, String)], String?, String)] {
            let target = try SectorBatchEndpoint.target(query(pairs), data: data, acceptLanguage: header)
            let answer = try JSONDecoder().decode(SectorAnswer.self, from: Data(target.answerLine(items[0])))
            #expect(answer.approximation == expected)
        }
        #expect(throws: Problem.self) {
            try SectorBatchEndpoint.target(query([("lang", "fr")]), data: data)
        }
    }
}
