import Foundation
import GeoqSchedule
import GeoqTestSupport
import Testing

/// A schedule keeps each day's open ranges once worked out: what it answers is what the hours
/// and the calendar say, worked out anew, for every day of two years asked in any order and
/// again; a day it cannot answer is refused each time; and the days kept are no part of the
/// schedule's value.
@Suite struct OpenRangesByDayTests {
    static func computed(_ schedule: Schedule, _ date: CivilDate) throws -> [Range<Int>] {
        try schedule.hours.openRanges(on: date) { (day) throws(ScheduleError) in
            try schedule.calendar.isHoliday(day)
        }
    }

    @Test func everyDayOfTwoYearsAsComputed() throws {
        let schedule = Schedule(hours: try OpeningHours(Pamplona.regulatedHours), calendar: Pamplona.calendar)
        let first = date("2026-01-01")
        var days = (0..<730).map { first.adding(days: $0) }
        var generator = SeededRandom(seed: 20_261_127)
        for round in 0..<2 {
            days.shuffle(using: &generator)
            for day in days {
                let kept = try schedule.openRanges(on: day)
                guard try kept == Self.computed(schedule, day) else {
                    Issue.record("\(day), round \(round): \(kept)")
                    return
                }
            }
        }
        // SPEC §1: a Monday, a Saturday, and free days (Sunday, San Francisco Javier, Holy
        // Saturday, San Fermín).
        #expect(try schedule.openRanges(on: date("2026-11-23")) == [510..<840, 960..<1200])
        #expect(try schedule.openRanges(on: date("2026-11-28")) == [510..<840])
        for free in ["2026-11-29", "2026-12-03", "2026-04-04", "2026-07-10"] {
            #expect(try schedule.openRanges(on: date(free)).isEmpty, "\(free)")
        }
    }

    @Test func aDayOutsideTheCalendarIsRefusedEachTime() throws {
        let schedule = Schedule(hours: try OpeningHours(Pamplona.regulatedHours), calendar: Pamplona.calendar)
        let outside = try #require(CivilDate(year: schedule.calendar.covers.upperBound + 1, month: 12, day: 25))
        for _ in 0..<2 {
            #expect(throws: ScheduleError.self) { try schedule.openRanges(on: outside) }
        }
    }

    @Test func keptDaysAreNoPartOfTheValue() throws {
        let used = Schedule(hours: try OpeningHours(Pamplona.regulatedHours), calendar: Pamplona.calendar)
        _ = try used.openRanges(on: date("2026-11-23"))
        let fresh = Schedule(hours: try OpeningHours(Pamplona.regulatedHours), calendar: Pamplona.calendar)
        #expect(used == fresh && used.hashValue == fresh.hashValue)
        let other = Schedule(hours: try OpeningHours("Mo-Fr 09:00-14:00"), calendar: Pamplona.calendar)
        #expect(used != other)
    }
}
