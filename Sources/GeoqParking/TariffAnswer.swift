import Foundation
import GeoqSchedule
import GeoqTariffs

/// The answer to `geoq tariff`: a priced ticket and when it runs out, the same for every face.
/// Times are ISO 8601 with the city's UTC offset; amounts are decimal strings in euros.
public struct TariffAnswer: Codable, Hashable, Sendable {
    public struct Reminder: Codable, Hashable, Sendable {
        public var minutesBefore: Int
        public var at: String

        /// The quote's reminders, the same list for `tariff` and `park`.
        static func list(_ q: TicketQuote, clock: CityClock) -> [Reminder] {
            q.reminders.map { Reminder(minutesBefore: $0.minutesBefore, at: clock.iso8601($0.at)) }
        }
    }

    public var city: String
    public var zone: String
    public var zoneName: String
    public var language: String
    public var amount: String
    public var minutes: Int
    public var requestedMinutes: Int?
    public var start: String
    public var countingFrom: String
    public var end: String
    public var validUntil: String
    public var freeUntil: String?
    public var maxStay: ParkAnswer.MaxStay
    public var reminders: [Reminder]
    /// Where the paid time stops between start and end, and why.
    public var pauses: [PauseAnswer]
    public var regulation: ParkAnswer.Regulation
    public var provisionalCalendar: Bool
    public var messages: [String]

    public init(_ q: TicketQuote, tariffs: CityTariffs, language: Language) throws(TariffError) {
        let clock = tariffs.clock
        let status = try RegulationStatus.at(q.start, in: tariffs)
        city = q.city
        zone = q.zone.id
        zoneName = q.zone.name[language]
        self.language = language.rawValue
        amount = q.amount.decimal
        minutes = q.minutes
        requestedMinutes = q.requestedMinutes
        start = clock.iso8601(q.start)
        countingFrom = clock.iso8601(q.countingFrom)
        end = clock.iso8601(q.end)
        validUntil = clock.iso8601(q.validUntil)
        freeUntil = q.freeUntil.map(clock.iso8601)
        maxStay = .init(minutes: q.maxStayMinutes, amount: q.maxPrice.decimal)
        reminders = Reminder.list(q, clock: clock)
        pauses = q.pauses.map { PauseAnswer($0, clock: clock, language: language) }
        regulation = .init(
            regulated: status.regulated, until: status.until.map(clock.iso8601), reason: ParkQuery.code(status.reason),
            message: Messages.status(status, clock: clock, language))
        provisionalCalendar = q.provisionalCalendar || status.provisionalCalendar
        var lines = [Messages.purchase(q, language)]
        if let free = q.freeUntil {
            lines.append(Messages.freeUntil(free, clock: clock, language))
        } else {
            lines.append(regulation.message)
        }
        lines.append(Messages.ticketEnds(q, clock: clock, language))
        lines += PauseAnswer.sentences(pauses, of: q, clock: clock)
        if let valid = Messages.validUntil(q, clock: clock, language) { lines.append(valid) }
        lines.append(Messages.maxStay(minutes: q.maxStayMinutes, price: q.maxPrice, language))
        lines += q.reminders.map { Messages.reminder($0, clock: clock, language) }
        if provisionalCalendar { lines.append(Messages.provisional(language)) }
        messages = lines
    }
}
