/// A parsed OpenStreetMap `opening_hours` expression, the subset regulated parking needs:
///
/// ```
/// Mo-Fr 08:30-14:00,16:00-20:00; Sa 08:30-14:00; PH off; easter -1 day off; Jul 06-Jul 25 off
/// ```
///
/// Supported: rules separated by `;`; weekday ranges and lists (`Mo-Fr`, `Sa`, `Mo,We`, `Fr-Mo`);
/// `PH` (public holiday, from a ``HolidayCalendar``); month-day ranges and lists (`Jul 06-Jul 25`,
/// `Jul 06-25`, `Dec 03`, `Jul`, `Dec 24-Jan 06`); `easter` with a day offset (`easter -1 day`);
/// time ranges within a day (`08:30-14:00,16:00-20:00`, end up to `24:00`); `24/7`; and the
/// modifiers `off` / `closed` / `open`. Anything else (`||`, `SH`, week numbers, sunrise, times past
/// midnight, comments) is refused by ``OpeningHoursParser`` with the offending character.
///
/// Semantics (as opening_hours.js): rules apply in order, and a rule whose selectors match a day
/// *replaces* that day's times — so `PH off` after `Mo-Fr ...` closes a holiday Monday. A rule
/// without selectors matches every day; a rule without times means the whole day.
public struct OpeningHours: Hashable, Sendable, CustomStringConvertible {
    /// The expression as written.
    public let source: String
    public let rules: [Rule]

    public struct Rule: Hashable, Sendable {
        /// Month-day ranges or Easter dates; nil matches every date.
        public var dates: [DateSelector]?
        /// Weekdays and `PH`; nil matches every day.
        public var days: [DaySelector]?
        /// Minute ranges within the day, sorted and disjoint; nil means the whole day.
        public var times: [Range<Int>]?
        /// False for `off` / `closed`.
        public var isOpen: Bool
        /// The rule as written (`Jul 06-Jul 25 off`), to explain answers.
        public var text: String = ""

        /// True when the rule's date and day selectors match `date`.
        public func matches(
            _ date: CivilDate, isHoliday: (CivilDate) throws(ScheduleError) -> Bool
        ) throws(ScheduleError) -> Bool {
            if let dates, !dates.contains(where: { $0.matches(date) }) { return false }
            guard let days else { return true }
            for selector in days {
                switch selector {
                case .weekdays(let first, let last):
                    let w = date.weekday.rawValue
                    let inRange =
                        first.rawValue <= last.rawValue
                        ? (first.rawValue...last.rawValue).contains(w)
                        : (w >= first.rawValue || w <= last.rawValue)
                    if inRange { return true }
                case .publicHoliday:
                    if try isHoliday(date) { return true }
                }
            }
            return false
        }
    }

    public enum DateSelector: Hashable, Sendable {
        /// From (month, day) through (month, day) inclusive; wraps over New Year when the start is
        /// after the end.
        case monthDays(from: MonthDay, through: MonthDay)
        /// Easter Sunday plus `offset` days.
        case easter(offset: Int)

        func matches(_ date: CivilDate) -> Bool {
            switch self {
            case .monthDays(let from, let through):
                let d = MonthDay(month: date.month, day: date.day)
                return from <= through ? (from <= d && d <= through) : (d >= from || d <= through)
            case .easter(let offset):
                return Easter.sunday(of: date.year).adding(days: offset) == date
            }
        }
    }

    public struct MonthDay: Hashable, Comparable, Sendable {
        public var month: Int
        public var day: Int
        public static func < (a: MonthDay, b: MonthDay) -> Bool { (a.month, a.day) < (b.month, b.day) }
    }

    public enum DaySelector: Hashable, Sendable {
        /// From `first` through `last`, wrapping past Sunday (`Fr-Mo`).
        case weekdays(first: Weekday, last: Weekday)
        case publicHoliday
    }

    public init(source: String, rules: [Rule]) {
        self.source = source
        self.rules = rules
    }

    /// Parses `expression`; see ``OpeningHoursParser`` for the grammar.
    public init(_ expression: String) throws(ScheduleError) {
        var parser = OpeningHoursParser(expression)
        self = try parser.parse()
    }

    public var description: String { source }

    /// The open minute ranges of `date` (sorted, disjoint, within 0..<1440 — or ending at 1440).
    ///
    /// - Parameter isHoliday: answers `PH`; asked only when a rule with `PH` could match.
    /// The last rule that decides `date` (nil when none matches: closed).
    public func decidingRule(
        on date: CivilDate, isHoliday: (CivilDate) throws(ScheduleError) -> Bool
    ) throws(ScheduleError) -> Rule? {
        for rule in rules.reversed() where try rule.matches(date, isHoliday: isHoliday) { return rule }
        return nil
    }

    public func openRanges(
        on date: CivilDate, isHoliday: (CivilDate) throws(ScheduleError) -> Bool
    ) throws(ScheduleError) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for rule in rules where try rule.matches(date, isHoliday: isHoliday) {
            ranges = rule.isOpen ? (rule.times ?? [0..<1440]) : []
        }
        return ranges
    }
}
