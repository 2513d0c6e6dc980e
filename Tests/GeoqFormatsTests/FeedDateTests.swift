import Foundation
import GeoqFormats
import GeoqTestSupport
import Testing

/// Feed dates against Foundation's Gregorian calendar, a second implementation of the same
/// calendar arithmetic.
@Suite struct FeedDateTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    @Test func seededDatesAgreeWithTheCalendar() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<2000 {
            let year = Int.random(in: 1583...2400, using: &rng), month = Int.random(in: 1...12, using: &rng)
            let day = Int.random(in: 1...31, using: &rng), hour = Int.random(in: 0...23, using: &rng)
            let minute = Int.random(in: 0...59, using: &rng), second = Int.random(in: 0...59, using: &rng)
            let offset = Int.random(in: -12...14, using: &rng) * 60 + [0, 30, 45].randomElement(using: &rng)!
            let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            let calendarDate = Self.utc.date(from: parts).flatMap {
                Self.utc.component(.day, from: $0) == day ? $0.addingTimeInterval(TimeInterval(-offset * 60)) : nil
            }
            let sign = offset < 0 ? "-" : "+"
            let zone = sign + String(format: "%02d:%02d", abs(offset) / 60, abs(offset) % 60)
            let iso = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second) + zone
            #expect(FeedDate.iso8601(iso) == calendarDate, "\(iso)")
            let rfc =
                String(format: "%02d ", day) + Self.monthNames[month - 1]
                + String(format: " %04d %02d:%02d:%02d ", year, hour, minute, second)
                + zone.replacingOccurrences(
                    of: ":", with: "")
            #expect(FeedDate.rfc822(rfc) == calendarDate, "\(rfc)")
        }
    }

    @Test func impossibleDaysAndRollOversAreRefused() {
        #expect(FeedDate.iso8601("2028-02-29T12:00:00Z")?.timeIntervalSince1970 == 1_835_438_400)
        #expect(FeedDate.iso8601("2026-02-29T12:00:00Z") == nil)
        #expect(FeedDate.iso8601("2100-02-29T12:00:00Z") == nil)
        #expect(FeedDate.iso8601("2026-04-31") == nil)
        #expect(FeedDate.rfc822("Thu, 31 Dec 2026 23:59:60 GMT") == nil)
        #expect(FeedDate.rfc822("Tue, 30 Jun 2026 12:59:60 GMT")?.timeIntervalSince1970 == 1_782_824_400)
    }

    /// A year of up to 18 digits is a number, not a date: refused, where its seconds once
    /// overflowed and ended the process.
    @Test func yearsNoCalendarHoldsAreRefused() {
        #expect(FeedDate.rfc822("Sun, 22 Nov 2027777777776 08:00:00 +0100") == nil)
        #expect(FeedDate.rfc822("Sun, 22 Nov 999999999999999999 08:00:00 GMT") == nil)
        #expect(FeedDate.rfc822("Sun, 22 Nov -999999999999999999 08:00:00 GMT") == nil)
        #expect(FeedDate.rfc822("Fri, 31 Dec 9999 23:59:59 GMT")?.timeIntervalSince1970 == 253_402_300_799)
        #expect(FeedDate.rfc822("Sat, 01 Jan 10000 00:00:00 GMT") == nil)
    }
}
