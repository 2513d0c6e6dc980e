import Foundation

/// Dates as feeds write them: RFC 822 / 1123 (`Thu, 01 Jan 2004 19:48:21 GMT`, RSS `pubDate`) and
/// ISO 8601 / W3C-DTF (`2003-12-31T10:14:55Z`, Atom `updated`, `dc:date`).
public enum FeedDate {
    /// Parses either form; nil when the text is neither.
    public static func parse(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return iso8601(t) ?? rfc822(t)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420,
        "mdt": -360, "pst": -480, "pdt": -420, "cet": 60, "cest": 120,
    ]

    /// `[Day,] DD Mon YYYY HH:MM[:SS] [zone]`; two-digit years are 19xx from 50, else 20xx.
    public static func rfc822(_ text: String) -> Date? {
        var tokens = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        if let first = tokens.first, Int(first) == nil { tokens.removeFirst() }  // the weekday name
        guard tokens.count >= 4, let day = Int(tokens[0]),
            let monthIndex = months.firstIndex(of: String(tokens[1].lowercased().prefix(3))), var year = Int(tokens[2])
        else { return nil }
        if year < 100 { year += year >= 50 ? 1900 : 2000 }
        let clock = tokens[3].split(separator: ":").compactMap { Int($0) }
        guard (2...3).contains(clock.count), clock[0] < 24, clock[1] < 60, clock.count == 2 || clock[2] < 61 else {
            return nil
        }
        var offsetMinutes = 0
        if tokens.count >= 5 {
            let zone = tokens[4]
            if let named = zones[zone.lowercased()] {
                offsetMinutes = named
            } else if zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
                let hhmm = Int(zone.dropFirst())
            {
                offsetMinutes = (sign == "-" ? -1 : 1) * (hhmm / 100 * 60 + hhmm % 100)
            } else {
                return nil
            }
        }
        return date(
            year: year, month: monthIndex + 1, day: day, hour: clock[0], minute: clock[1],
            second: clock.count == 3 ? clock[2] : 0, offsetMinutes: offsetMinutes)
    }

    /// `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]`; a date alone is midnight UTC.
    public static func iso8601(_ text: String) -> Date? {
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
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let utc = utcCalendar.date(from: parts),
            utcCalendar.component(.day, from: utc) == day  // 30 February is refused, not rolled over
        else { return nil }
        return utc.addingTimeInterval(TimeInterval(-offsetMinutes * 60))
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
