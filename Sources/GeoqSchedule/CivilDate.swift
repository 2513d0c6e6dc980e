/// A day on the proleptic Gregorian calendar, with no time zone: "3 December 2026" as people
/// in the city say it.
///
/// Arithmetic goes through ``dayNumber`` (days since 1970-01-01), using Howard Hinnant's
/// `days_from_civil` algorithm, exact for every year of `Int32`.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    /// 1...12
    public let month: Int
    /// 1...31, valid for the month and year.
    public let day: Int

    /// Returns nil when the day does not exist (31 April, 29 February 2026).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let offset = ((dayNumber % 7) + 7 + 3) % 7
        return Weekday.allCases[offset]
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// ISO 8601: 2026-12-03.
    public var description: String {
        let y = String(year), m = month < 10 ? "0\(month)" : "\(month)", d = day < 10 ? "0\(day)" : "\(day)"
        return "\(y)-\(m)-\(d)"
    }

    /// Parses `YYYY-MM-DD` exactly.
    public init?(iso text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }
}

/// Days of the week, Monday first (ISO 8601, and the order opening_hours writes them).
public enum Weekday: Int, CaseIterable, Sendable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The two-letter opening_hours abbreviation (Mo, Tu, We, Th, Fr, Sa, Su).
    public var abbreviation: String { ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"][rawValue] }
}
