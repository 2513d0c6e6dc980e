import Foundation
import GeoqSchedule
import GeoqTariffs

/// What a park answer says that the spot does not change: the time asked, the regulation, the
/// ticket, the max stay. It is a function of the tariffs, the zone, the ticket asked, the
/// reminders, the language and the minute of the instant, which is what ``ParkAnswerCache``
/// keys it by.
///
/// A class, immutable: a kept part is handed to every request of its minute, and sharing it
/// costs one reference instead of a copy of each of its strings.
final class TariffPart: Sendable {
    let at: String
    let regulation: ParkAnswer.Regulation
    /// The priced ticket, when a ticket was asked in a zone.
    let quote: TicketQuote?
    /// `quote != nil`, read without copying the quote.
    let priced: Bool
    let ticket: ParkAnswer.Ticket?
    let reminders: [TariffAnswer.Reminder]
    /// The ticket's sentences, in the answer's order (purchase to reminders).
    let ticketMessages: [String]
    let maxStay: ParkAnswer.MaxStay?
    let maxStayMessage: String?
    let provisionalCalendar: Bool
    /// The same, written as the answer's JSON writes it, with the zone's sentences.
    let text: Text

    init(
        at: String, regulation: ParkAnswer.Regulation, quote: TicketQuote?, ticket: ParkAnswer.Ticket?,
        reminders: [TariffAnswer.Reminder], ticketMessages: [String], maxStay: ParkAnswer.MaxStay?,
        maxStayMessage: String?, provisionalCalendar: Bool, text: Text
    ) {
        self.at = at
        self.regulation = regulation
        self.quote = quote
        priced = quote != nil
        self.ticket = ticket
        self.reminders = reminders
        self.ticketMessages = ticketMessages
        self.maxStay = maxStay
        self.maxStayMessage = maxStayMessage
        self.provisionalCalendar = provisionalCalendar
        self.text = text
    }
}

extension ParkQuery {
    /// The tariff part of the answer at `time` in `zone` (nil: no zone known, no ticket priced).
    func tariffPart(
        time: Date, zone: Zone?, request: TicketQuote.Request?, reminders: [Int], language: Language
    ) throws(TariffError) -> TariffPart {
        let clock = tariffs.clock
        let status = try RegulationStatus.at(time, in: tariffs)
        let regulation = ParkAnswer.Regulation(
            regulated: status.regulated, until: status.until.map(clock.iso8601), reason: Self.code(status.reason),
            message: Messages.status(status, clock: clock, language))

        var quote: TicketQuote?
        if let request, let zone {
            quote = try TicketQuote.compute(
                request, zone: zone.id, in: tariffs, start: time, remindersBefore: reminders)
        }
        let ticket = quote.map { q in
            ParkAnswer.Ticket(
                amount: q.amount.decimal, minutes: q.minutes, requestedMinutes: q.requestedMinutes,
                start: clock.iso8601(q.start), countingFrom: clock.iso8601(q.countingFrom), end: clock.iso8601(q.end),
                validUntil: clock.iso8601(q.validUntil), freeUntil: q.freeUntil.map(clock.iso8601),
                pauses: q.pauses.map { PauseAnswer($0, clock: clock, language: language) })
        }
        var ticketMessages: [String] = []
        if let q = quote {
            ticketMessages.append(Messages.purchase(q, language))
            if let free = q.freeUntil { ticketMessages.append(Messages.freeUntil(free, clock: clock, language)) }
            ticketMessages.append(Messages.ticketEnds(q, clock: clock, language))
            ticketMessages += PauseAnswer.sentences(ticket?.pauses ?? [], of: q, clock: clock)
            if let valid = Messages.validUntil(q, clock: clock, language) { ticketMessages.append(valid) }
            ticketMessages += q.reminders.map { Messages.reminder($0, clock: clock, language) }
        }
        var maxStay: ParkAnswer.MaxStay?
        var maxStayMessage: String?
        if let zone, let rates = zone.rates, let minutes = zone.maxStayMinutes {
            let price = rates.price(for: minutes)
            maxStay = .init(minutes: minutes, amount: price.decimal)
            maxStayMessage = Messages.maxStay(minutes: minutes, price: price, language)
        }
        let reminderList = quote.map { TariffAnswer.Reminder.list($0, clock: clock) } ?? []
        let provisionalCalendar = status.provisionalCalendar || (quote?.provisionalCalendar ?? false)
        let text = TariffPart.Text(
            at: clock.iso8601(time), city: tariffs.city, language: language, regulation: regulation,
            ticket: ticket, reminders: reminderList, ticketMessages: ticketMessages, maxStay: maxStay,
            maxStayMessage: maxStayMessage, provisionalCalendar: provisionalCalendar, zone: zone)
        return TariffPart(
            at: clock.iso8601(time), regulation: regulation, quote: quote, ticket: ticket,
            reminders: reminderList, ticketMessages: ticketMessages, maxStay: maxStay,
            maxStayMessage: maxStayMessage, provisionalCalendar: provisionalCalendar, text: text)
    }
}
