import Foundation
import GeoqSchedule

/// The answer to "how much for how long, and when does my ticket run out?" for one zone.
///
/// Paid time runs only while the zone is regulated: the end is where the paid regulated
/// minutes run out, counted from the start or, when the start is outside regulated hours, from
/// the next regulated minute (``freeUntil``).
public struct TicketQuote: Hashable, Sendable {
    public var city: String
    public var zone: Zone
    public var amount: Money
    /// Regulated minutes the amount buys (at least ``requestedMinutes``).
    public var minutes: Int
    /// The duration asked for, when the question was minutes → euros.
    public var requestedMinutes: Int?
    /// When the ticket was bought (the minute, in the city).
    public var start: Date
    /// The first regulated minute counted.
    public var countingFrom: Date
    /// Where the requested minutes run out (for an amount: where the bought minutes run out).
    public var end: Date
    /// Where the bought minutes run out: the ticket's validity. Later than ``end`` when the
    /// smallest amount buys more than was asked (30 min → 0.60 EUR buys 31 min).
    public var validUntil: Date
    /// When the start is outside regulated hours: parking is free until then.
    public var freeUntil: Date?
    public var maxStayMinutes: Int
    public var maxPrice: Money
    public var reminders: [Reminder]
    /// Where the paid time does not run between ``start`` and ``end``, and why (empty when the
    /// ticket runs straight through).
    public var pauses: [TicketPause]
    /// The holiday calendar of a year involved is not yet the published one.
    public var provisionalCalendar: Bool

    public struct Reminder: Hashable, Sendable {
        public var minutesBefore: Int
        public var at: Date
    }

    /// What was asked: an amount to turn into minutes, or minutes to price.
    public enum Request: Hashable, Sendable {
        case amount(Money)
        case minutes(Int)
    }

    /// Prices a ticket in `zoneID` of `tariffs` bought at `start`.
    ///
    /// Refused: amounts that are not multiples of the coin, below the minimum ticket or beyond the
    /// max stay (the error offers the maximum), zones without tickets, reminders that would fire
    /// at or before `start`.
    public static func compute(
        _ request: Request, zone zoneID: String, in tariffs: CityTariffs, start: Date, remindersBefore: [Int] = []
    ) throws(TariffError) -> TicketQuote {
        let zone = try tariffs.zone(zoneID)
        guard let rates = zone.rates, let maxStay = zone.maxStayMinutes else {
            throw .noTicketsInZone(zone: zone.id, name: zone.name)
        }
        let maxPrice = rates.price(for: maxStay)
        let beyond = TariffError.beyondMaxStay(zone: zone.id, name: zone.name, maxMinutes: maxStay, maxPrice: maxPrice)
        let amount: Money
        let minutes: Int
        var requested: Int?
        switch request {
        case .amount(let a):
            guard a.cents % tariffs.coin.cents == 0 else { throw .notMultipleOfCoin(amount: a, coin: tariffs.coin) }
            guard a >= rates.minimum else {
                throw .belowMinimum(
                    amount: a, minimum: rates.minimum, minimumMinutes: rates.minutes(for: rates.minimum)!)
            }
            guard let bought = rates.minutes(for: a), bought <= maxStay else { throw beyond }
            amount = a
            minutes = bought
        case .minutes(let m):
            guard m >= 1 else { throw .notAPositiveDuration(m) }
            guard m <= maxStay else { throw beyond }
            amount = rates.price(for: m)
            minutes = rates.minutes(for: amount)!
            requested = m
        }

        let clock = tariffs.clock
        let schedule = tariffs.schedule
        let local = clock.local(start)
        let span: Schedule.Span
        let paidSpan: Schedule.Span
        let regulatedNow: Bool
        let countingFrom: Date
        let end: Date
        let validUntil: Date
        do throws(ScheduleError) {
            regulatedNow = try schedule.isOpen(at: local)
            guard let s = try schedule.advance(from: local, openMinutes: requested ?? minutes),
                let p = try schedule.advance(from: local, openMinutes: minutes)
            else { throw .yearNotCovered(year: local.date.year + 1, covered: schedule.calendar.covers) }
            span = s
            paidSpan = p
            countingFrom = try clock.instant(span.countingFrom)
            end = try clock.instant(span.end)
            validUntil = try clock.instant(paidSpan.end)
        } catch { throw .schedule(error) }

        var reminders: [Reminder] = []
        for before in remindersBefore {
            let at = end.addingTimeInterval(TimeInterval(-60 * before))
            guard before > 0, at > start else {
                throw .reminderInPast(
                    minutesBefore: before, at: clock.iso8601(at), now: clock.iso8601(start))
            }
            reminders.append(Reminder(minutesBefore: before, at: at))
        }
        let calendar = schedule.calendar
        let pauses = try TicketPause.pauses(from: start, to: end, in: tariffs)
        return TicketQuote(
            city: tariffs.city, zone: zone, amount: amount, minutes: minutes, requestedMinutes: requested,
            start: start, countingFrom: countingFrom, end: end, validUntil: validUntil,
            freeUntil: regulatedNow ? nil : countingFrom,
            maxStayMinutes: maxStay, maxPrice: maxPrice, reminders: reminders, pauses: pauses,
            provisionalCalendar: calendar.isProvisional(local.date.year)
                || calendar.isProvisional(paidSpan.end.date.year))
    }
}

extension TicketQuote {
    /// An item of a reminder list that is not a positive whole number of minutes.
    public struct BadReminder: Error, Hashable, Sendable {
        public var item: String

        public init(item: String) { self.item = item }
    }

    /// Reminders as people write them, `5,10,15`: minutes before the end, each a positive whole
    /// number (spaces around an item allowed); the first item that is not one otherwise. One
    /// reading for every face (`--reminder` and `reminder=`).
    public static func reminderMinutes(_ text: String) -> Result<[Int], BadReminder> {
        var minutes: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            guard trimmed.utf8.count <= 6, let n = Int(trimmed), n > 0 else {
                return .failure(BadReminder(item: trimmed))
            }
            minutes.append(n)
        }
        return .success(minutes)
    }
}
