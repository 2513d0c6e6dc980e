import Foundation
import GeoqSchedule

/// The store's timestamps: ISO 8601 in UTC to the second (`2026-11-22T07:10:00Z`), as
/// `Date.ISO8601FormatStyle` writes and reads them.
///
/// A layer holds two per incident and is read and written whole at each refresh, so 1970 to 9999
/// are written and read here, the days by ``CivilDate``; other instants, and text of any other
/// form, go through the format style.
enum StoreTimestamp {
    /// 1970-01-01 to 9999-12-31T23:59:59 (after the Julian calendar, four-digit years).
    private static let fastRange: Range<Double> = 0..<253_402_300_800

    static func text(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        guard fastRange.contains(t) else { return date.formatted(.iso8601) }
        let seconds = Int(t.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let date = CivilDate(dayNumber: days)
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, _ width: Int, at offset: Int) {
            var v = value
            for k in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[k] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
        }
        put(date.year, 4, at: 0)
        put(date.month, 2, at: 5)
        put(date.day, 2, at: 8)
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
                (1970...9999).contains(year), let date = CivilDate(year: year, month: month, day: day),
                hour < 24, minute < 60, second < 60
            else { return nil }
            let seconds = date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: Double(seconds))
        } ?? nil
    }
}
