import Foundation
import GeoqSchedule

/// Writes a ticket as an iCalendar file (RFC 5545): one VEVENT from purchase to the end of the
/// paid time, one VALARM per reminder (`TRIGGER;RELATED=END:-PT10M`).
///
/// Times are UTC (`...Z`), so no VTIMEZONE is needed; text is escaped (§3.3.11), lines end with
/// CRLF and are folded at 75 octets without splitting a UTF-8 character (§3.1). DTSTART is when
/// the ticket was bought; DTSTAMP is when the file was written (§3.8.7.2), to the second.
public enum TicketCalendar {
    /// - Parameters:
    ///   - position: where the car stands (latitude, longitude), written as `GEO`.
    ///   - written: when the file is written (its DTSTAMP); now by default.
    public static func ics(
        _ quote: TicketQuote, tariffs: CityTariffs, language: Language,
        position: (latitude: Double, longitude: Double)? = nil, written: Date = Date()
    ) -> String {
        let clock = tariffs.clock
        let summary: String
        switch language {
        case .es: summary = "Tique de aparcamiento: \(quote.zone.name.es), \(tariffs.title.es)"
        case .eu: summary = "Aparkaleku txartela: \(quote.zone.name.eu), \(tariffs.title.eu)"
        case .en: summary = "Parking ticket: \(quote.zone.name.en), \(tariffs.title.en)"
        }
        var description = [
            Messages.purchase(quote, language), Messages.ticketEnds(quote, clock: clock, language),
        ]
        if let free = quote.freeUntil { description.append(Messages.freeUntil(free, clock: clock, language)) }
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//geoq//parking ticket//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "BEGIN:VEVENT",
            "UID:geoq-\(quote.city)-\(quote.zone.id)-\(epoch(quote.start))-\(epoch(quote.end))@geoq",
            "DTSTAMP:\(utc(written, seconds: true))", "DTSTART:\(utc(quote.start))", "DTEND:\(utc(quote.end))",
            "SUMMARY:\(escape(summary))", "DESCRIPTION:\(escape(description.joined(separator: "\n")))",
        ]
        if let position { lines.append("GEO:\(position.latitude);\(position.longitude)") }
        for reminder in quote.reminders {
            lines += [
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT\(reminder.minutesBefore)M",
                "DESCRIPTION:\(escape(Messages.reminderAlarm(minutesBefore: reminder.minutesBefore, language)))",
                "END:VALARM",
            ]
        }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `20261123T152000Z`: the minute (tickets count whole minutes), or with `seconds` the
    /// second, floored.
    static func utc(_ instant: Date, seconds: Bool = false) -> String {
        let total = Int(instant.timeIntervalSince1970.rounded(.down))
        let minutes = total >= 0 ? total / 60 : -((-total + 59) / 60)
        let utc = LocalDateTime(date: CivilDate(dayNumber: 0), minute: minutes)
        let d = utc.date
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let second = seconds ? total - minutes * 60 : 0
        return "\(d.year)\(two(d.month))\(two(d.day))T\(two(utc.hour))\(two(utc.minute))\(two(second))Z"
    }

    static func epoch(_ instant: Date) -> Int { Int(instant.timeIntervalSince1970) }

    /// TEXT escaping: backslash, semicolon, comma, newline.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// Folds a content line into chunks of at most 75 octets, continuation lines starting with a
    /// space, never splitting a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var chunks: [String] = []
        var current = ""
        var octets = 0
        for c in line {
            let size = String(c).utf8.count
            let limit = chunks.isEmpty ? 75 : 74  // a continuation line's leading space counts
            if octets + size > limit {
                chunks.append(current)
                current = ""
                octets = 0
            }
            current.append(c)
            octets += size
        }
        chunks.append(current)
        return chunks.joined(separator: "\r\n ")
    }
}
