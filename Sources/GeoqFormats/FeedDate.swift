import Foundation

/// Dates as feeds write them: RFC 822 / 1123 (`Thu, 01 Jan 2004 19:48:21 GMT`, RSS `pubDate`) and
/// ISO 8601 / W3C-DTF (`2003-12-31T10:14:55Z`, Atom `updated`, `dc:date`).
public enum FeedDate {
    /// Parses either form; nil when the text is neither.
    public static func parse(_ text: String) -> Date? {
        let t = text.trimmingWhitespace()
        return iso8601(t) ?? rfc822(t)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420,
        "mdt": -360, "pst": -480, "pdt": -420, "cet": 60, "cest": 120,
    ]

    /// `[Day,] DD Mon YYYY HH:MM[:SS] [zone]`; two-digit years are 19xx from 50, else 20xx.
    public static func rfc822(_ text: String) -> Date? {
        var text = text
        // Bytes, not characters: dates are ASCII, and grapheme breaking costs more than the date.
        return text.withUTF8(rfc822(bytes:))
    }

    private static func rfc822(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let space = UInt8(ascii: " "), comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
        func words(_ range: Range<Int>, _ isSeparator: (UInt8) -> Bool) -> [Range<Int>] {
            var words: [Range<Int>] = []
            words.reserveCapacity(6)
            var i = range.lowerBound
            while i < range.upperBound {
                while i < range.upperBound, isSeparator(bytes[i]) { i += 1 }
                let start = i
                while i < range.upperBound, !isSeparator(bytes[i]) { i += 1 }
                if i > start { words.append(start..<i) }
            }
            return words
        }
        /// What `Int(String)` reads: an optional sign, then decimal digits.
        func int(_ range: Range<Int>) -> Int? {
            var i = range.lowerBound
            let negative = i < range.upperBound && bytes[i] == UInt8(ascii: "-")
            if i < range.upperBound, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard i < range.upperBound, range.upperBound - i <= 18 else { return nil }
            var value = 0
            while i < range.upperBound {
                guard (0x30...0x39).contains(bytes[i]) else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            return negative ? -value : value
        }
        var tokens = words(0..<bytes.count) { $0 == space || $0 == comma }
        if let first = tokens.first, int(first) == nil { tokens.removeFirst() }  // the weekday name
        guard tokens.count >= 4, let day = int(tokens[0]), var year = int(tokens[2]), tokens[1].count >= 3 else {
            return nil
        }
        guard let monthIndex = month(bytes[tokens[1].prefix(3)]) else { return nil }
        if year < 100 { year += year >= 50 ? 1900 : 2000 }
        let clock = words(tokens[3]) { $0 == colon }.compactMap(int)
        guard (2...3).contains(clock.count), clock[0] < 24, clock[1] < 60, clock.count == 2 || clock[2] < 61 else {
            return nil
        }
        var offsetMinutes = 0
        if tokens.count >= 5 {
            let zone = tokens[4]
            let sign = bytes[zone.lowerBound]
            // A signed zone is no name: the names are letters.
            let signed = sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")
            if !signed, let named = zones[String(decoding: bytes[zone], as: UTF8.self).lowercased()] {
                offsetMinutes = named
            } else if zone.count == 5, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                let hhmm = int(zone.dropFirst())
            {
                offsetMinutes = (sign == UInt8(ascii: "-") ? -1 : 1) * (hhmm / 100 * 60 + hhmm % 100)
            } else {
                return nil
            }
        }
        return date(
            year: year, month: monthIndex + 1, day: day, hour: clock[0], minute: clock[1],
            second: clock.count == 3 ? clock[2] : 0, offsetMinutes: offsetMinutes)
    }

    private static let monthBytes = months.map { Array($0.utf8) }

    /// The month's index of its name's first three bytes, in any letter case.
    private static func month(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard name.allSatisfy({ $0 < 0x80 }) else {
            return months.firstIndex(of: String(decoding: name, as: UTF8.self).lowercased())
        }
        let folded = name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return monthBytes.firstIndex(of: folded)
    }

    /// `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]`; a date alone is midnight UTC.
    public static func iso8601(_ text: String) -> Date? {
        // Cheap refusal of the other form (RFC 822) before the text is split into characters.
        guard text.utf8.count >= 10, text.utf8.dropFirst(4).first == UInt8(ascii: "-") else { return nil }
        let c = Array(text)
        guard c.count >= 10, c[4] == "-", c[7] == "-", let year = Int(String(c[0..<4])),
            let month = Int(String(c[5..<7])), let day = Int(String(c[8..<10]))
        else { return nil }
        if c.count == 10 {
            return date(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, offsetMinutes: 0)
        }
        guard c.count >= 16, c[10] == "T" || c[10] == " ", c[13] == ":", let hour = Int(String(c[11..<13])),
            let minute = Int(String(c[14..<16]))
        else { return nil }
        var i = 16
        var second = 0
        if i < c.count, c[i] == ":" {
            guard i + 3 <= c.count, let s = Int(String(c[i + 1..<i + 3])) else { return nil }
            second = s
            i += 3
            if i < c.count, c[i] == "." || c[i] == "," {
                i += 1
                while i < c.count, c[i].isNumber { i += 1 }
            }
        }
        var offset = 0
        if i < c.count {
            let zone = String(c[i...])
            if zone == "Z" {
                offset = 0
            } else if zone.count == 6, let sign = zone.first, sign == "+" || sign == "-",
                let h = Int(zone.dropFirst().prefix(2)), zone.dropFirst(3).first == ":", let m = Int(zone.suffix(2))
            {
                offset = (sign == "-" ? -1 : 1) * (h * 60 + m)
            } else {
                return nil
            }
        }
        return date(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset)
    }

    private static func date(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetMinutes: Int
    ) -> Date? {
        // Years past 9999 are no feed's, and their seconds would overflow an Int.
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        if year >= 1583 {
            // Proleptic Gregorian arithmetic, as the calendar below computes it since 1582, without
            // its cost (feeds carry thousands of dates).
            guard day <= daysIn(month: month, year: year), hour * 3600 + minute * 60 + second < 86_400 else {
                return nil  // 30 February, or a leap second rolling into the next day, is refused
            }
            let seconds =
                daysFromEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: TimeInterval(seconds - offsetMinutes * 60))
        }
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let utc = utcCalendar.date(from: parts),
            utcCalendar.component(.day, from: utc) == day  // 30 February is refused, not rolled over
        else { return nil }
        return utc.addingTimeInterval(TimeInterval(-offsetMinutes * 60))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a Gregorian date (Hinnant's days_from_civil).
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
