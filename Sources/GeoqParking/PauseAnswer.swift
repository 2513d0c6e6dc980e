import GeoqSchedule
import GeoqTariffs

/// A ``TicketPause`` as `park` and `tariff` answer it: when the paid time stops and starts
/// again, every whole free day with its reasons, and the sentence that says so.
///
/// The reason kinds are the regulation reason codes: `no-hours-today` (Sunday), `holiday`,
/// `exemption`.
public struct PauseAnswer: Codable, Hashable, Sendable {
    public struct Day: Codable, Hashable, Sendable {
        /// `2026-11-30`
        public var date: String
        public var reasons: [Reason]
        /// The day and its reasons in the answer's language.
        public var message: String
    }

    public struct Reason: Codable, Hashable, Sendable {
        /// `no-hours-today`, `holiday` or `exemption`.
        public var kind: String
        /// The holiday's or the exemption's name in the answer's language.
        public var name: String?
        /// For a holiday: the calendar layer that names it (`es`, `es-nc`, `es-nc-pamplona`).
        public var calendar: String?
        /// For an exemption: the regulated-hours rule that frees the day (`Jul 06-Jul 25 off`).
        public var rule: String?
        /// For a day without hours: the weekday's opening_hours abbreviation (`Su`).
        public var weekday: String?
    }

    public var from: String
    public var until: String
    public var days: [Day]
    /// Some of the pause is time outside the regulated hours of a regulated day.
    public var outsideHours: Bool
    public var message: String

    public init(_ pause: TicketPause, clock: CityClock, language: Language) {
        from = clock.iso8601(pause.from)
        until = clock.iso8601(pause.until)
        outsideHours = pause.outsideHours
        message = Messages.pause(pause, clock: clock, language)
        days = pause.days.map { day in
            Day(
                date: day.date.description,
                reasons: day.reasons.map { reason in
                    switch reason {
                    case .noHours(let weekday): Reason(kind: "no-hours-today", weekday: weekday.abbreviation)
                    case .holiday(let name, let layer): Reason(kind: "holiday", name: name[language], calendar: layer)
                    case .exemption(let rule, let name): Reason(kind: "exemption", name: name?[language], rule: rule)
                    }
                }, message: Messages.freeDay(day, language))
        }
    }
}

extension PauseAnswer {
    /// The sentences a ticket's answer says about its pauses. A pause that only waits, with no
    /// whole free day in it, for the first regulated minute of a ticket bought outside
    /// regulated hours is left out: "free until …" already says it. Every pause stays in the
    /// answer's `pauses` all the same.
    static func sentences(_ pauses: [PauseAnswer], of quote: TicketQuote, clock: CityClock) -> [String] {
        let start = clock.iso8601(quote.start)
        return
            pauses
            .filter { !(quote.freeUntil != nil && $0.from == start && $0.days.isEmpty) }
            .map(\.message)
    }
}
