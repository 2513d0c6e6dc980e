import Foundation

/// Converts between instants and a city's wall clock (IANA time zone, e.g. Europe/Madrid),
/// including the days the clocks change.
///
/// Times are whole minutes: an instant is floored to its minute.
public struct CityClock: Hashable, Sendable {
    public let timeZone: TimeZone

    public init(timeZoneIdentifier: String) throws(ScheduleError) {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else { throw .unknownTimeZone(timeZoneIdentifier) }
        self.timeZone = zone
    }

    /// The wall-clock minute of `instant` in the city.
    public func local(_ instant: Date) -> LocalDateTime {
        local(instant, offset: timeZone.secondsFromGMT(for: instant))
    }

    /// The wall-clock minute of `instant` at `offset` seconds from UTC.
    private func local(_ instant: Date, offset: Int) -> LocalDateTime {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let minutes = seconds >= 0 ? seconds / 60 : -((-seconds + 59) / 60)
        return LocalDateTime(date: CivilDate(dayNumber: 0), minute: minutes)
    }

    /// The instant of a wall-clock minute. When the clocks go back the minute happens twice and
    /// the earlier instant is returned; a minute skipped when they go forward is an error.
    public func instant(_ local: LocalDateTime) throws(ScheduleError) -> Date {
        let wallSeconds = local.wallMinutes * 60
        let offsets = Set([
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallSeconds - 86_400))),
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallSeconds))),
            timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallSeconds + 86_400))),
        ])
        // The larger offset gives the earlier instant.
        for offset in offsets.sorted(by: >) {
            let candidate = Date(timeIntervalSince1970: TimeInterval(wallSeconds - offset))
            if timeZone.secondsFromGMT(for: candidate) == offset { return candidate }
        }
        throw .nonexistentLocalTime(local.description, timeZone: timeZone.identifier)
    }

    /// ISO 8601 with the city's offset: `2026-11-23T16:20:00+01:00`.
    public func iso8601(_ instant: Date) -> String {
        // The zone's offset asked once (a time-zone database look-up), for the time and its suffix.
        let offsetSeconds = timeZone.secondsFromGMT(for: instant)
        let local = local(instant, offset: offsetSeconds)
        let offset = offsetSeconds / 60
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 60, minutes = abs(offset) % 60
        return "\(local.description):00\(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]` with an optional `Z` or `±HH:MM` offset. Without an offset the
    /// time is the city's wall clock. Seconds are dropped (tickets count whole minutes).
    public func parse(_ text: String) throws(ScheduleError) -> Date? {
        let chars = Array(text)
        guard chars.count >= 16, chars[10] == "T" || chars[10] == " ",
            let date = CivilDate(iso: String(chars[0..<10])), chars[13] == ":",
            let hour = Int(String(chars[11..<13])), let minute = Int(String(chars[14..<16])),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        var rest = chars[16...]
        if rest.first == ":" {
            guard rest.count >= 3, let second = Int(String(rest.dropFirst().prefix(2))), (0..<60).contains(second)
            else {
                return nil
            }
            rest = rest.dropFirst(3)
            if rest.first == "." { rest = rest.dropFirst().drop(while: { $0.isNumber }) }
        }
        let local = LocalDateTime(date: date, minuteOfDay: hour * 60 + minute)
        if rest.isEmpty { return try instant(local) }
        if rest == ["Z"] { return Date(timeIntervalSince1970: TimeInterval(local.wallMinutes * 60)) }
        let offsetText = String(rest)
        guard offsetText.count == 6, let sign = offsetText.first, sign == "+" || sign == "-",
            let oh = Int(offsetText.dropFirst().prefix(2)), offsetText.dropFirst(3).first == ":",
            let om = Int(offsetText.suffix(2)), oh <= 18, om < 60
        else { return nil }
        let offsetMinutes = (sign == "-" ? -1 : 1) * (oh * 60 + om)
        return Date(timeIntervalSince1970: TimeInterval((local.wallMinutes - offsetMinutes) * 60))
    }
}
