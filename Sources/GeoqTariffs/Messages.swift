import Foundation
import GeoqSchedule

/// Every sentence geoq says about parking, in Spanish, Basque and English.
///
/// Dates are written as people in each language write them: `lunes 23/11/2026 16:20`,
/// `astelehena 2026/11/23 16:20`, `Monday 23/11/2026 16:20`; amounts with a decimal comma in
/// Spanish and Basque.
public enum Messages {
    public static func money(_ amount: Money, _ language: Language) -> String {
        amount.text(decimalComma: language != .en)
    }

    /// `2 h`, `55 min`, `9 h 30 min`.
    public static func duration(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return h == 0 ? "\(m) min" : m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }

    static let weekdays: [Language: [String]] = [
        .es: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
        .eu: ["astelehena", "asteartea", "asteazkena", "osteguna", "ostirala", "larunbata", "igandea"],
        .en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    ]

    public static func weekday(_ day: Weekday, _ language: Language) -> String { weekdays[language]![day.rawValue] }

    /// A wall-clock time with its weekday, in the city's time zone.
    public static func dateTime(_ instant: Date, clock: CityClock, _ language: Language) -> String {
        let local = clock.local(instant)
        let d = local.date
        let dd = d.day < 10 ? "0\(d.day)" : "\(d.day)", mm = d.month < 10 ? "0\(d.month)" : "\(d.month)"
        let date = language == .eu ? "\(d.year)/\(mm)/\(dd)" : "\(dd)/\(mm)/\(d.year)"
        return "\(weekday(d.weekday, language)) \(date) \(LocalDateTime.clock(local.minuteOfDay))"
    }

    public static func time(_ instant: Date, clock: CityClock) -> String {
        LocalDateTime.clock(clock.local(instant).minuteOfDay)
    }

    // MARK: Ticket answers

    public static func purchase(_ q: TicketQuote, _ language: Language) -> String {
        let zone = q.zone.name[language]
        let amount = money(q.amount, language), time = duration(q.minutes)
        switch language {
        case .es: return "\(zone): \(amount) → \(time) de aparcamiento regulado"
        case .eu: return "\(zone): \(amount) → \(time) aparkaleku arautuan"
        case .en: return "\(zone): \(amount) → \(time) of regulated parking"
        }
    }

    public static func ticketEnds(_ q: TicketQuote, clock: CityClock, _ language: Language) -> String {
        let end = dateTime(q.end, clock: clock, language)
        switch language {
        case .es: return "El tique termina el \(end) (solo cuentan los minutos de horario regulado)."
        case .eu: return "Txartela \(end)an amaitzen da (ordutegi arautuko minutuak bakarrik zenbatzen dira)."
        case .en: return "The ticket ends on \(end) (only regulated minutes count)."
        }
    }

    /// When the amount buys more than was asked: until when it is valid.
    public static func validUntil(_ q: TicketQuote, clock: CityClock, _ language: Language) -> String? {
        guard q.validUntil != q.end else { return nil }
        let until = dateTime(q.validUntil, clock: clock, language)
        switch language {
        case .es: return "El importe cubre \(duration(q.minutes)), hasta el \(until)."
        case .eu: return "Zenbatekoak \(duration(q.minutes)) ordaintzen ditu, \(until) arte."
        case .en: return "The amount pays for \(duration(q.minutes)), valid until \(until)."
        }
    }

    public static func freeUntil(_ instant: Date, clock: CityClock, _ language: Language) -> String {
        let when = dateTime(instant, clock: clock, language)
        switch language {
        case .es: return "Gratis hasta el \(when): el tique empieza a contar entonces."
        case .eu: return "Doan \(when) arte: orduan hasten da txartela zenbatzen."
        case .en: return "Free until \(when): the ticket starts counting then."
        }
    }

    public static func maxStay(minutes: Int, price: Money, _ language: Language) -> String {
        let d = duration(minutes), p = money(price, language)
        switch language {
        case .es: return "Estancia máxima: \(d) (\(p))."
        case .eu: return "Gehieneko egonaldia: \(d) (\(p))."
        case .en: return "Maximum stay: \(d) (\(p))."
        }
    }

    public static func reminder(_ r: TicketQuote.Reminder, clock: CityClock, _ language: Language) -> String {
        let at = dateTime(r.at, clock: clock, language)
        switch language {
        case .es: return "Aviso \(r.minutesBefore) min antes del final: \(at)"
        case .eu: return "Oharra amaiera baino \(r.minutesBefore) min lehenago: \(at)"
        case .en: return "Reminder \(r.minutesBefore) min before the end: \(at)"
        }
    }

    public static func reminderAlarm(minutesBefore: Int, _ language: Language) -> String {
        switch language {
        case .es: return "El tique de aparcamiento termina en \(minutesBefore) min"
        case .eu: return "Aparkaleku txartela \(minutesBefore) min barru amaitzen da"
        case .en: return "The parking ticket ends in \(minutesBefore) min"
        }
    }

    public static func provisional(_ language: Language) -> String {
        switch language {
        case .es: return "Calendario provisional: los festivos de ese año aún no se han publicado."
        case .eu: return "Behin-behineko egutegia: urte horretako jaiegunak oraindik ez dira argitaratu."
        case .en: return "Provisional calendar: that year's public holidays are not yet published."
        }
    }

    // MARK: Regulated or free

    public static func status(_ s: RegulationStatus, clock: CityClock, _ language: Language) -> String {
        let until = s.until.map { dateTime($0, clock: clock, language) }
        if s.regulated {
            switch language {
            case .es: return "Horario regulado" + (until.map { " hasta el \($0)." } ?? ".")
            case .eu: return "Ordutegi arautua" + (until.map { " \($0) arte." } ?? ".")
            case .en: return "Regulated" + (until.map { " until \($0)." } ?? ".")
            }
        }
        let why: String
        switch (s.reason, language) {
        case (.holiday(let name), .es): why = "festivo (\(name.es))"
        case (.holiday(let name), .eu): why = "jaieguna (\(name.eu))"
        case (.holiday(let name), .en): why = "public holiday (\(name.en))"
        case (.exemption(let rule, let name), .es): why = "día exento por la tarifa (\(name?.es ?? rule))"
        case (.exemption(let rule, let name), .eu): why = "tarifak salbuetsitako eguna (\(name?.eu ?? rule))"
        case (.exemption(let rule, let name), .en): why = "a day the tariff exempts (\(name?.en ?? rule))"
        case (.noHoursToday(let day), _): why = weekday(day, language)
        case (.outsideHours, .es): why = "fuera del horario regulado"
        case (.outsideHours, .eu): why = "ordutegi arautuaz kanpo"
        case (.outsideHours, .en): why = "outside regulated hours"
        case (.regulatedHours, _): why = ""
        }
        switch language {
        case .es: return "Gratis: \(why)" + (until.map { "; regulado de nuevo el \($0)." } ?? ".")
        case .eu: return "Doan: \(why)" + (until.map { "; berriro arautua \($0)." } ?? ".")
        case .en: return "Free: \(why)" + (until.map { "; regulated again on \($0)." } ?? ".")
        }
    }

    // MARK: Errors

    static func error(_ error: TariffError, _ language: Language) -> String {
        switch error {
        case .unknownCity(let city, let known):
            let list = known.joined(separator: ", ")
            switch language {
            case .es: return "No hay tarifas para «\(city)»; ciudades: \(list)."
            case .eu: return "Ez dago «\(city)»(r)en tarifarik; hiriak: \(list)."
            case .en: return "No tariffs for '\(city)'; cities: \(list)."
            }
        case .fileMalformed(let file, let path, let message):
            return "\(file): \(path): \(message)"
        case .unknownZone(let zone, let known):
            let list = known.joined(separator: ", ")
            switch language {
            case .es: return "Zona desconocida «\(zone)»; zonas: \(list)."
            case .eu: return "«\(zone)» gune ezezaguna; guneak: \(list)."
            case .en: return "Unknown zone '\(zone)'; zones: \(list)."
            }
        case .zoneNeeded(let city):
            switch language {
            case .es:
                return
                    "Para calcular el precio hace falta la zona: indique la zona (--zone, o zone= en la API) (no hay capa de zonas de \(city) cerca de este punto)."
            case .eu:
                return
                    "Prezioa kalkulatzeko gunea behar da: adierazi gunea (--zone, edo zone= APIan) (ez dago \(city)(e)ko gune geruzarik puntu honetatik gertu)."
            case .en:
                return
                    "A price needs the zone: give the zone (--zone, or zone= in the API) (no zone line of \(city) is near this spot)."
            }
        case .noTicketsInZone(_, let name):
            switch language {
            case .es: return "\(name.es): solo aparcan los residentes del sector; no se venden tiques."
            case .eu: return "\(name.eu): sektoreko bizilagunek bakarrik aparka dezakete; ez da txartelik saltzen."
            case .en: return "\(name.en): residents of the sector only; no tickets are sold."
            }
        case .notAnAmount(let text):
            switch language {
            case .es: return "«\(text)» no es un importe en euros (por ejemplo 1,25)."
            case .eu: return "«\(text)» ez da euroetako zenbateko bat (adibidez 1,25)."
            case .en: return "'\(text)' is not an amount in euros (for example 1.25)."
            }
        case .notMultipleOfCoin(let amount, let coin):
            let a = money(amount, language), c = money(coin, language)
            switch language {
            case .es: return "\(a) no es múltiplo de \(c): las máquinas aceptan monedas desde \(coin.cents) céntimos."
            case .eu:
                return
                    "\(a) ez da \(c)(r)en multiploa: makinek \(coin.cents) zentimotik gorako txanponak onartzen dituzte."
            case .en: return "\(a) is not a multiple of \(c): the machines take coins of \(coin.cents) cents and up."
            }
        case .belowMinimum(_, let minimum, let minutes):
            let m = money(minimum, language), d = duration(minutes)
            switch language {
            case .es: return "El tique mínimo es de \(m) (\(d))."
            case .eu: return "Gutxieneko txartela \(m) da (\(d))."
            case .en: return "The minimum ticket is \(m) (\(d))."
            }
        case .notAPositiveDuration:
            switch language {
            case .es: return "La duración debe ser de al menos 1 minuto."
            case .eu: return "Iraupenak gutxienez minutu batekoa izan behar du."
            case .en: return "The duration must be at least 1 minute."
            }
        case .beyondMaxStay(_, let name, let maxMinutes, let maxPrice):
            let d = duration(maxMinutes), p = money(maxPrice, language)
            switch language {
            case .es: return "\(name.es): la estancia máxima es de \(d); como mucho \(p) por \(d)."
            case .eu: return "\(name.eu): gehieneko egonaldia \(d) da; gehienez \(p), \(d)rako."
            case .en: return "\(name.en): the maximum stay is \(d); at most \(p) for \(d)."
            }
        case .reminderInPast(let before, let at, let now):
            switch language {
            case .es: return "El aviso \(before) min antes del final (\(at)) ya habría pasado (ahora \(now))."
            case .eu: return "Amaiera baino \(before) min lehenagoko oharra (\(at)) iraganean legoke (orain \(now))."
            case .en: return "A reminder \(before) min before the end (\(at)) would fire in the past (now \(now))."
            }
        case .schedule(let error):
            return error.description
        }
    }
}

// MARK: Residents

extension Messages {
    /// Who may park as a resident at a spot of `sectorID` (nil: the spot is in no sector) in
    /// `zone` (nil: the zone is not known, so every zone's rule is listed).
    public static func residents(
        sectorID: String?, zone: Zone?, tariffs: CityTariffs, _ language: Language
    ) -> [String] {
        guard let sectorID else {
            switch language {
            case .es: return ["Este punto no está en ningún sector de residentes."]
            case .eu: return ["Puntu hau ez dago bizilagunen sektore batean ere."]
            case .en: return ["This spot is in no residents' sector."]
            }
        }
        let zones = zone.map { [$0] } ?? tariffs.zones
        var lines: [String] = []
        for z in zones {
            let prefix = zone == nil ? "\(z.name[language]): " : ""
            switch (z.residents, language) {
            case (.unlimitedInOwnSector, .es):
                lines.append(prefix + "residentes del sector \(sectorID) con tarjeta, sin tique y sin límite.")
            case (.unlimitedInOwnSector, .eu):
                lines.append(
                    prefix + "\(sectorID). sektoreko bizilagunak txartelarekin, txartelik gabe eta mugarik gabe.")
            case (.unlimitedInOwnSector, .en):
                lines.append(prefix + "residents of sector \(sectorID) with a card, no ticket, no limit.")
            case (.mustPay, .es): lines.append(prefix + "los residentes también deben sacar tique.")
            case (.mustPay, .eu): lines.append(prefix + "bizilagunek ere txartela atera behar dute.")
            case (.mustPay, .en): lines.append(prefix + "residents must buy a ticket too.")
            case (.residentsOnly, .es): lines.append(prefix + "solo residentes del sector \(sectorID).")
            case (.residentsOnly, .eu): lines.append(prefix + "\(sectorID). sektoreko bizilagunak bakarrik.")
            case (.residentsOnly, .en): lines.append(prefix + "residents of sector \(sectorID) only.")
            }
            for other in tariffs.sectors where other.id != sectorID && other.alsoUses[sectorID]?.contains(z.id) == true
            {
                switch language {
                case .es:
                    lines.append(
                        prefix
                            + "los residentes del sector \(other.id) (\(other.name)) también pueden aparcar aquí como residentes."
                    )
                case .eu:
                    lines.append(
                        prefix
                            + "\(other.id). sektoreko (\(other.name)) bizilagunek ere hemen aparka dezakete bizilagun gisa."
                    )
                case .en:
                    lines.append(
                        prefix + "residents of sector \(other.id) (\(other.name)) may also park here as residents.")
                }
            }
        }
        return lines.map { $0.prefix(1).uppercased() + $0.dropFirst() }
    }

    public static func zoneUnknown(_ language: Language) -> String {
        switch language {
        case .es:
            return
                "Zona desconocida: no hay capa de zonas cargada para esta ciudad; indique la zona (--zone, o zone= en la API: azul, naranja, roja, verde)."
        case .eu:
            return
                "Gune ezezaguna: ez dago hiri honetarako gune geruzarik kargatuta; adierazi gunea (--zone, edo zone= APIan: urdina, laranja, gorria, berdea)."
        case .en:
            return
                "Zone unknown: no zone layer is loaded for this city; give the zone (--zone, or zone= in the API: blue, orange, red, green)."
        }
    }

    public static func noZoneNearby(toleranceMetres: Double, _ language: Language) -> String {
        let m = Int(toleranceMetres.rounded())
        switch language {
        case .es:
            return
                "Zona desconocida: ningún tramo regulado a menos de \(m) m; indique la zona (--zone, o zone= en la API) si la calle está pintada."
        case .eu:
            return
                "Gune ezezaguna: ez dago tarte arauturik \(m) m baino gertuago; adierazi gunea (--zone, edo zone= APIan) kalea margotuta badago."
        case .en:
            return
                "Zone unknown: no regulated segment within \(m) m; give the zone (--zone, or zone= in the API) if the street is marked."
        }
    }

    public static func approximateSector(_ approximation: String, _ language: Language) -> String {
        switch language {
        case .es: return "Sector aproximado: \(approximation)"
        case .eu: return "Gutxi gorabeherako sektorea: \(approximation)"
        case .en: return "Approximate sector: \(approximation)"
        }
    }
}
