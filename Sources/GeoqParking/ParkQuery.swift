import Foundation
import GeoqCore
import GeoqQuery
import GeoqSchedule
import GeoqTariffs

/// Joins the sector lookup and the city's tariffs into a ``ParkAnswer``.
public struct ParkQuery: Sendable {
    public let tariffs: CityTariffs
    public let sectors: SectorLookup
    /// The city's zone lines, when loaded; otherwise the zone must be given.
    public let zones: ZoneLocator?
    /// Where answers share their tariff part; nil: each answer computes its own.
    public let cache: ParkAnswerCache?

    public init(tariffs: CityTariffs, sectors: SectorLookup, zones: ZoneLocator?) {
        self.tariffs = tariffs
        self.sectors = sectors
        self.zones = zones
        self.cache = nil
    }

    /// Answers with the tariffs of `cache`, taking each answer's tariff part from it when a
    /// request of the same minute asked for the same zone, ticket, reminders and language
    /// (the same bytes as computing it).
    public init(cache: ParkAnswerCache, sectors: SectorLookup, zones: ZoneLocator?) {
        self.tariffs = cache.tariffs
        self.sectors = sectors
        self.zones = zones
        self.cache = cache
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
        let found = sectors.answer(for: point, language: language)
        let match = found.inside.first
        let sector = ParkAnswer.Sector(
            layer: found.layer, id: match?.id, name: match?.name, approximate: found.approximate,
            approximation: found.approximation,
            distanceToEdgeMetres: (match ?? found.nearest).map(\.distanceToEdgeMetres),
            nearestID: match == nil ? found.nearest?.id : nil)

        var zone: Zone?
        var zoneInfo: ParkAnswer.ZoneInfo?
        var notes: [String] = []
        if let zoneID {
            let z = try tariffs.zone(zoneID)
            zone = z
            zoneInfo = .init(id: z.id, name: z.name[language], source: "argument", distanceMetres: nil)
        } else if let hit = zones?.zone(at: point) {
            let z = try tariffs.zone(hit.zone)
            zone = z
            zoneInfo = .init(id: z.id, name: z.name[language], source: "zone-layer", distanceMetres: hit.distanceMetres)
        } else if let zones {
            notes.append(Messages.noZoneNearby(toleranceMetres: zones.toleranceMetres, language))
        } else {
            notes.append(Messages.zoneUnknown(language))
        }

        let part: TariffPart
        if let cache {
            // Without a zone no ticket is priced, and without a ticket no reminder is set, whatever
            // was asked: one part for all of them.
            let priced = zone == nil ? nil : request
            let key = ParkAnswerCache.Key(
                time: time, zone: zone?.id, request: priced, reminders: priced == nil ? [] : reminders,
                language: language)
            part = try cache.part(for: key) { () throws(TariffError) in
                try tariffPart(time: time, zone: zone, request: request, reminders: reminders, language: language)
            }
        } else {
            part = try tariffPart(time: time, zone: zone, request: request, reminders: reminders, language: language)
        }

        notes += zone?.notes.map { $0[language] } ?? []
        let residents = Messages.residents(sectorID: match?.id, zone: zone, tariffs: tariffs, language)

        var messages: [String] = []
        let sectorLine: String
        switch (match, language) {
        case (let m?, _) where m.name != nil: sectorLine = m.name!
        case (let m?, .eu): sectorLine = "\(m.id). sektorea"
        case (let m?, _): sectorLine = "Sector \(m.id)"
        case (nil, _): sectorLine = residents[0]
        }
        messages.append(sectorLine + (zoneInfo.map { " — \($0.name)" } ?? ""))
        if let approximation = found.approximation {
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
            language: language.rawValue, sector: sector, zone: zoneInfo, regulation: part.regulation,
            ticket: part.ticket, reminders: part.reminders, maxStay: part.maxStay,
            whoMayPark: zone?.whoMayPark[language], residents: residents, notes: notes,
            provisionalCalendar: part.provisionalCalendar, messages: messages)
        return (answer, part.quote)
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
