import Foundation

/// The store's timestamps: ISO 8601 in UTC to the second (`2026-11-22T07:10:00Z`), as
/// `Date.ISO8601FormatStyle` writes and reads them.
///
/// A layer holds two per incident and is read and written whole at each refresh, so the
/// Gregorian arithmetic is done here (Hinnant's `days_from_civil` and `civil_from_days`) for
/// 1970 to 9999; other instants, and text of any other form, go through the format style.
enum StoreTimestamp {
    /// 1970-01-01 to 9999-12-31T23:59:59 (after the Julian calendar, four-digit years).
    private static let fastRange: Range<Double> = 0..<253_402_300_800

    static func text(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        guard fastRange.contains(t) else { return date.formatted(.iso8601) }
        let seconds = Int(t.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = civil(fromDays: days)
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, _ width: Int, at offset: Int) {
            var v = value
            for k in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[k] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
        }
        put(year, 4, at: 0)
        put(month, 2, at: 5)
        put(day, 2, at: 8)
        put(secondOfDay / 3600, 2, at: 11)
        put(secondOfDay / 60 % 60, 2, at: 14)
        put(secondOfDay % 60, 2, at: 17)
        for (offset, ascii) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")]
            as [(Int, Unicode.Scalar)]
        {
            bytes[offset] = UInt8(ascii: ascii)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func date(_ text: String) -> Date? {
        fastDate(text) ?? (try? Date(text, strategy: .iso8601))
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` with every field in range and the year in 1970...9999; else nil.
    private static func fastDate(_ text: String) -> Date? {
        let u = text.utf8
        guard u.count == 20 else { return nil }
        return u.withContiguousStorageIfAvailable { b -> Date? in
            func number(_ offset: Int, _ width: Int) -> Int? {
                var v = 0
                for k in offset..<(offset + width) {
                    let d = Int(b[k]) - 0x30
                    guard (0...9).contains(d) else { return nil }
                    v = v * 10 + d
                }
                return v
            }
            guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
                b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "Z"),
                let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                (1970...9999).contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
                hour < 24, minute < 60, second < 60
            else { return nil }
            let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: Double(seconds))
        } ?? nil
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (years from 1 here).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (not before it here).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
