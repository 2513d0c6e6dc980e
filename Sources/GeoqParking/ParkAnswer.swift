import GeoqQuery

/// The answer to "can I park here, now?": the residents' sector (from the core's sector
/// lookup), the zone, whether it is regulated and until when, the ticket if one was asked for,
/// the max stay and the residents' rules — the same for the CLI and the HTTP service.
///
/// Times are ISO 8601 with the city's UTC offset; amounts are decimal strings in euros.
public struct ParkAnswer: Codable, Hashable, Sendable {
    /// The same latitude/longitude pair as the sector answer's.
    public typealias Position = SectorAnswer.Position

    public struct Sector: Codable, Hashable, Sendable {
        public var layer: String
        /// Nil when the spot is in no sector.
        public var id: String?
        public var name: String?
        public var approximate: Bool
        public var approximation: String?
        /// How far inside (or, when in no sector, how far from the nearest one).
        public var distanceToEdgeMetres: Double?
        /// When in no sector: the nearest sector's id.
        public var nearestID: String?
    }

    public struct ZoneInfo: Codable, Hashable, Sendable {
        public var id: String
        public var name: String
        /// `argument` (--zone) or `zone-layer` (nearest regulated segment).
        public var source: String
        /// From the zone layer: metres to the regulated segment.
        public var distanceMetres: Double?
    }

    public struct Regulation: Codable, Hashable, Sendable {
        public var regulated: Bool
        public var until: String?
        /// `regulated-hours`, `holiday`, `exemption`, `no-hours-today`, `outside-hours`.
        public var reason: String
        public var message: String
    }

    public struct Ticket: Codable, Hashable, Sendable {
        public var amount: String
        public var minutes: Int
        public var requestedMinutes: Int?
        public var start: String
        public var countingFrom: String
        public var end: String
        public var validUntil: String
        public var freeUntil: String?
        /// Where the paid time stops between start and end, and why.
        public var pauses: [PauseAnswer]
    }

    public struct MaxStay: Codable, Hashable, Sendable {
        public var minutes: Int
        public var amount: String
    }

    public var query: Position
    public var at: String
    public var city: String
    public var language: String
    public var sector: Sector
    public var zone: ZoneInfo?
    public var regulation: Regulation
    public var ticket: Ticket?
    /// The ticket's reminders, the same list as the `tariff` answer's (empty without a ticket).
    public var reminders: [TariffAnswer.Reminder]
    public var maxStay: MaxStay?
    public var whoMayPark: String?
    public var residents: [String]
    public var notes: [String]
    public var provisionalCalendar: Bool
    /// The answer as sentences, in order, in the answer's language.
    public var messages: [String]
}
