import Foundation
import GeoqCore
import GeoqJSON
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTariffs
import GeoqTestSupport
import Testing

/// `ParkQuery.answerText` (the answer written from the parts kept written) is byte for byte the
/// answer's JSONText, which is JSONEncoder's text: the oracle is the same question answered as a
/// value without any cache, over the real Pamplona sectors and tariffs, with and without a cache,
/// at the instants where a part kept too long or shared too widely would show.
@Suite struct ParkAnswerTextTests {
    let tariffs: CityTariffs
    let sectors: SectorLookup
    /// A kerb line by the Casco Antiguo, so that some zones come from the zone layer.
    let kerbs = ParkAnswerJSONTextTests.kerbs

    init() throws {
        let pamplona = try PamplonaParking()
        (tariffs, sectors) = (pamplona.tariffs, pamplona.sectors)
    }

    enum Outcome: Equatable {
        case answer([UInt8], priced: Bool)
        case refused(TariffError)
    }

    typealias Question = ParkQuestion

    /// The value's JSONText, computed anew.
    static func expected(_ query: ParkQuery, _ q: Question) -> Outcome {
        do throws(TariffError) {
            let (answer, quote) = try query.answer(
                at: q.point, time: q.time, zoneID: q.zone, request: q.request, reminders: q.reminders,
                language: q.language)
            return .answer(JSONText.of(answer), priced: quote != nil)
        } catch {
            return .refused(error)
        }
    }

    static func written(_ query: ParkQuery, _ q: Question) -> Outcome {
        do throws(TariffError) {
            let (text, priced) = try query.answerText(
                at: q.point, time: q.time, zoneID: q.zone, request: q.request, reminders: q.reminders,
                language: q.language)
            return .answer(text.bytes, priced: priced)
        } catch {
            return .refused(error)
        }
    }

    /// Seeded questions over two years (those of ParkAnswerCacheTests: its days and minutes,
    /// every zone, none and a zone's Spanish name, tickets the tariff prices and refuses), each
    /// at any second of its minute, its first or its last, at a spot inside or outside the
    /// sectors or by the kerb line.
    func questions(count: Int, using generator: inout SeededRandom) throws -> [Question] {
        let cache = ParkAnswerCacheTests(tariffs: tariffs, sectors: sectors)
        return try cache.questions(count: count, using: &generator).map { asked in
            let second = [0, 59.999, Double.random(in: 0..<60, using: &generator)].randomElement(using: &generator)!
            let point =
                Bool.random(using: &generator)
                ? Point(latitude: generator.uniform(42.815...42.819), longitude: generator.uniform(-1.647 ... -1.643))
                : Point(latitude: generator.uniform(42.795...42.830), longitude: generator.uniform(-1.670 ... -1.625))
            return Question(
                point: point, time: asked.minute.addingTimeInterval(second), zone: asked.zone,
                request: asked.request, reminders: asked.reminders, language: asked.language)
        }
    }

    /// 5,000 seeded questions, a third of them asked again later (another spot, another second
    /// of the same minute), through one cache in random order; the uncached text too.
    @Test func writtenAnswersAreTheAnswersBytes() throws {
        let cache = ParkAnswerCache(tariffs: tariffs)
        let cached = ParkQuery(cache: cache, sectors: sectors, zones: kerbs)
        let computed = ParkQuery(tariffs: tariffs, sectors: sectors, zones: kerbs)
        let uncached = ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil)
        var generator = SeededRandom(seed: 20_261_127)
        var questions = try questions(count: 3_500, using: &generator)
        for _ in 0..<1_500 {
            var again = questions.randomElement(using: &generator)!
            let minute = (again.time.timeIntervalSince1970 / 60).rounded(.down) * 60
            again.time = Date(timeIntervalSince1970: minute + Double.random(in: 0..<60, using: &generator))
            again.point = Point(
                latitude: generator.uniform(42.795...42.830), longitude: generator.uniform(-1.670 ... -1.625))
            questions.append(again)
        }
        questions.shuffle(using: &generator)
        var answered = 0, refused = 0, outside = 0, inside = 0
        for question in questions {
            let expected = Self.expected(computed, question)
            let got = Self.written(cached, question)
            guard got == expected else {
                Issue.record("the written answer differs: \(question)")
                return
            }
            // Without zone lines (the note that none is loaded) and without a cache.
            guard Self.written(uncached, question) == Self.expected(uncached, question) else {
                Issue.record("the uncached written answer differs: \(question)")
                return
            }
            switch expected {
            case .answer(let bytes, _):
                answered += 1
                let answer = try JSONDecoder().decode(ParkAnswer.self, from: Data(bytes))
                if answer.sector.id == nil { outside += 1 } else { inside += 1 }
            case .refused: refused += 1
            }
        }
        #expect(
            answered > 2_500 && refused > 1_000 && outside > 1_000 && inside > 1_000,
            "\(answered) answered (\(inside) inside, \(outside) outside), \(refused) refused")
        #expect(cache.count > 300 && cache.count < 3_500, "parts reused: \(cache.count)")
    }

    /// The written text is also JSONEncoder's, for answers with every optional member present
    /// and absent (a zone from the kerb line with its distance, a provisional calendar, pauses).
    @Test func writtenAnswersAreJSONEncodersText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let cached = ParkQuery(cache: ParkAnswerCache(tariffs: tariffs), sectors: sectors, zones: kerbs)
        var generator = SeededRandom(seed: 20_261_128)
        var kinds = Set<String>()
        for question in try questions(count: 1_500, using: &generator) {
            guard
                let (answer, _) = try? cached.answer(
                    at: question.point, time: question.time, zoneID: question.zone, request: question.request,
                    reminders: question.reminders, language: question.language)
            else { continue }
            let text = try cached.answerText(
                at: question.point, time: question.time, zoneID: question.zone, request: question.request,
                reminders: question.reminders, language: question.language
            ).text.bytes
            guard text == Array(try encoder.encode(answer)) else {
                Issue.record("differs from JSONEncoder: \(question)")
                return
            }
            if answer.zone?.distanceMetres != nil { kinds.insert("zone from the kerb line") }
            if answer.zone == nil { kinds.insert("no zone") }
            if answer.provisionalCalendar { kinds.insert("provisional") }
            if answer.ticket?.pauses.isEmpty == false { kinds.insert("pauses") }
            if !answer.reminders.isEmpty { kinds.insert("reminders") }
            if answer.maxStay == nil { kinds.insert("no max stay") }
        }
        #expect(
            kinds == [
                "zone from the kerb line", "no zone", "provisional", "pauses", "reminders", "no max stay",
            ])
    }

    /// Across a minute's end: asked at the last millisecond of 08:29 and then at 08:30:00 (the
    /// regulation's first minute) and 13:59:59.999 and 14:00 (its pause), each text is the one
    /// computed for its own minute, the earlier minute's part never reused for the next.
    @Test func minuteBoundaries() throws {
        let cache = ParkAnswerCache(tariffs: tariffs)
        let cached = ParkQuery(cache: cache, sectors: sectors, zones: kerbs)
        let computed = ParkQuery(tariffs: tariffs, sectors: sectors, zones: kerbs)
        let spots = [Point(latitude: 42.8175, longitude: -1.6440), Point(latitude: 42.80, longitude: -1.66)]
        for wall in ["2026-11-27T08:29", "2026-11-27T13:59", "2026-10-24T23:59", "2026-03-29T01:59"] {
            let minute = try #require(try tariffs.clock.parse(wall))
            var texts: [[UInt8]] = []
            for offset in [59.999, 60, 0, 119.999] {
                for spot in spots {
                    for zone in [nil, "blue"] {
                        let question = Question(
                            point: spot, time: minute.addingTimeInterval(offset), zone: zone, request: .minutes(30),
                            reminders: [5], language: .en)
                        let expected = Self.expected(computed, question)
                        #expect(Self.written(cached, question) == expected, "\(question)")
                        if case .answer(let bytes, _) = expected, spot == spots[0], zone == "blue" {
                            texts.append(bytes)
                        }
                    }
                }
            }
            // The last second of the minute and the next minute say different things (the time
            // asked at least), the minute's first and last the same.
            #expect(texts.count == 4 && texts[0] != texts[1] && texts[0] == texts[2] && texts[1] == texts[3], "\(wall)")
        }
    }

    /// Changed tariffs (a reload) come with their own cache: a query over them (the zone's
    /// sentences, its max stay changed) writes their text, whatever the previous tariffs' cache
    /// kept for the same question.
    @Test func changedTariffsAreAnsweredWithTheirText() throws {
        var changed = tariffs
        let blue = try #require(changed.zones.firstIndex { $0.id == "blue" })
        changed.zones[blue].whoMayPark = LocalizedText(
            es: "Solo con tique.", eu: "Txartelarekin bakarrik.", en: "With a ticket only.")
        changed.zones[blue].maxStayMinutes = 90
        let before = ParkQuery(cache: ParkAnswerCache(tariffs: tariffs), sectors: sectors, zones: nil)
        let after = ParkQuery(cache: ParkAnswerCache(tariffs: changed), sectors: sectors, zones: nil)
        let question = Question(
            point: Point(latitude: 42.8175, longitude: -1.6440),
            time: try #require(try tariffs.clock.parse("2026-11-23T10:00")), zone: "blue", request: .minutes(30),
            reminders: [], language: .en)
        let old = Self.written(before, question)
        let new = Self.written(after, question)
        #expect(old == Self.expected(ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil), question))
        #expect(new == Self.expected(ParkQuery(tariffs: changed, sectors: sectors, zones: nil), question))
        guard case .answer(let bytes, _) = new else {
            Issue.record("no answer")
            return
        }
        let answer = try JSONDecoder().decode(ParkAnswer.self, from: Data(bytes))
        #expect(answer.whoMayPark == "With a ticket only." && answer.maxStay?.minutes == 90)
        #expect(old != new)
    }
}
