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
}
