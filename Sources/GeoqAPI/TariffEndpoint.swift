import Foundation
import GeoqParking
import GeoqSchedule
import GeoqTariffs

/// `GET /v1/tariff?zone=Z&(euros=X|minutes=M)[&start=ISO][&city=pamplona][&reminder=5,10][&lang=es|eu|en]`:
/// the answer of `geoq tariff`, in the language of `lang`, else of the `Accept-Language`
/// header, else Spanish.
public enum TariffEndpoint {
    public static let parameters = EndpointDescription.tariff.parameterNames

    /// - Parameters:
    ///   - acceptLanguage: the request's `Accept-Language` header, if any.
    ///   - now: the purchase time when `start` is absent.
    public static func answer(
        _ query: QueryParameters, data: ServiceData, acceptLanguage: String?, now: Date = Date()
    ) throws(Problem) -> TariffAnswer {
        try query.allowOnly(parameters)
        return try inLanguage(query, acceptLanguage: acceptLanguage) { language throws(Problem) in
            try answer(query, data: data, language: language, now: now)
        }
    }

    /// `body` in the request's language (see ``language(_:acceptLanguage:default:)``), its
    /// problems tagged with that language so that they are written in it.
    static func inLanguage<Answer>(
        _ query: QueryParameters, acceptLanguage: String?, default fallback: Language = .es,
        _ body: (Language) throws(Problem) -> Answer
    ) throws(Problem) -> Answer {
        let language = try language(query, acceptLanguage: acceptLanguage, default: fallback)
        do throws(Problem) { return try body(language) } catch { throw error.chosen(language) }
    }

    static func answer(_ query: QueryParameters, data: ServiceData, language: Language, now: Date) throws(Problem)
        -> TariffAnswer
    {
        let city = try query.value("city") ?? "pamplona"
        guard let zone = try query.value("zone"), !zone.isEmpty else {
            throw .missing(
                "zone",
                LocalizedText(
                    es: "falta zone (blue, orange, red, green, o su nombre)",
                    eu: "zone falta da (blue, orange, red, green, edo bere izena)",
                    en: "zone (blue, orange, red, green, or its name) is required"))
        }
        let request = try ticketRequest(query)
        let reminders = try reminderMinutes(query)
        let startText = try query.value("start")
        let tariffs = try cityTariffs(city, data: data, language: language)
        do throws(TariffError) {
            let start =
                try startText.map { text throws(TariffError) in try startTime(text, clock: tariffs.clock) } ?? now
            let quote = try TicketQuote.compute(
                request, zone: zone, in: tariffs, start: start, remindersBefore: reminders)
            return try TariffAnswer(quote, tariffs: tariffs, language: language)
        } catch {
            throw Problem(error, language: language, request: request)
        }
    }

    /// The tariffs of `city`: a 404 naming `city` when there are none, a 500 when its file
    /// could not be read.
    static func cityTariffs(_ city: String, data: ServiceData, language: Language) throws(Problem) -> CityTariffs {
        if let tariffs = data.tariffs[city] { return tariffs }
        if let reason = data.tariffProblems[city] {
            throw .internalError("the tariffs of \(city) could not be loaded: \(reason)")
        }
        throw Problem(.unknownCity(city, known: data.tariffs.keys.sorted()), language: language, request: nil)
    }

    /// `lang` if given, else the first supported language of `Accept-Language`, else
    /// `fallback` (Spanish for the parking answers).
    static func language(_ query: QueryParameters, acceptLanguage: String?, default fallback: Language = .es)
        throws(Problem) -> Language
    {
        if try query.value("lang") != nil {
            let choices = Language.allCases.map(\.rawValue)
            return Language(rawValue: try query.choice("lang", of: choices, default: fallback.rawValue)) ?? fallback
        }
        return acceptLanguage.flatMap(Language.preferred(acceptLanguage:)) ?? fallback
    }

    /// `euros` (1.25 or 1,25) or `minutes`, exactly one.
    static func ticketRequest(_ query: QueryParameters) throws(Problem) -> TicketQuote.Request {
        let euros = try query.value("euros")
        let amount = try euros.map { text throws(Problem) -> Money in
            guard let amount = Money(euros: text) else {
                let shown = QueryParameters.shown(text)
                throw .invalid(
                    "euros",
                    LocalizedText(
                        es: "euros debe ser un importe como 1.25 o 1,25; se recibió \"\(shown)\"",
                        eu: "euros 1.25 edo 1,25 bezalako zenbateko bat izan behar da; \"\(shown)\" jaso da",
                        en: "euros must be an amount such as 1.25 or 1,25, got \"\(shown)\""))
            }
            return amount
        }
        let minutes = try query.integer("minutes", in: 1...100_000)
        switch (amount, minutes) {
        case (let amount?, nil): return .amount(amount)
        case (nil, let minutes?): return .minutes(minutes)
        case (.some, .some):
            throw .invalid(
                "euros",
                LocalizedText(
                    es: "indique euros o minutes, no los dos", eu: "eman euros edo minutes, ez biak",
                    en: "give euros or minutes, not both"))
        case (nil, nil):
            throw .missing(
                "minutes",
                LocalizedText(
                    es: "indique euros (un importe que gastar) o minutes (una estancia que tarificar)",
                    eu: "eman euros (gastatzeko zenbateko bat) edo minutes (prezioa jartzeko egonaldi bat)",
                    en: "give euros (an amount to spend) or minutes (a stay to price)"))
        }
    }

    /// `reminder=5,10,15`: minutes before the end, each a positive whole number.
    static func reminderMinutes(_ query: QueryParameters) throws(Problem) -> [Int] {
        guard let text = try query.value("reminder") else { return [] }
        switch TicketQuote.reminderMinutes(text) {
        case .success(let minutes): return minutes
        case .failure(let bad):
            let shown = QueryParameters.shown(bad.item)
            throw .invalid(
                "reminder",
                LocalizedText(
                    es:
                        "reminder espera minutos antes del final separados por comas, p. ej. 5,10,15; \"\(shown)\" no lo es",
                    eu:
                        "reminder-ek amaiera aurreko minutuak espero ditu, komaz bereizita, adib. 5,10,15; \"\(shown)\" ez da halakoa",
                    en:
                        "reminder expects minutes before the end separated by commas, e.g. 5,10,15; \"\(shown)\" is not one"
                ))
        }
    }

    /// `start`: ISO 8601, the city's wall clock when it has no offset.
    static func startTime(_ text: String, clock: CityClock) throws(TariffError) -> Date {
        do throws(ScheduleError) {
            guard let date = try clock.parse(text) else {
                throw ScheduleError.openingHours(
                    expression: text, offset: 0, message: "start expects ISO 8601, e.g. 2026-11-23T13:50")
            }
            return date
        } catch {
            throw .schedule(error)
        }
    }
}

extension Problem {
    /// The problem for a tariff error, its detail in `language`: what the asker got wrong is a
    /// 400 (or 404 for an unknown city or zone) naming the parameter; a ticket the rules refuse
    /// (beyond the max stay, below the minimum, ...) is a 422 with the rule's code; broken data
    /// files are the service's fault, a 500.
    init(_ error: TariffError, language: Language, request: TicketQuote.Request?) {
        let detail = error.message(language)
        let asked = if case .amount? = request { "euros" } else { "minutes" }
        func refused(_ parameter: String?) -> Problem {
            Problem(
                type: "/problems/ticket-refused", title: "The tariff refuses this ticket", status: 422, detail: detail,
                parameter: parameter, code: error.code)
        }
        switch error {
        case .unknownCity:
            self = Problem(
                type: "/problems/unknown-city", title: "No tariffs for this city", status: 404, detail: detail,
                parameter: "city", code: error.code)
        case .unknownZone:
            self = Problem(
                type: "/problems/unknown-zone", title: "No such zone", status: 404, detail: detail, parameter: "zone",
                code: error.code)
        case .zoneNeeded: self = .missing("zone", detail)
        case .notAnAmount: self = .invalid("euros", detail)
        case .notAPositiveDuration: self = .outOfRange("minutes", detail)
        case .noTicketsInZone: self = refused("zone")
        case .notMultipleOfCoin, .belowMinimum: self = refused("euros")
        case .beyondMaxStay: self = refused(asked)
        case .reminderInPast: self = refused("reminder")
        case .fileMalformed: self = .internalError(error.message(.en))
        case .schedule(let schedule):
            switch schedule {
            case .openingHours, .nonexistentLocalTime: self = .invalid("start", detail)
            case .yearNotCovered: self = refused("start")
            case .calendarMalformed, .unknownTimeZone: self = .internalError(error.message(.en))
            }
        }
        if code == nil { code = error.code }
        if status < 500 {
            localizedDetail = LocalizedText(es: error.message(.es), eu: error.message(.eu), en: error.message(.en))
        }
    }

    /// The problem in the endpoint's chosen language (its `lang`, or Accept-Language, or Spanish).
    func chosen(_ language: Language) -> Problem {
        var problem = self
        problem.language = problem.language ?? language
        return problem
    }
}
