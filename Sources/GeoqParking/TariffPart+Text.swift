import GeoqJSON
import GeoqSchedule
import GeoqTariffs

extension TariffPart {
    /// A tariff part's members and sentences as the park answer's JSON writes them, written once
    /// when the part is computed: a part kept by ``ParkAnswerCache`` serves every request of its
    /// minute, zone, ticket and language, and each of those requests copies these runs of bytes
    /// instead of writing the same 1.5 to 3 KB of text again.
    ///
    /// The zone's own sentences (who may park, its notes) are here too: the part is kept per
    /// zone. Each run is written where the answer's sorted keys put it.
    final class Text: Sendable {
        /// `"at":…,"city":…,"language":…` and, when the zone has one, `,"maxStay":{…}`: the
        /// members before `messages`.
        let head: JSONText.Fragment
        /// The messages the part says, in the answer's order: the regulation, the ticket's, the
        /// max stay's, who may park in the zone.
        let messages: JSONText.Fragment
        /// The zone's notes (messages and `notes`), nil when none.
        let zoneNotes: JSONText.Fragment?
        /// The sentence saying the holiday calendar is provisional, when it is.
        let provisional: JSONText.Fragment?
        /// `"regulation":{…},"reminders":[…]`.
        let regulationAndReminders: JSONText.Fragment
        /// `"ticket":{…}` and `"whoMayPark":"…"`, those there are; nil when neither is.
        let ticketAndWhoMayPark: JSONText.Fragment?

        init(
            at: String, city: String, language: Language, regulation: ParkAnswer.Regulation,
            ticket: ParkAnswer.Ticket?, reminders: [TariffAnswer.Reminder], ticketMessages: [String],
            maxStay: ParkAnswer.MaxStay?, maxStayMessage: String?, provisionalCalendar: Bool, zone: Zone?
        ) {
            var head = JSONText(reservingCapacity: 128)
            head.key("at")
            head.string(at)
            head.key("city")
            head.string(city)
            head.key("language")
            head.string(language.rawValue)
            head.member("maxStay", maxStay) { $1.write(to: &$0) }
            self.head = JSONText.Fragment(head)
            let whoMayPark = zone?.whoMayPark[language]
            var messages = [regulation.message] + ticketMessages
            if let maxStayMessage { messages.append(maxStayMessage) }
            if let whoMayPark { messages.append(whoMayPark) }
            self.messages = JSONText.Fragment(elements: messages)!
            zoneNotes = JSONText.Fragment(elements: zone?.notes.map { $0[language] } ?? [])
            provisional = provisionalCalendar ? JSONText.Fragment(string: Messages.provisional(language)) : nil
            var members = JSONText(reservingCapacity: 256)
            members.key("regulation")
            regulation.write(to: &members)
            members.key("reminders")
            members.array { json in for reminder in reminders { reminder.write(to: &json) } }
            regulationAndReminders = JSONText.Fragment(members)
            var last = JSONText(reservingCapacity: 1024)
            last.member("ticket", ticket) { $1.write(to: &$0) }
            last.member("whoMayPark", whoMayPark) { $0.string($1) }
            ticketAndWhoMayPark = ticket == nil && whoMayPark == nil ? nil : JSONText.Fragment(last)
        }
    }
}
