import Foundation
import GeoqSchedule
import Testing

@Suite struct ScheduleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var start: String
        var minutes: Int
        var countingFrom: String
        var end: String
        var testDescription: String { "\(start) + \(minutes) min" }
    }

    /// SPEC §1: paid time only runs while the zone is regulated.
    static let cases: [Case] = [
        Case(start: "2026-11-23 13:50", minutes: 30, countingFrom: "2026-11-23 13:50", end: "2026-11-23 16:20"),
        Case(start: "2026-11-23 13:50", minutes: 10, countingFrom: "2026-11-23 13:50", end: "2026-11-23 14:00"),
        Case(start: "2026-11-28 13:30", minutes: 60, countingFrom: "2026-11-28 13:30", end: "2026-12-01 09:00"),
        Case(start: "2026-11-21 13:30", minutes: 60, countingFrom: "2026-11-21 13:30", end: "2026-11-23 09:00"),
        // A start outside regulated hours counts from the next regulated minute.
        Case(start: "2026-11-22 12:00", minutes: 30, countingFrom: "2026-11-23 08:30", end: "2026-11-23 09:00"),
        Case(start: "2026-11-23 14:30", minutes: 120, countingFrom: "2026-11-23 16:00", end: "2026-11-23 18:00"),
        Case(start: "2026-11-23 19:00", minutes: 120, countingFrom: "2026-11-23 19:00", end: "2026-11-24 09:30"),
        // Holy week, San Fermín, the clock-change weekends.
        Case(start: "2026-04-01 19:30", minutes: 60, countingFrom: "2026-04-01 19:30", end: "2026-04-07 09:00"),
        Case(start: "2026-07-03 19:30", minutes: 60, countingFrom: "2026-07-03 19:30", end: "2026-07-04 09:00"),
        Case(start: "2026-07-04 13:45", minutes: 30, countingFrom: "2026-07-04 13:45", end: "2026-07-27 08:45"),
        Case(start: "2026-03-28 13:30", minutes: 60, countingFrom: "2026-03-28 13:30", end: "2026-03-30 09:00"),
        Case(start: "2026-10-24 13:30", minutes: 60, countingFrom: "2026-10-24 13:30", end: "2026-10-26 09:00"),
        // Orange's 9 h 30 min over a whole weekday.
        Case(start: "2026-11-23 08:30", minutes: 570, countingFrom: "2026-11-23 08:30", end: "2026-11-23 20:00"),
    ]

    @Test(arguments: cases)
    func regulatedMinutesRunOut(_ c: Case) throws {
        let span = try #require(try Pamplona.schedule.advance(from: local(c.start), openMinutes: c.minutes))
        #expect(span.countingFrom == local(c.countingFrom))
        #expect(span.end == local(c.end))
    }

    /// The clock-change weekends as instants: the wall clock is kept, the UTC offset changes.
    @Test func clockChangeWeekendsAsInstants() throws {
        let clock = Pamplona.clock
        let spring = try #require(try clock.parse("2026-03-28T13:30"))
        #expect(try spring == clock.parse("2026-03-28T12:30:00Z"))
        let springEnd = try #require(try Pamplona.schedule.advance(from: clock.local(spring), openMinutes: 60)).end
        #expect(clock.iso8601(try clock.instant(springEnd)) == "2026-03-30T09:00:00+02:00")
        #expect(try clock.instant(springEnd) == clock.parse("2026-03-30T07:00Z"))

        let autumn = try #require(try clock.parse("2026-10-24T13:30"))
        #expect(clock.iso8601(autumn) == "2026-10-24T13:30:00+02:00")
        let autumnEnd = try #require(try Pamplona.schedule.advance(from: clock.local(autumn), openMinutes: 60)).end
        #expect(clock.iso8601(try clock.instant(autumnEnd)) == "2026-10-26T09:00:00+01:00")
    }

    @Test func skippedAndRepeatedWallClockMinutes() throws {
        let clock = Pamplona.clock
        #expect(throws: ScheduleError.nonexistentLocalTime("2026-03-29T02:30", timeZone: "Europe/Madrid")) {
            try clock.parse("2026-03-29T02:30")
        }
        // 02:30 happens twice on 25 October: the earlier (summer time) instant is taken.
        #expect(try clock.parse("2026-10-25T02:30") == clock.parse("2026-10-25T00:30Z"))
        #expect(try clock.parse("2026-10-25T02:30+01:00") == clock.parse("2026-10-25T01:30Z"))
        #expect(try clock.parse("23/11/2026 13:50") == nil)
        #expect(try clock.parse("2026-11-23T13:50:00.250+01:00") == clock.parse("2026-11-23T12:50Z"))
        #expect(clock.local(try #require(try clock.parse("2026-11-23T12:50:59Z"))) == local("2026-11-23 13:50"))
    }

    @Test func acceptLanguage() {
        #expect(Language.preferred(acceptLanguage: "eu-ES,eu;q=0.9,es;q=0.8") == .eu)
        #expect(Language.preferred(acceptLanguage: "fr-FR, en;q=0.5, es;q=0.7") == .es)
        #expect(Language.preferred(acceptLanguage: "fr, de") == nil)
        #expect(Language.preferred(acceptLanguage: "en;q=0, es") == .es)
    }
}
