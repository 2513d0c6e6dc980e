/// A wall-clock minute in the city: a ``CivilDate`` and the minute of that day (0 = 00:00,
/// 1439 = 23:59). No time zone: ``CityClock`` converts to and from instants.
///
/// Schedules are evaluated on wall-clock minutes, so a ticket's regulated minutes are the same
/// on the days the clocks change (regulated hours never include 02:00–03:00).
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: CivilDate
    /// 0..<1440
    public var minuteOfDay: Int

    public init(date: CivilDate, minuteOfDay: Int) {
        precondition((0..<1440).contains(minuteOfDay), "minute of day out of range")
        self.date = date
        self.minuteOfDay = minuteOfDay
    }

    /// Normalises `minute` (any integer) onto the days after or before `date`.
    public init(date: CivilDate, minute: Int) {
        let days = minute >= 0 ? minute / 1440 : -((-minute + 1439) / 1440)
        self.init(date: date.adding(days: days), minuteOfDay: minute - days * 1440)
    }

    /// Wall-clock minutes since 1970-01-01 00:00 (for ordering and differences).
    public var wallMinutes: Int { date.dayNumber * 1440 + minuteOfDay }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.wallMinutes < b.wallMinutes }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }

    /// 2026-12-03T16:20
    public var description: String { "\(date)T\(Self.clock(minuteOfDay))" }

    /// "08:30" for 510; "24:00" for 1440.
    public static func clock(_ minuteOfDay: Int) -> String {
        let h = minuteOfDay / 60, m = minuteOfDay % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }
}
