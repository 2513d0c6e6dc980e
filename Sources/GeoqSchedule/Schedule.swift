/// Regulated (or opening) hours with the public holidays they refer to: the question "is it
/// regulated at this wall-clock minute, until when, and when does N regulated minutes from now
/// end?".
///
/// Works on wall-clock minutes (``LocalDateTime``); ``CityClock`` turns them into instants.
/// Searches look at most ``searchHorizonDays`` ahead (a schedule that never opens again answers
/// nil rather than looping).
public struct Schedule: Hashable, Sendable {
    public let hours: OpeningHours
    public let calendar: HolidayCalendar
    public static let searchHorizonDays = 400
    /// Each day's open ranges once worked out; shared by the copies of this schedule, whose
    /// hours and calendar are the same (both are constants).
    private let openRangesByDay = OpenRangesByDay()

    public init(hours: OpeningHours, calendar: HolidayCalendar) {
        self.hours = hours
        self.calendar = calendar
    }

    /// The same hours and calendar (the days kept are not part of a schedule's value).
    public static func == (a: Schedule, b: Schedule) -> Bool { a.hours == b.hours && a.calendar == b.calendar }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hours)
        hasher.combine(calendar)
    }

    /// The open minute ranges of `date`.
    public func openRanges(on date: CivilDate) throws(ScheduleError) -> [Range<Int>] {
        try openRangesByDay.ranges(on: date) { () throws(ScheduleError) in
            try hours.openRanges(on: date) { (day) throws(ScheduleError) in try calendar.isHoliday(day) }
        }
    }

    /// The regulated-hours rule that decides `date` (nil: no rule matches, closed all day).
    public func decidingRule(on date: CivilDate) throws(ScheduleError) -> OpeningHours.Rule? {
        try hours.decidingRule(on: date) { (day) throws(ScheduleError) in try calendar.isHoliday(day) }
    }

    public func isOpen(at time: LocalDateTime) throws(ScheduleError) -> Bool {
        try openRanges(on: time.date).contains { $0.contains(time.minuteOfDay) }
    }

    /// The first minute after `time` at which the state (open or not) differs from the state at
    /// `time`; nil when it does not change within the horizon.
    public func nextChange(after time: LocalDateTime) throws(ScheduleError) -> LocalDateTime? {
        let openNow = try isOpen(at: time)
        for offset in 0..<Self.searchHorizonDays {
            let date = time.date.adding(days: offset)
            let ranges = try openRanges(on: date)
            // The state (inside some range or not) can only change at midnight or at a range's
            // ends; the first candidate whose state differs from now is the change.
            var candidates = offset > 0 ? [0] : []
            for range in ranges {
                candidates.append(range.lowerBound)
                if range.upperBound < 1440 { candidates.append(range.upperBound) }
            }
            for minute in candidates where offset > 0 || minute > time.minuteOfDay {
                if ranges.contains(where: { $0.contains(minute) }) != openNow {
                    return LocalDateTime(date: date, minuteOfDay: minute)
                }
            }
        }
        return nil
    }

    /// Where `minutes` open minutes counted from `start` run out.
    ///
    /// Counting starts at `start` if the schedule is open then, else at the next opening
    /// (``Span/countingFrom``). The end is the wall-clock minute at which the last counted minute
    /// ends — 13:50 + 30 min with a 14:00–16:00 break is 16:20; a count that runs out exactly at a
    /// closing time ends at the closing time.
    public func advance(from start: LocalDateTime, openMinutes minutes: Int) throws(ScheduleError) -> Span? {
        precondition(minutes > 0, "count at least one minute")
        var remaining = minutes
        var countingFrom: LocalDateTime?
        for offset in 0..<Self.searchHorizonDays {
            let date = start.date.adding(days: offset)
            for range in try openRanges(on: date) {
                let lower = offset == 0 ? max(range.lowerBound, start.minuteOfDay) : range.lowerBound
                guard lower < range.upperBound else { continue }
                if countingFrom == nil { countingFrom = LocalDateTime(date: date, minute: lower) }
                let available = range.upperBound - lower
                if remaining <= available {
                    return Span(countingFrom: countingFrom!, end: LocalDateTime(date: date, minute: lower + remaining))
                }
                remaining -= available
            }
        }
        return nil
    }

    /// Open minutes counted from ``countingFrom`` until ``end``.
    public struct Span: Hashable, Sendable {
        /// The first counted minute: the start, or the next opening after it.
        public var countingFrom: LocalDateTime
        public var end: LocalDateTime
    }
}
