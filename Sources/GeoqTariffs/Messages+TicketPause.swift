import Foundation
import GeoqSchedule

// Why a ticket's paid time stops and starts again, in each answer language.

extension Messages {
    /// A day with its weekday: `domingo 29/11/2026`, `igandea 2026/11/29`, `Sunday 29/11/2026`.
    public static func date(_ d: CivilDate, _ language: Language) -> String {
        let dd = d.day < 10 ? "0\(d.day)" : "\(d.day)", mm = d.month < 10 ? "0\(d.month)" : "\(d.month)"
        let date = language == .eu ? "\(d.year)/\(mm)/\(dd)" : "\(dd)/\(mm)/\(d.year)"
        return "\(weekday(d.weekday, language)) \(date)"
    }

    static let weekdaysPlural: [Language: [String]] = [
        .es: ["los lunes", "los martes", "los miércoles", "los jueves", "los viernes", "los sábados", "los domingos"],
        .eu: [
            "astelehenetan", "asteartetan", "asteazkenetan", "ostegunetan", "ostiraletan", "larunbatetan", "igandeetan",
        ],
        .en: ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"],
    ]

    /// Why a whole day is free: `festivo: San Saturnino (trasladado al lunes)`.
    public static func freeDayReason(_ reason: TicketPause.Reason, _ language: Language) -> String {
        switch (reason, language) {
        case (.noHours(let day), .es): "\(weekdaysPlural[.es]![day.rawValue]) no hay horario regulado"
        case (.noHours(let day), .eu): "\(weekdaysPlural[.eu]![day.rawValue]) ez dago ordutegi arauturik"
        case (.noHours(let day), .en): "no regulated hours on \(weekdaysPlural[.en]![day.rawValue])"
        case (.holiday(let name, _), .es): "festivo: \(name.es)"
        case (.holiday(let name, _), .eu): "jaieguna: \(name.eu)"
        case (.holiday(let name, _), .en): "public holiday: \(name.en)"
        case (.exemption(let rule, let name), .es): "exento por la tarifa: \(name?.es ?? rule)"
        case (.exemption(let rule, let name), .eu): "tarifak salbuetsia: \(name?.eu ?? rule)"
        case (.exemption(let rule, let name), .en): "exempt by the tariff: \(name?.en ?? rule)"
        }
    }

    /// A free day and every reason for it: `domingo 29/11/2026, los domingos no hay horario regulado`.
    public static func freeDay(_ day: TicketPause.FreeDay, _ language: Language) -> String {
        let and = [Language.es: " y ", .eu: " eta ", .en: " and "][language]!
        return date(day.date, language) + ", " + day.reasons.map { freeDayReason($0, language) }.joined(separator: and)
    }

    /// One sentence for a pause: when the ticket stops running and why, each free day named.
    /// Consecutive days of the same tariff exemption (6–25 July) are said once, as a range.
    public static func pause(_ p: TicketPause, clock: CityClock, _ language: Language) -> String {
        var items: [String] = []
        var index = 0
        while index < p.days.count {
            let day = p.days[index]
            var last = index
            if let exemption = day.reasons.first(where: { if case .exemption = $0 { true } else { false } }) {
                while last + 1 < p.days.count, p.days[last + 1].date == p.days[last].date.adding(days: 1),
                    p.days[last + 1].reasons.contains(exemption)
                {
                    last += 1
                }
                if last > index {
                    let from = date(day.date, language), through = date(p.days[last].date, language)
                    let range =
                        switch language {
                        case .es: "del \(from) al \(through)"
                        // A dash: a Basque case ending after a written date depends on how it is read.
                        case .eu: "\(from) – \(through)"
                        case .en: "\(from) to \(through)"
                        }
                    items.append(range + ", " + freeDayReason(exemption, language))
                }
            }
            if last == index { items.append(freeDay(day, language)) }
            index = last + 1
        }
        if p.outsideHours {
            let outside =
                switch language {
                case .es: "fuera del horario regulado"
                case .eu: "ordutegi arautuaz kanpo"
                case .en: "outside regulated hours"
                }
            let rest = [Language.es: "el resto, ", .eu: "gainerakoa, ", .en: "the rest, "][language]!
            items.append(items.isEmpty ? outside : rest + outside)
        }
        let from = clock.local(p.from), until = clock.local(p.until)
        let when: String
        if from.date == until.date {
            let day = date(from.date, language)
            let a = LocalDateTime.clock(from.minuteOfDay), b = LocalDateTime.clock(until.minuteOfDay)
            switch language {
            case .es: when = "El tique no corre el \(day) de \(a) a \(b)"
            case .eu: when = "Txartela ez da zenbatzen \(day), \(a)etatik \(b)etara"
            case .en: when = "The ticket does not run on \(day) from \(a) to \(b)"
            }
        } else {
            let a = dateTime(p.from, clock: clock, language), b = dateTime(p.until, clock: clock, language)
            switch language {
            case .es: when = "El tique no corre del \(a) al \(b)"
            case .eu: when = "Txartela ez da zenbatzen \(a)etatik \(b)etara"
            case .en: when = "The ticket does not run from \(a) to \(b)"
            }
        }
        return when + ": " + items.joined(separator: "; ") + "."
    }
}
