import Foundation
import GeoqCore
import GeoqSchedule

/// The time at a place of a time-zone layer: the IANA zone that covers it, that zone's offset
/// from UTC at the instant asked about, and the local wall-clock time then.
///
/// The offsets come from Foundation's `TimeZone`, that is from the system's tzdata, not from
/// the layer: the layer only says which zone a place is in.
public struct LocalTime: Codable, Hashable, Sendable {
    /// The IANA time-zone id (`Europe/Madrid`, `Etc/GMT+5`).
    public var zone: String
    /// The instant the local time is given for, in UTC (ISO 8601, whole seconds).
    public var instant: String
    /// The zone's offset from UTC at `instant` (`+01:00`, `-03:30`); nil when the system's
    /// time-zone database does not know `zone`.
    public var utcOffset: String?
    /// The same offset in seconds east of Greenwich.
    public var utcOffsetSeconds: Int?
    /// The local time at `instant`, ISO 8601 with its offset (`2026-01-15T13:00:00+01:00`).
    public var localTime: String?
    /// Whether the zone observes daylight-saving time at `instant`.
    public var daylightSaving: Bool?
    /// Set when the system's time-zone database does not know `zone` (no offset can be given).
    public var problem: String?

    /// The local time in `zone` (nil: the system does not know the zone) at `instant`.
    public init(zone id: String, timeZone: TimeZone?, at instant: Date) {
        zone = id
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        self.instant = Self.iso8601(secondsSince1970: seconds, offset: nil)
        guard let timeZone else {
            problem = "the system's time-zone database does not know \(id)"
            return
        }
        let offset = timeZone.secondsFromGMT(for: instant)
        utcOffsetSeconds = offset
        utcOffset = Self.offsetText(offset)
        localTime = Self.iso8601(secondsSince1970: seconds, offset: offset)
        daylightSaving = timeZone.isDaylightSavingTime(for: instant)
    }

    /// An instant written in ISO 8601 with `Z` or an offset (`2026-07-15T12:00:00Z`,
    /// `2026-07-15T14:00:00+02:00`, fractions of a second allowed), or nil. A time without an
    /// offset is refused: on a layer of many zones it would not say which instant is meant.
    public static func instant(parsing text: String) -> Date? {
        InternetTime.parseToTheMillisecond(text)
    }

    /// `+01:00`, `-03:30`, `+00:00`.
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
    }

    /// The civil date and time of `secondsSince1970` shifted by `offset` (proleptic Gregorian
    /// calendar), ending in that offset, or in `Z` when `offset` is nil.
    static func iso8601(secondsSince1970: Double, offset: Int?) -> String {
        let local = Int64(secondsSince1970) + Int64(offset ?? 0)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let date = String(format: "%04d-%02d-%02d", year, month, day)
        let time =
            twoDigits(secondOfDay / 3600) + ":" + twoDigits(secondOfDay / 60 % 60) + ":" + twoDigits(secondOfDay % 60)
        return date + "T" + time + (offset.map(offsetText) ?? "Z")
    }

    /// The Gregorian date `days` after 1970-01-01 (``CivilDate``'s arithmetic).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let date = CivilDate(dayNumber: Int(days))
        return (date.year, date.month, date.day)
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
