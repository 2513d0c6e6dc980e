import Foundation
import GeoqSchedule
import Testing

@Suite struct CivilDateTests {
    @Test func dayNumbersRoundTripAndWeekdays() {
        #expect(CivilDate(year: 1970, month: 1, day: 1)!.dayNumber == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1)!.dayNumber == 11_017)
        #expect(CivilDate(year: 1969, month: 12, day: 31)!.dayNumber == -1)
        #expect(CivilDate(year: 2026, month: 11, day: 22)!.dayNumber == 20_779)  // date -u -d 2026-11-22 +%s, / 86,400
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(dayNumber: n).dayNumber == n)
        }
        // Weekdays written out from a printed calendar.
        #expect(date("2026-11-22").weekday == .sunday)
        #expect(date("2026-12-03").weekday == .thursday)
        #expect(date("2024-02-29").weekday == .thursday)
        #expect(date("1970-01-01").weekday == .thursday)
    }

    @Test func refusesDaysThatDoNotExist() {
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2026, month: 4, day: 31) == nil)
        #expect(CivilDate(iso: "2026-13-01") == nil)
        #expect(CivilDate(iso: "2026-1-01") == nil)
    }

    @Test func wallClockArithmetic() {
        #expect(LocalDateTime(date: date("2026-11-23"), minute: 1440 + 30).description == "2026-11-24T00:30")
        #expect(LocalDateTime(date: date("2026-11-23"), minute: -30).description == "2026-11-22T23:30")
    }
}
