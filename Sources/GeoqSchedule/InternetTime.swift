import Foundation

/// Instants written as people and feeds send them, RFC 3339 (ISO 8601 with an offset), read
/// without Foundation's formatters: those go through ICU, which traps on some malformed text
/// (a long run of digits after a sign, for one) and would end the process that asked; and a
/// formatter per fix was most of the cost of a batch of fixes.
public enum InternetTime {
    /// An RFC 3339 time (`2026-11-23T09:00:00+01:00`, `…Z`, `t` or a space for `T`, any number of
    /// digits of a fraction of a second), read byte by byte; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        var text = text
        // The string's own bytes, not an array of them: this runs for every fix.
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The same, from the UTF-8 bytes of the text.
    public static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Date? {
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                guard (48...57).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        func byte(_ at: Int, _ expected: Unicode.Scalar) -> Bool { at < b.count && b[at] == UInt8(ascii: expected) }
        guard let y = digits(0, 4), byte(4, "-"), let mo = digits(5, 2), byte(7, "-"), let d = digits(8, 2),
            byte(10, "T") || byte(10, "t") || byte(10, " "), let h = digits(11, 2), byte(13, ":"),
            let mi = digits(14, 2), byte(16, ":"), let s = digits(17, 2),
            (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var at = 19
        var fraction = 0.0
        if byte(at, ".") {
            at += 1
            var scale = 0.1
            let start = at
            while at < b.count, (48...57).contains(b[at]) {
                fraction += Double(b[at] - 48) * scale
                scale /= 10
                at += 1
            }
            guard at > start else { return nil }
        }
        let offset: Int
        if byte(at, "Z") || byte(at, "z") {
            offset = 0
            at += 1
        } else if byte(at, "+") || byte(at, "-"), let oh = digits(at + 1, 2), byte(at + 3, ":"),
            let om = digits(at + 4, 2), oh < 24, om < 60
        {
            offset = (byte(at, "-") ? -1 : 1) * (oh * 3600 + om * 60)
            at += 6
        } else {
            return nil
        }
        guard at == b.count, let date = CivilDate(year: y, month: mo, day: d) else { return nil }
        let seconds = date.dayNumber * 86_400 + h * 3600 + mi * 60 + s - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// ``parse(_:)`` with the fraction of a second cut to the millisecond, as the answers that
    /// print instants to the millisecond read them.
    public static func parseToTheMillisecond(_ text: String) -> Date? {
        parse(text).map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded(.down) / 1000) }
    }
}
