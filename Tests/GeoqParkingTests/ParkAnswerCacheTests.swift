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

/// A park answer whose tariff part comes from ``ParkAnswerCache`` is byte for byte the answer
/// computed without it: the oracle is the same query without a cache, over the real Pamplona
/// sectors and tariffs, at the instants where a too coarse key would show (the regulation's
/// first and last minutes, midnight, the days the clocks change, the holidays of SPEC §1).
@Suite struct ParkAnswerCacheTests {
    let tariffs: CityTariffs
    let sectors: SectorLookup

    init() throws {
        let pamplona = try PamplonaParking()
        (tariffs, sectors) = (pamplona.tariffs, pamplona.sectors)
    }

    /// Over tariffs and sectors already read (for the suites that ask the same questions).
    init(tariffs: CityTariffs, sectors: SectorLookup) { (self.tariffs, self.sectors) = (tariffs, sectors) }

    /// The days a key that ignored the date, the day's hours or the clock's offset would get
    /// wrong: SPEC §1's free days (Maundy Thursday, Holy Saturday, Easter Monday, San Fermín,
    /// San Saturnino, San Francisco Javier, Christmas, New Year), Sundays and Saturdays, and the
    /// four days the clocks change in 2026 and 2027.
    static let specialDays = [
        "2026-01-01", "2026-04-02", "2026-04-04", "2026-04-06", "2026-07-05", "2026-07-06", "2026-07-07",
        "2026-07-25", "2026-07-26", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-03", "2026-12-24",
        "2026-12-25", "2026-12-31", "2027-01-01", "2027-03-25", "2027-03-27", "2027-03-29", "2027-07-06",
        "2026-03-29", "2026-10-25", "2027-03-28", "2027-10-31", "2026-03-28", "2026-10-24",
    ]
    /// Midnight and the minutes around the regulation's ends (08:30, 14:00, 16:00, 20:00) and
    /// the clocks' change (02:00, 03:00).
    static let specialMinutes = [
        0, 1, 1439, 119, 120, 121, 179, 180, 181, 509, 510, 511, 839, 840, 841, 959, 960, 961, 1199, 1200, 1201,
    ]

    /// One question the tariff part depends on, asked by many drivers at different spots and
    /// seconds of its minute.
    struct Question {
        var minute: Date
        var zone: String?
        var request: TicketQuote.Request?
        var reminders: [Int]
        var language: Language
    }

    func questions(count: Int, using generator: inout SeededRandom) throws -> [Question] {
        let clock = tariffs.clock
        let first = try #require(CivilDate(iso: "2026-01-01"))
        var questions: [Question] = []
        while questions.count < count {
            let date =
                Bool.random(using: &generator)
                ? try #require(CivilDate(iso: Self.specialDays.randomElement(using: &generator)!))
                : first.adding(days: Int.random(in: 0..<730, using: &generator))
            let minuteOfDay =
                Bool.random(using: &generator)
                ? Self.specialMinutes.randomElement(using: &generator)!
                : Int.random(in: 0..<1440, using: &generator)
            // A minute the clocks skip has no instant; the clocks' going back gives the earlier.
            guard let minute = try? clock.instant(LocalDateTime(date: date, minuteOfDay: minuteOfDay)) else {
                continue
            }
            let zone = [nil, "blue", "orange", "red", "green", "azul"].randomElement(using: &generator)!
            let request: TicketQuote.Request? =
                [
                    nil, .minutes(1), .minutes(30), .minutes(55), .minutes(120), .minutes(570), .minutes(600),
                    .amount(Money(cents: 25)), .amount(Money(cents: 100)), .amount(Money(cents: 210)),
                    .amount(Money(cents: 435)), .amount(Money(cents: 7)),
                ].randomElement(using: &generator)!
            let reminders = [[], [5], [10, 15], [600]].randomElement(using: &generator)!
            let language = Language.allCases.randomElement(using: &generator)!
            questions.append(
                Question(minute: minute, zone: zone, request: request, reminders: reminders, language: language))
        }
        return questions
    }

    enum Outcome: Equatable {
        case answer([UInt8], priced: Bool)
        case refused(TariffError)
    }

    static func outcome(
        _ query: ParkQuery, _ question: Question, at point: Point, second: Double
    ) -> Outcome {
        do throws(TariffError) {
            let (answer, quote) = try query.answer(
                at: point, time: question.minute.addingTimeInterval(second), zoneID: question.zone,
                request: question.request, reminders: question.reminders, language: question.language)
            return .answer(JSONText.of(answer), priced: quote != nil)
        } catch {
            return .refused(error)
        }
    }

    /// Thousands of seeded requests over two years: 1,500 questions, each asked again and again
    /// from other spots (inside sectors, outside, near a kerb line) and seconds of its minute,
    /// with and without the cache, in random order.
    @Test func cachedAnswersAreTheComputedBytes() throws {
        let kerbs = ZoneLocator(
            segments: [
                .init(
                    zone: "blue", featureID: "k1", a: Point(latitude: 42.8160, longitude: -1.6450),
                    b: Point(latitude: 42.8180, longitude: -1.6450))
            ], toleranceMetres: 200)
        let cache = ParkAnswerCache(tariffs: tariffs)
        let cached = ParkQuery(cache: cache, sectors: sectors, zones: kerbs)
        let computed = ParkQuery(tariffs: tariffs, sectors: sectors, zones: kerbs)
        var generator = SeededRandom(seed: 20_261_126)
        let questions = try questions(count: 1_500, using: &generator)
        var answered = 0, refused = 0, priced = 0
        for _ in 0..<6_000 {
            let question = questions.randomElement(using: &generator)!
            let point =
                Bool.random(using: &generator)
                ? Point(latitude: generator.uniform(42.815...42.819), longitude: generator.uniform(-1.647 ... -1.643))
                : Point(latitude: generator.uniform(42.795...42.830), longitude: generator.uniform(-1.670 ... -1.625))
            // The first and last second of the minute, or any instant in it.
            let second = [0, 59.999, Double.random(in: 0..<60, using: &generator)].randomElement(using: &generator)!
            let expected = Self.outcome(computed, question, at: point, second: second)
            let got = Self.outcome(cached, question, at: point, second: second)
            guard got == expected else {
                Issue.record("the cached answer differs at \(question.minute) + \(second) s: \(question)")
                return
            }
            switch expected {
            case .answer(_, let p):
                answered += 1
                if p { priced += 1 }
            case .refused: refused += 1
            }
        }
        // Both outcomes and real reuse: far fewer parts kept than requests answered.
        #expect(answered > 3_000 && refused > 100 && priced > 1_000)
        #expect(cache.count < 1_500 && cache.count > 300)
    }

    /// The part is the minute's: asked first at the minute's last second, then at its first, the
    /// answer is the one computed at the first; the next minute is not answered from it.
    @Test func partIsTheMinutesAndNoOther() throws {
        let cache = ParkAnswerCache(tariffs: tariffs)
        let cached = ParkQuery(cache: cache, sectors: sectors, zones: nil)
        let computed = ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil)
        let spot = Point(latitude: 42.8175, longitude: -1.6440)
        // 08:29 on a Friday: free until 08:30, the first regulated minute (the same hour in UTC).
        let minute = try #require(try tariffs.clock.parse("2026-11-27T08:29"))
        func bytes(_ query: ParkQuery, _ time: Date) throws -> [UInt8] {
            JSONText.of(
                try query.answer(
                    at: spot, time: time, zoneID: "blue", request: .minutes(30), reminders: [5], language: .en
                ).answer)
        }
        let late = try bytes(cached, minute.addingTimeInterval(59.5))
        let early = try bytes(cached, minute)
        #expect(cache.count == 1)
        let computedEarly = try bytes(computed, minute)
        #expect(late == early && early == computedEarly, "the answer at the minute's last second is its first's")
        let next = try bytes(cached, minute.addingTimeInterval(60))
        #expect(cache.count == 2)
        let computedNext = try bytes(computed, minute.addingTimeInterval(60))
        #expect(next == computedNext && next != early, "the next minute is answered anew")
        let answer = try cached.answer(
            at: spot, time: minute, zoneID: "blue", request: .minutes(30), reminders: [5], language: .en
        ).answer
        #expect(!answer.regulation.regulated && answer.regulation.until == "2026-11-27T08:30:00+01:00")
        #expect(
            answer.ticket?.freeUntil == "2026-11-27T08:30:00+01:00" && answer.ticket?.end == "2026-11-27T09:00:00+01:00"
        )
    }

    /// Bounded: a full cache starts again empty and answers the same.
    @Test func fullCacheStartsAgain() throws {
        let cache = ParkAnswerCache(tariffs: tariffs, capacity: 3)
        let cached = ParkQuery(cache: cache, sectors: sectors, zones: nil)
        let computed = ParkQuery(tariffs: tariffs, sectors: sectors, zones: nil)
        let start = try #require(try tariffs.clock.parse("2026-11-23T10:00"))
        let spot = Point(latitude: 42.8175, longitude: -1.6440)
        for m in 0..<7 {
            let time = start.addingTimeInterval(TimeInterval(60 * m))
            let got = try cached.answer(at: spot, time: time, zoneID: "red", request: nil, language: .es).answer
            let expected = try computed.answer(at: spot, time: time, zoneID: "red", request: nil, language: .es).answer
            let same = JSONText.of(got) == JSONText.of(expected)
            #expect(same, "minute \(m)")
            #expect(cache.count == m % 3 + 1)
        }
    }
}
