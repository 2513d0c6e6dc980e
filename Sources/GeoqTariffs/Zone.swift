import GeoqSchedule

/// A regulated-parking zone (the colour painted on the street) and who may park in it.
public struct Zone: Hashable, Sendable {
    /// How residents with a card of the sector are treated while the zone is regulated.
    public enum ResidentRule: String, Hashable, Sendable {
        /// Residents park without a ticket, without limit, in their own sector (blue, orange).
        case unlimitedInOwnSector = "unlimited-in-own-sector"
        /// Residents buy a ticket like everyone else (red, rotation).
        case mustPay = "must-pay"
        /// Only residents of the sector park here; no tickets are sold (green).
        case residentsOnly = "residents-only"
    }

    /// `blue`, `orange`, `red`, `green`.
    public var id: String
    public var name: LocalizedText
    /// Nil where no tickets are sold.
    public var rates: RateTable?
    /// The longest paid stay, in regulated minutes.
    public var maxStayMinutes: Int?
    public var residents: ResidentRule
    public var whoMayPark: LocalizedText
    /// Zones whose tickets are also valid here (orange accepts blue tickets).
    public var acceptsTicketsOf: [String]
    /// Anything else the driver must know (move 200 m after the max stay, ...).
    public var notes: [LocalizedText]
}

/// A residents' sector and the other sectors' zones its residents may also use.
public struct ResidentSector: Hashable, Sendable {
    public var id: String
    public var name: String
    /// `sector id → zone ids` where residents of this sector may also park as residents.
    public var alsoUses: [String: [String]]
}
