extension Schedule {
    /// One reason a whole day has no open minute.
    public enum DayClosedReason: Hashable, Sendable {
        /// No rule opens this weekday at all (Sunday in Pamplona).
        case noHours(Weekday)
        /// A public holiday of the calendar, closed by a `PH off` rule.
        case holiday(HolidayCalendar.Holiday)
        /// A rule with a date selector that closes the day (`easter -1 day off`,
        /// `Jul 06-Jul 25 off`).
        case closedBy(OpeningHours.Rule)
    }

    /// Every reason `date` is closed, in this order: the weekday, the holidays (in layer order),
    /// the date rules (in rule order). Several can hold at once (7 July is a Pamplona holiday
    /// inside the 6–25 July exemption); all are given, so that an answer can name each.
    /// Empty when the day has open minutes.
    public func reasonsClosed(on date: CivilDate) throws(ScheduleError) -> [DayClosedReason] {
        guard try openRanges(on: date).isEmpty else { return [] }
        var reasons: [DayClosedReason] = []
        // A weekday is "without hours" when no opening rule that is about weekdays only
        // (no dates, no PH) would match it.
        let weekdayRules = hours.rules.filter { rule in
            rule.isOpen && rule.dates == nil && rule.days?.contains(.publicHoliday) != true
        }
        var weekdayOpens = false
        for rule in weekdayRules where try rule.matches(date, isHoliday: { _ in false }) { weekdayOpens = true }
        if !weekdayOpens { reasons.append(.noHours(date.weekday)) }
        let closesHolidays = hours.rules.contains { !$0.isOpen && $0.days?.contains(.publicHoliday) == true }
        if closesHolidays { reasons += try calendar.holidays(on: date).map { .holiday($0) } }
        for rule in hours.rules where !rule.isOpen && rule.dates != nil {
            if try rule.matches(date, isHoliday: { (day) throws(ScheduleError) in try calendar.isHoliday(day) }) {
                reasons.append(.closedBy(rule))
            }
        }
        return reasons
    }

    /// The closed stretches between `start` and `end` (half-open wall-clock intervals, in
    /// order): where a counter of open minutes pauses. Empty when open throughout.
    ///
    /// Complexity: one ``openRanges(on:)`` per day from `start` to `end`.
    public func closedStretches(from start: LocalDateTime, to end: LocalDateTime) throws(ScheduleError)
        -> [Range<LocalDateTime>]
    {
        guard start < end else { return [] }
        var stretches: [Range<LocalDateTime>] = []
        var closedSince: LocalDateTime? = start
        var date = start.date
        while date <= end.date {
            for range in try openRanges(on: date) {
                let lower = LocalDateTime(date: date, minute: range.lowerBound)
                let upper = LocalDateTime(date: date, minute: range.upperBound)
                guard upper > start, lower < end else { continue }
                if let since = closedSince, since < lower { stretches.append(since..<lower) }
                closedSince = upper < end ? upper : nil
            }
            date = date.adding(days: 1)
        }
        if let since = closedSince, since < end { stretches.append(since..<end) }
        return stretches
    }
}
