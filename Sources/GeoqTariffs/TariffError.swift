import GeoqSchedule

/// Why a tariff question cannot be answered. Every case has a stable ``code`` and a message in
/// each answer language.
public enum TariffError: Error, Hashable, Sendable {
    case unknownCity(String, known: [String])
    case fileMalformed(file: String, path: String, message: String)
    case unknownZone(String, known: [String])
    /// A price was asked for a spot whose zone is not known (no --zone, no zone segment near).
    case zoneNeeded(city: String)
    /// Green: residents only, no tickets.
    case noTicketsInZone(zone: String, name: LocalizedText)
    case notAnAmount(String)
    case notMultipleOfCoin(amount: Money, coin: Money)
    case belowMinimum(amount: Money, minimum: Money, minimumMinutes: Int)
    case notAPositiveDuration(Int)
    /// More than the max stay (by money or by minutes): the maximum is offered instead.
    case beyondMaxStay(zone: String, name: LocalizedText, maxMinutes: Int, maxPrice: Money)
    case reminderInPast(minutesBefore: Int, at: String, now: String)
    case schedule(ScheduleError)

    public var code: String {
        switch self {
        case .unknownCity: "unknown-city"
        case .fileMalformed: "tariff-file-malformed"
        case .unknownZone: "unknown-zone"
        case .zoneNeeded: "zone-needed"
        case .noTicketsInZone: "no-tickets-in-zone"
        case .notAnAmount: "not-an-amount"
        case .notMultipleOfCoin: "amount-not-multiple-of-coin"
        case .belowMinimum: "amount-below-minimum"
        case .notAPositiveDuration: "duration-not-positive"
        case .beyondMaxStay: "beyond-max-stay"
        case .reminderInPast: "reminder-in-past"
        case .schedule(let error): error.code
        }
    }

    /// The message in `language` (file and schedule errors are technical and stay in English).
    public func message(_ language: Language) -> String {
        Messages.error(self, language)
    }
}
