import Foundation
import GeoqSchedule

/// Is the city's regulated parking in force at an instant, until when, and why not.
public struct RegulationStatus: Hashable, Sendable {
    public enum Reason: Hashable, Sendable {
        /// Within regulated hours.
        case regulatedHours
        /// A public holiday of the calendar (Spain, the region, the town).
        case holiday(LocalizedText)
        /// A rule of the regulated hours frees the day (`easter -1 day off`, `Jul 06-Jul 25 off`);
        /// `name` from the tariff file when it names the rule.
        case exemption(rule: String, name: LocalizedText?)
        /// No regulated hours on this weekday (Sunday).
        case noHoursToday(Weekday)
        /// Before, between or after the day's regulated hours.
        case outsideHours(today: [Range<Int>])
    }

    public var at: Date
    public var regulated: Bool
    /// The next change (end of the regulated period, or the next regulated minute); nil if none
    /// within the search horizon.
    public var until: Date?
    public var reason: Reason
    public var provisionalCalendar: Bool

    public static func at(_ instant: Date, in tariffs: CityTariffs) throws(TariffError) -> RegulationStatus {
        let clock = tariffs.clock, schedule = tariffs.schedule
        let local = clock.local(instant)
        do throws(ScheduleError) {
            let ranges = try schedule.openRanges(on: local.date)
            let regulated = ranges.contains { $0.contains(local.minuteOfDay) }
            let next = try schedule.nextChange(after: local).map { (t) throws(ScheduleError) in try clock.instant(t) }
            let reason: Reason
            if regulated {
                reason = .regulatedHours
            } else if let holiday = try schedule.calendar.holidays(on: local.date).first,
                schedule.hours.rules.contains(where: { $0.days?.contains(.publicHoliday) == true && !$0.isOpen })
            {
                reason = .holiday(holiday.name)
            } else if ranges.isEmpty, let rule = try schedule.decidingRule(on: local.date), !rule.isOpen,
                rule.dates != nil
            {
                reason = .exemption(rule: rule.text, name: tariffs.exemptionNames[rule.text])
            } else if ranges.isEmpty {
                reason = .noHoursToday(local.date.weekday)
            } else {
                reason = .outsideHours(today: ranges)
            }
            return RegulationStatus(
                at: instant, regulated: regulated, until: next, reason: reason,
                provisionalCalendar: schedule.calendar.isProvisional(local.date.year))
        } catch { throw .schedule(error) }
    }
}
