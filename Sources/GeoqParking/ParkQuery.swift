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

    public init(tariffs: CityTariffs, sectors: SectorLookup, zones: ZoneLocator?) {
        self.tariffs = tariffs
        self.sectors = sectors
        self.zones = zones
    }

    /// - Parameters:
    ///   - zoneID: the zone the driver reads on the street (`--zone`); wins over the zone layer.
    ///   - request: euros or minutes to price; nil for just "can I park here?".
    public func answer(
        at point: Point, time: Date, zoneID: String?, request: TicketQuote.Request?, reminders: [Int] = [],
        language: Language
    ) throws(TariffError) -> (answer: ParkAnswer, quote: TicketQuote?) {
        let clock = tariffs.clock
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

        let status = try RegulationStatus.at(time, in: tariffs)
        let regulation = ParkAnswer.Regulation(
            regulated: status.regulated, until: status.until.map(clock.iso8601), reason: Self.code(status.reason),
            message: Messages.status(status, clock: clock, language))

        var quote: TicketQuote?
        if let request, let zone {
            quote = try TicketQuote.compute(
                request, zone: zone.id, in: tariffs, start: time, remindersBefore: reminders)
        }
        let ticket = quote.map { q in
            ParkAnswer.Ticket(
                amount: q.amount.decimal, minutes: q.minutes, requestedMinutes: q.requestedMinutes,
                start: clock.iso8601(q.start), countingFrom: clock.iso8601(q.countingFrom), end: clock.iso8601(q.end),
                validUntil: clock.iso8601(q.validUntil), freeUntil: q.freeUntil.map(clock.iso8601),
                pauses: q.pauses.map { PauseAnswer($0, clock: clock, language: language) })
        }
        var maxStay: (minutes: Int, price: Money)?
        if let zone, let rates = zone.rates, let minutes = zone.maxStayMinutes {
            maxStay = (minutes, rates.price(for: minutes))
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
        messages.append(regulation.message)
        if let q = quote {
            messages.append(Messages.purchase(q, language))
            if let free = q.freeUntil { messages.append(Messages.freeUntil(free, clock: clock, language)) }
            messages.append(Messages.ticketEnds(q, clock: clock, language))
            messages += PauseAnswer.sentences(ticket?.pauses ?? [], of: q, clock: clock)
            if let valid = Messages.validUntil(q, clock: clock, language) { messages.append(valid) }
            messages += q.reminders.map { Messages.reminder($0, clock: clock, language) }
        }
        if let maxStay {
            messages.append(Messages.maxStay(minutes: maxStay.minutes, price: maxStay.price, language))
        }
        if let zone { messages.append(zone.whoMayPark[language]) }
        if match != nil { messages += residents }
        messages += notes
        let provisional = status.provisionalCalendar || (quote?.provisionalCalendar ?? false)
        if provisional { messages.append(Messages.provisional(language)) }

        let answer = ParkAnswer(
            query: .init(latitude: point.y, longitude: point.x), at: clock.iso8601(time), city: tariffs.city,
            language: language.rawValue, sector: sector, zone: zoneInfo, regulation: regulation, ticket: ticket,
            reminders: quote.map { TariffAnswer.Reminder.list($0, clock: clock) } ?? [],
            maxStay: maxStay.map { .init(minutes: $0.minutes, amount: $0.price.decimal) },
            whoMayPark: zone?.whoMayPark[language], residents: residents, notes: notes,
            provisionalCalendar: provisional, messages: messages)
        return (answer, quote)
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
