import Foundation
import GeoqCore
import GeoqJSON
import GeoqLayers
import GeoqPROJ
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTariffs
import GeoqTestSupport
import Testing

/// The park answer's `JSONText` is the bytes JSONEncoder writes (sorted keys, slashes
/// unescaped), which the service sent before: JSONEncoder is the oracle, over thousands of real
/// answers of the Pamplona sectors and tariffs (seeded, so that a failure replays).
@Suite struct ParkAnswerJSONTextTests {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    let tariffs: CityTariffs
    let sectors: SectorLookup

    init() throws {
        let pamplona = try PamplonaParking()
        (tariffs, sectors) = (pamplona.tariffs, pamplona.sectors)
    }

    /// A kerb line by the Casco Antiguo, so that some zones come from the zone layer with their
    /// distance.
    static let kerbs = ZoneLocator(
        segments: [
            .init(
                zone: "blue", featureID: "k1", a: Point(latitude: 42.8160, longitude: -1.6450),
                b: Point(latitude: 42.8180, longitude: -1.6450))
        ], toleranceMetres: 200)

    /// Spots inside and around the sectors, every zone (or none, or one found on a kerb line),
    /// tickets by minutes and by euros with reminders, times over two years (Sundays, holidays,
    /// San Fermín, nights), in the three languages.
    @Test func realAnswersAsJSONEncoderWritesThem() throws {
        let kerbs = Self.kerbs
        let plain = ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil)
        let withKerbs = ParkQuery(tariffs: tariffs, sectors: sectors, zones: kerbs)
        let start = try #require(try tariffs.clock.parse("2026-01-01T00:00")).timeIntervalSince1970
        var generator = SeededRandom(seed: 20_261_125)
        var answers: [ParkAnswer] = []
        var refused = 0
        while answers.count < 3_000 {
            let nearKerb = Bool.random(using: &generator)
            let point =
                nearKerb
                ? Point(latitude: generator.uniform(42.815...42.819), longitude: generator.uniform(-1.647 ... -1.643))
                : Point(latitude: generator.uniform(42.795...42.830), longitude: generator.uniform(-1.670 ... -1.625))
            let zone = [nil, "blue", "orange", "red", "green", "azul"][Int.random(in: 0..<6, using: &generator)]
            var request: TicketQuote.Request?
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: request = .minutes(Int.random(in: 1...600, using: &generator))
            case 1: request = .amount(Money(cents: 5 * Int.random(in: 5...90, using: &generator)))
            default: request = nil
            }
            let reminders = [[], [5], [10, 15]][Int.random(in: 0..<3, using: &generator)]
            let time = Date(
                timeIntervalSince1970: start + Double(Int.random(in: 0..<(2 * 365 * 86_400), using: &generator)))
            let language = [Language.es, .eu, .en][Int.random(in: 0..<3, using: &generator)]
            let query = nearKerb ? withKerbs : plain
            do {
                let (answer, _) = try query.answer(
                    at: point, time: time, zoneID: zone, request: request, reminders: reminders, language: language)
                answers.append(answer)
            } catch {
                // A ticket the tariff refuses (green zone, more than the max stay): no answer.
                refused += 1
            }
        }
        // Each optional member both present and absent somewhere, so that both ways are compared.
        #expect(answers.contains { $0.ticket?.freeUntil != nil } && answers.contains { $0.ticket?.freeUntil == nil })
        #expect(answers.contains { $0.ticket?.requestedMinutes != nil })
        #expect(answers.contains { $0.zone?.distanceMetres != nil } && answers.contains { $0.zone == nil })
        #expect(answers.contains { $0.sector.id == nil } && answers.contains { $0.sector.id != nil })
        #expect(answers.contains { !$0.reminders.isEmpty } && answers.contains { $0.maxStay == nil })
        let reasons = answers.flatMap { $0.ticket?.pauses ?? [] }.flatMap(\.days).flatMap(\.reasons)
        #expect(Set(reasons.map(\.kind)) == ["no-hours-today", "holiday", "exemption"])
        #expect(refused < answers.count)
        for answer in answers {
            let expected = try Self.encoder().encode(answer)
            guard JSONText.of(answer) == Array(expected) else {
                Issue.record("differs from JSONEncoder: \(String(decoding: expected, as: UTF8.self))")
                return
            }
        }
    }

    /// Text that needs escapes and numbers of every size, in members real answers keep plain:
    /// a real answer (a ticket paused over a Sunday) with its text and numbers replaced.
    @Test func answerWithAwkwardTextAsJSONEncoderWritesIt() throws {
        let query = ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil)
        var (answer, _) = try query.answer(
            at: Point(latitude: 42.81, longitude: -1.64),
            time: try #require(try tariffs.clock.parse("2026-11-21T13:30")),
            zoneID: "blue", request: .minutes(60), reminders: [5], language: .es)
        var ticket = try #require(answer.ticket)
        #expect(ticket.pauses.contains { !$0.days.isEmpty })
        for p in ticket.pauses.indices {
            ticket.pauses[p].message = "line\nbreak\ttab \\ back \"quoted\" a/b"
            for d in ticket.pauses[p].days.indices {
                ticket.pauses[p].days[d].message = "\u{1}\u{1f}\u{7f} 😀 €"
                for r in ticket.pauses[p].days[d].reasons.indices {
                    ticket.pauses[p].days[d].reasons[r].name = "San \"Fermín\""
                    ticket.pauses[p].days[d].reasons[r].calendar = "es/nc"
                    ticket.pauses[p].days[d].reasons[r].rule = "Jul 06-Jul 25 off"
                    ticket.pauses[p].days[d].reasons[r].weekday = "\u{2028}"
                }
            }
        }
        ticket.freeUntil = nil
        ticket.requestedMinutes = nil
        answer.ticket = ticket
        answer.query.latitude = -0.0
        answer.query.longitude = 1e-7
        answer.sector.distanceToEdgeMetres = 1e21
        answer.sector.nearestID = "\u{0}"
        answer.zone?.name = "Zona\razul"
        answer.zone?.distanceMetres = 0.1 + 0.2
        answer.regulation.until = nil
        answer.whoMayPark = nil
        answer.notes = ["\u{2028}", ""]
        answer.messages = []
        #expect(JSONText.of(answer) == Array(try Self.encoder().encode(answer)))
    }
}
