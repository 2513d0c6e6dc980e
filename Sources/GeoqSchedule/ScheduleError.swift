/// What can go wrong with calendars and schedules. Each case names the file or expression and
/// the place in it.
public enum ScheduleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An opening_hours expression geoq cannot read; `offset` counts characters from 0.
    case openingHours(expression: String, offset: Int, message: String)
    /// A holiday calendar file is malformed (`path` is the field, e.g. `rules[3].easter`).
    case calendarMalformed(file: String, path: String, message: String)
    /// The answer needs public holidays of a year no calendar layer covers.
    case yearNotCovered(year: Int, covered: ClosedRange<Int>)
    /// A wall-clock time that does not exist (the hour skipped when clocks go forward).
    case nonexistentLocalTime(String, timeZone: String)
    case unknownTimeZone(String)

    /// A stable machine-readable code for JSON problem bodies.
    public var code: String {
        switch self {
        case .openingHours: "opening-hours-syntax"
        case .calendarMalformed: "calendar-malformed"
        case .yearNotCovered: "year-not-covered"
        case .nonexistentLocalTime: "nonexistent-local-time"
        case .unknownTimeZone: "unknown-time-zone"
        }
    }

    public var description: String {
        switch self {
        case .openingHours(let expression, let offset, let message):
            let caret = String(repeating: " ", count: offset) + "^"
            return "opening_hours: \(message) at character \(offset + 1)\n  \(expression)\n  \(caret)"
        case .calendarMalformed(let file, let path, let message):
            return "\(file): \(path): \(message)"
        case .yearNotCovered(let year, let covered):
            return
                "the holiday calendar covers \(covered.lowerBound)–\(covered.upperBound); \(year) is not covered"
        case .nonexistentLocalTime(let time, let zone):
            return "\(time) does not exist in \(zone) (the clocks go forward over it)"
        case .unknownTimeZone(let name):
            return "unknown time zone '\(name)'"
        }
    }
}
