import Foundation
import GeoqSchedule

/// A stretch of a ticket's life during which its paid time does not run, and why: the whole
/// free days inside it, each with its reasons, and whether the rest is ordinary time outside
/// regulated hours (the 14:00–16:00 break, the evening, the night).
///
/// A ticket bought on Saturday 28 November 2026 at 13:30 for 45 min pauses from Saturday 14:00
/// to Tuesday 08:30: Sunday 29 (no regulated hours), Monday 30 (San Saturnino, Pamplona's
/// local holiday), and the rest outside regulated hours.
public struct TicketPause: Hashable, Sendable {
    public var from: Date
    public var until: Date
    /// The free days the pause covers (wholly, or from the ticket's start), in order, each with
    /// at least one reason.
    public var days: [FreeDay]
    /// True when some of the pause is not one of ``days``: time outside the regulated hours of
    /// a regulated day.
    public var outsideHours: Bool

    /// A whole day on which parking is free.
    public struct FreeDay: Hashable, Sendable {
        public var date: CivilDate
        public var reasons: [Reason]
    }

    /// Why a whole day is free.
    public enum Reason: Hashable, Sendable {
        /// No regulated hours on this weekday (Sunday).
        case noHours(Weekday)
        /// A public holiday, with the calendar layer that names it (`es`, `es-nc`,
        /// `es-nc-pamplona`).
        case holiday(name: LocalizedText, layer: String)
        /// A day the tariff itself exempts; `name` from the tariff file's `exemptions`, nil
        /// when the file does not name the rule.
        case exemption(rule: String, name: LocalizedText?)
    }

    /// The pauses between `start` and `end` under `tariffs`, in order.
    public static func pauses(from start: Date, to end: Date, in tariffs: CityTariffs) throws(TariffError)
        -> [TicketPause]
    {
        let clock = tariffs.clock, schedule = tariffs.schedule
        do throws(ScheduleError) {
            var pauses: [TicketPause] = []
            for stretch in try schedule.closedStretches(from: clock.local(start), to: clock.local(end)) {
                var days: [FreeDay] = []
                // Every free day the stretch touches, the one it starts in included: a ticket
                // bought on a Sunday morning waits because it is Sunday, not because of the hour.
                var freeMinutes = 0
                var date = stretch.lowerBound.date
                while LocalDateTime(date: date, minute: 0) < stretch.upperBound {
                    let reasons = try schedule.reasonsClosed(on: date).map { tariffs.reason($0) }
                    if !reasons.isEmpty {
                        days.append(FreeDay(date: date, reasons: reasons))
                        let dayStart = max(LocalDateTime(date: date, minute: 0), stretch.lowerBound)
                        let dayEnd = min(LocalDateTime(date: date, minute: 1440), stretch.upperBound)
                        freeMinutes += dayEnd.wallMinutes - dayStart.wallMinutes
                    }
                    date = date.adding(days: 1)
                }
                let length = stretch.upperBound.wallMinutes - stretch.lowerBound.wallMinutes
                pauses.append(
                    TicketPause(
                        from: try clock.instant(stretch.lowerBound), until: try clock.instant(stretch.upperBound),
                        days: days, outsideHours: length > freeMinutes))
            }
            return pauses
        } catch { throw .schedule(error) }
    }
}

extension CityTariffs {
    /// A schedule's reason in the tariff's words (the exemption's name from the tariff file).
    func reason(_ reason: Schedule.DayClosedReason) -> TicketPause.Reason {
        switch reason {
        case .noHours(let weekday): .noHours(weekday)
        case .holiday(let holiday): .holiday(name: holiday.name, layer: holiday.layer)
        case .closedBy(let rule): .exemption(rule: rule.text, name: exemptionNames[rule.text])
        }
    }
}
