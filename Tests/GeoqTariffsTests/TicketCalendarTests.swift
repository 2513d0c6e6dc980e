import Foundation
import GeoqTariffs
import Testing

@Suite struct TicketCalendarTests {
    @Test func oneEventWithAnAlarmPerReminder() throws {
        let q = try TicketQuote.compute(
            .minutes(30), zone: "blue", in: Pamplona.tariffs, start: Pamplona.at("2026-11-23T13:50"),
            remindersBefore: [5, 15])
        let ics = TicketCalendar.ics(q, tariffs: Pamplona.tariffs, language: .es, position: (42.81, -1.64))
        // Every line ends with CRLF and is at most 75 octets.
        #expect(ics.hasSuffix("\r\n"))
        let lines = ics.components(separatedBy: "\r\n").dropLast()
        for line in lines { #expect(line.utf8.count <= 75, "\(line)") }
        // Unfold (RFC 5545 §3.1) and read the properties back.
        let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        #expect(unfolded.first == "BEGIN:VCALENDAR")
        #expect(unfolded.contains("VERSION:2.0"))
        #expect(unfolded.contains("DTSTART:20261123T125000Z"))
        #expect(unfolded.contains("DTEND:20261123T152000Z"))
        #expect(unfolded.contains("GEO:42.81;-1.64"))
        #expect(unfolded.filter { $0 == "BEGIN:VALARM" }.count == 2)
        #expect(unfolded.contains("TRIGGER;RELATED=END:-PT5M"))
        #expect(unfolded.contains("TRIGGER;RELATED=END:-PT15M"))
        #expect(unfolded.contains("DESCRIPTION:El tique de aparcamiento termina en 15 min"))
        #expect(unfolded.contains("SUMMARY:Tique de aparcamiento: Zona azul\\, Pamplona"))
        #expect(unfolded.filter { $0.hasPrefix("BEGIN:") }.count == unfolded.filter { $0.hasPrefix("END:") }.count)
    }

    /// RFC 5545 §3.8.7.2: DTSTAMP is when the object was written, in UTC; the purchase is
    /// DTSTART. Written on 20 November 2026 at 09:15:42 Madrid time (08:15:42 UTC), for a ticket
    /// bought on 23 November at 13:50 (12:50 UTC).
    @Test func dtstampIsWhenTheFileWasWritten() throws {
        let q = try TicketQuote.compute(
            .minutes(30), zone: "blue", in: Pamplona.tariffs, start: Pamplona.at("2026-11-23T13:50"))
        let written = Pamplona.at("2026-11-20T09:15").addingTimeInterval(42)
        let unfolded = TicketCalendar.ics(q, tariffs: Pamplona.tariffs, language: .en, written: written)
            .replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        #expect(unfolded.filter { $0.hasPrefix("DTSTAMP") } == ["DTSTAMP:20261120T081542Z"])
        #expect(unfolded.filter { $0.hasPrefix("DTSTART") } == ["DTSTART:20261123T125000Z"])
        // Written later, the same ticket keeps its start and gets a new stamp.
        let later = TicketCalendar.ics(
            q, tariffs: Pamplona.tariffs, language: .en, written: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(later.contains("DTSTAMP:20261118T110640Z\r\n"))
        #expect(later.contains("DTSTART:20261123T125000Z\r\n"))
    }
}
