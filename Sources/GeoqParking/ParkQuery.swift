import Foundation
import GeoqCore
import GeoqJSON
import GeoqQuery
import GeoqSchedule
import GeoqTariffs
import Synchronization

/// Joins the sector lookup and the city's tariffs into a ``ParkAnswer``.
///
/// Immutable; a class so that the service makes one per city and snapshot and each request
/// borrows it, instead of copying the tariffs, the sector lookup and the zone lines.
public final class ParkQuery: Sendable {
    public let tariffs: CityTariffs
    public let sectors: SectorLookup
    /// The city's zone lines, when loaded; otherwise the zone must be given.
    public let zones: ZoneLocator?
    /// Where answers share their tariff part; nil: each answer computes its own.
    public let cache: ParkAnswerCache?
    /// What every answer of a language says the same way, written once.
    let written: ByLanguage<WrittenTexts>
    /// Each zone of the tariffs by its id, as `tariffs.zone(id)` finds it (which lowercases
    /// every zone's name on the way): most requests name a zone by its id.
    let zonesByID: [String: Zone]
    /// Whole answers without their numbers, by what they depend on (with a ``cache`` only).
    let templates = Mutex<[TemplateKey: JSONText.Template]>([:])

    public convenience init(tariffs: CityTariffs, sectors: SectorLookup, zones: ZoneLocator?) {
        self.init(tariffs: tariffs, sectors: sectors, zones: zones, cache: nil)
    }

    /// Answers with the tariffs of `cache`, taking each answer's tariff part from it when a
    /// request of the same minute asked for the same zone, ticket, reminders and language
    /// (the same bytes as computing it).
    public convenience init(cache: ParkAnswerCache, sectors: SectorLookup, zones: ZoneLocator?) {
        self.init(tariffs: cache.tariffs, sectors: sectors, zones: zones, cache: cache)
    }

    private init(tariffs: CityTariffs, sectors: SectorLookup, zones: ZoneLocator?, cache: ParkAnswerCache?) {
        self.tariffs = tariffs
        self.sectors = sectors
        self.zones = zones
        self.cache = cache
        zonesByID = Dictionary(
            tariffs.zones.compactMap { zone in (try? tariffs.zone(zone.id)).map { (zone.id, $0) } },
            uniquingKeysWith: { first, _ in first })
        written = ByLanguage { language in
            let noZone =
                zones.map { Messages.noZoneNearby(toleranceMetres: $0.toleranceMetres, language) }
                ?? Messages.zoneUnknown(language)
            return WrittenTexts(
                approximation: sectors.layer.approximation.map {
                    ApproximationText(note: $0[language], language: language)
                },
                noZoneNote: NoZoneNote(text: noZone, written: JSONText.Fragment(string: noZone)),
                outsideResidents: ResidentsLines(
                    Messages.residents(sectorID: nil, zone: nil, tariffs: tariffs, language)))
        }
    }

    /// The texts of ``written``.
    struct WrittenTexts: Sendable {
        /// The sector layer's approximation note, when it has one.
        var approximation: ApproximationText?
        /// Why no zone is known: no zone layer, or no regulated segment near.
        var noZoneNote: NoZoneNote
        /// The residents' line of a spot in no sector (the same for every zone).
        var outsideResidents: ResidentsLines
    }

    /// The note of an answer with no zone, as text and as the answer's JSON writes it.
    struct NoZoneNote: Sendable {
        var text: String
        var written: JSONText.Fragment
    }

    /// - Parameters:
    ///   - zoneID: the zone the driver reads on the street (`--zone`); wins over the zone layer.
    ///   - request: euros or minutes to price; nil for just "can I park here?".
    /// - Returns: the answer and the ticket priced, if any. With a ``cache``, the ticket may be
    ///   the one priced for an earlier request of the same minute: the same in everything the
    ///   answer says, its `start` that request's instant.
    public func answer(
        at point: Point, time: Date, zoneID: String?, request: TicketQuote.Request?, reminders: [Int] = [],
        language: Language
    ) throws(TariffError) -> (answer: ParkAnswer, quote: TicketQuote?) {
        let spot = try locate(point, zoneID: zoneID, language: language)
        let part = try tariffPart(for: spot, time: time, request: request, reminders: reminders, language: language)
        let match = spot.match
        let zone = spot.zone

        var notes: [String] = spot.noZoneNote.map { [$0.text] } ?? []
        notes += zone?.notes.map { $0[language] } ?? []
        let residents = Messages.residents(sectorID: match?.id, zone: zone, tariffs: tariffs, language)

        var messages: [String] = []
        messages.append(
            Self.sectorLine(match, residents: residents, language) + (spot.zoneInfo.map { " — \($0.name)" } ?? ""))
        if let approximation = spot.found.approximation {
            messages.append(Messages.approximateSector(approximation, language))
        }
        messages.append(part.regulation.message)
        messages += part.ticketMessages
        if let maxStayMessage = part.maxStayMessage { messages.append(maxStayMessage) }
        if let zone { messages.append(zone.whoMayPark[language]) }
        if match != nil { messages += residents }
        messages += notes
        if part.provisionalCalendar { messages.append(Messages.provisional(language)) }

        let answer = ParkAnswer(
            query: .init(latitude: point.y, longitude: point.x), at: part.at, city: tariffs.city,
            language: language.rawValue, sector: spot.sector, zone: spot.zoneInfo, regulation: part.regulation,
            ticket: part.ticket, reminders: part.reminders, maxStay: part.maxStay,
            whoMayPark: zone?.whoMayPark[language], residents: residents, notes: notes,
            provisionalCalendar: part.provisionalCalendar, messages: messages)
        return (answer, part.quote)
    }

    /// What a park answer says of the spot itself: its sector and its zone.
    struct Spot {
        var found: SectorAnswer
        /// The sector the spot is in, if any.
        var match: SectorAnswer.Match?
        var sector: ParkAnswer.Sector
        var zone: Zone?
        var zoneInfo: ParkAnswer.ZoneInfo?
        /// Why no zone is known (no zone given and none found near), when none is.
        var noZoneNote: NoZoneNote?
    }

    /// The spot's sector, and its zone: `zoneID` if given (it wins over the zone layer), else the
    /// zone layer's nearest regulated segment.
    func locate(_ point: Point, zoneID: String?, language: Language) throws(TariffError) -> Spot {
        let found = sectors.answer(for: point, language: language)
        let match = found.inside.first
        let sector = ParkAnswer.Sector(
            layer: found.layer, id: match?.id, name: match?.name, approximate: found.approximate,
            approximation: found.approximation,
            distanceToEdgeMetres: (match ?? found.nearest).map(\.distanceToEdgeMetres),
            nearestID: match == nil ? found.nearest?.id : nil)
        var spot = Spot(found: found, match: match, sector: sector)
        if let zoneID {
            let z = try zone(zoneID)
            spot.zone = z
            spot.zoneInfo = .init(id: z.id, name: z.name[language], source: "argument", distanceMetres: nil)
        } else if let hit = zones?.zone(at: point) {
            let z = try zone(hit.zone)
            spot.zone = z
            spot.zoneInfo = .init(
                id: z.id, name: z.name[language], source: "zone-layer", distanceMetres: hit.distanceMetres)
        } else {
            spot.noZoneNote = written[language].noZoneNote
        }
        return spot
    }

    /// The zone `id` names, as `tariffs.zone(id)` finds it.
    func zone(_ id: String) throws(TariffError) -> Zone {
        if let zone = zonesByID[id] { return zone }
        return try tariffs.zone(id)
    }

    /// The tariff part of the answer for `spot`, from the ``cache`` when there is one.
    func tariffPart(
        for spot: Spot, time: Date, request: TicketQuote.Request?, reminders: [Int], language: Language
    ) throws(TariffError) -> TariffPart {
        let zone = spot.zone
        guard let cache else {
            return try tariffPart(time: time, zone: zone, request: request, reminders: reminders, language: language)
        }
        // Without a zone no ticket is priced, and without a ticket no reminder is set, whatever
        // was asked: one part for all of them.
        let priced = zone == nil ? nil : request
        let key = ParkAnswerCache.Key(
            time: time, zone: zone?.id, request: priced, reminders: priced == nil ? [] : reminders,
            language: language)
        return try cache.part(for: key) { () throws(TariffError) in
            try tariffPart(time: time, zone: zone, request: request, reminders: reminders, language: language)
        }
    }

    /// The answer's first message: the sector's name (or, outside every sector, the residents'
    /// line saying so).
    static func sectorLine(_ match: SectorAnswer.Match?, residents: [String], _ language: Language) -> String {
        switch (match, language) {
        case (let m?, _) where m.name != nil: m.name!
        case (let m?, .eu): "\(m.id). sektorea"
        case (let m?, _): "Sector \(m.id)"
        case (nil, _): residents[0]
        }
    }

    static func code(_ reason: RegulationStatus.Reason) -> String {
        switch reason {
        case .regulatedHours: "regulated-hours"
        case .holiday: "holiday"
        case .exemption: "exemption"
        case .noHoursToday: "no-hours-today"
        case .outsideHours: "outside-hours"
        }
    }
}
