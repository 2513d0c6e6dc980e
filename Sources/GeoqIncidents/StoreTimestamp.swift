import Foundation
import GeoqSchedule

/// The store's timestamps: ISO 8601 in UTC to the second (`2026-11-22T07:10:00Z`), as
/// `Date.ISO8601FormatStyle` writes and reads them.
///
/// A layer holds two per incident and is read and written whole at each refresh, so 1970 to 9999
/// are written here (the days by ``CivilDate``) and read by ``InternetTime``; other instants, and
/// text of any other form, go through the format style.
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
    /// Read by ``InternetTime``, of which this is the one form the store writes.
    private static func fastDate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { b -> Date? in
            // The form exactly: an upper-case `T`, `Z`, and no leap second (`60`).
            guard b.count == 20, b[10] == UInt8(ascii: "T"), b[19] == UInt8(ascii: "Z"), b[17] < UInt8(ascii: "6"),
                let date = InternetTime.parse(utf8: b), fastRange.contains(date.timeIntervalSince1970)
            else { return nil }
            return date
        }
    }
}
