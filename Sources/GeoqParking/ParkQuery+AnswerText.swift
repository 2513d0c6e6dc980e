import Foundation
import GeoqCore
import GeoqJSON
import GeoqQuery
import GeoqSchedule
import GeoqTariffs

// The park answer written straight as JSON, for the service's `GET /v1/park`: the same bytes as
// `answer(...)`'s ParkAnswer written with JSONText (and so as JSONEncoder's), made from parts
// written once. With a cache, the whole answer of a tariff part (a minute, zone, ticket and
// language) for a kind of spot (its sector or nearest sector, how its zone is known) is kept as
// a template whose holes are the point's numbers (its latitude and longitude, its distances):
// a request copies the template and writes two to four numbers. The tests hold the two paths
// to the same bytes over thousands of real requests.

extension ParkQuery {
    /// The answer of ``answer(at:time:zoneID:request:reminders:language:)`` as its JSON text
    /// (members in sorted key order, as ``ParkAnswer``'s `write(to:)` writes them).
    /// - Returns: the text, and whether a ticket was priced (a ticket asked without a zone is
    ///   not: the caller refuses it, as it refuses an answer without a quote).
    public func answerText(
        at point: Point, time: Date, zoneID: String?, request: TicketQuote.Request?, reminders: [Int] = [],
        language: Language
    ) throws(TariffError) -> (text: ParkAnswerText, priced: Bool) {
        let spot = try locate(point, zoneID: zoneID, language: language)
        let part = try tariffPart(for: spot, time: time, request: request, reminders: reminders, language: language)
        guard cache != nil else {
            var json = JSONText(reservingCapacity: 4096)
            write(&json, point: point, spot: spot, part: part, language: language) { $0.number($1) }
            return (ParkAnswerText(template: JSONText.Template(json, holes: []), numbers: []), part.priced)
        }
        // The numbers in the order the answer writes them (query, sector, zone).
        var numbers: [Double] = []
        numbers.reserveCapacity(4)
        numbers.append(point.y)
        numbers.append(point.x)
        if let distance = spot.sector.distanceToEdgeMetres { numbers.append(distance) }
        if let distance = spot.zoneInfo?.distanceMetres { numbers.append(distance) }
        let key = TemplateKey(part: part, spot: spot)
        if let template = templates.withLock({ $0[key] }) {
            return (ParkAnswerText(template: template, numbers: numbers), part.priced)
        }
        var json = JSONText(reservingCapacity: 4096)
        var holes: [Int] = []
        write(&json, point: point, spot: spot, part: part, language: language) { json, _ in holes.append(json.hole()) }
        let template = JSONText.Template(json, holes: holes)
        templates.withLock { templates in
            if templates.count >= Self.templateCapacity { templates.removeAll(keepingCapacity: true) }
            templates[key] = template
        }
        return (ParkAnswerText(template: template, numbers: numbers), part.priced)
    }

    /// The most answer templates kept at once (then they start again empty): a few per tariff
    /// part, about a thousand parts a minute under the realistic load.
    static let templateCapacity = 8192

    /// What an answer's text depends on besides its numbers, for a query (its sector layer,
    /// zone lines and tariffs): the tariff part (the very one: a part is never equal to another
    /// part made anew), the spot's sector or nearest sector, and how its zone is known.
    struct TemplateKey: Hashable, Sendable {
        var part: TariffPart
        var sectorID: String?
        var sectorName: String?
        var nearestID: String?
        var hasDistance: Bool
        var zoneSource: String?

        init(part: TariffPart, spot: Spot) {
            self.part = part
            sectorID = spot.sector.id
            sectorName = spot.sector.name
            nearestID = spot.sector.nearestID
            hasDistance = spot.sector.distanceToEdgeMetres != nil
            zoneSource = spot.zoneInfo?.source
        }

        static func == (a: Self, b: Self) -> Bool {
            a.part === b.part && a.sectorID == b.sectorID && a.sectorName == b.sectorName
                && a.nearestID == b.nearestID && a.hasDistance == b.hasDistance && a.zoneSource == b.zoneSource
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(part))
            hasher.combine(sectorID)
            hasher.combine(sectorName)
            hasher.combine(nearestID)
            hasher.combine(hasDistance)
            hasher.combine(zoneSource)
        }
    }

    /// Writes the answer at `point` for `spot` with `part`; `number` writes each of the point's
    /// numbers (latitude, longitude, the sector's distance, the zone's), or leaves its hole.
    func write(
        _ json: inout JSONText, point: Point, spot: Spot, part: TariffPart, language: Language,
        number: (inout JSONText, Double) -> Void
    ) {
        let text = part.text
        let residents = residentsLines(sectorID: spot.match?.id, zone: spot.zone, language: language)
        // The layer's note, written once per language (checked to be the note of this answer).
        let approximation = spot.found.approximation.map { note in
            written[language].approximation.flatMap { $0.note == note ? $0 : nil }
                ?? ApproximationText(note: note, language: language)
        }
        // No zone: the note saying why; a zone: its notes (a zone has no such note).
        let notes = spot.noZoneNote?.written ?? text.zoneNotes
        json.object { json in
            json.value(text.head)
            json.key("messages")
            json.array { json in
                let sectorLine = Self.sectorLine(spot.match, residents: residents.lines, language)
                json.string(spot.zoneInfo.map { sectorLine + " — " + $0.name } ?? sectorLine)
                if let approximation { json.value(approximation.message) }
                json.value(text.messages)
                if spot.match != nil, let lines = residents.elements { json.value(lines) }
                if let notes { json.value(notes) }
                if let provisional = text.provisional { json.value(provisional) }
            }
            json.key("notes")
            json.array { json in if let notes { json.value(notes) } }
            json.key("provisionalCalendar")
            json.bool(part.provisionalCalendar)
            json.key("query")
            json.object { json in
                json.key("latitude")
                number(&json, point.y)
                json.key("longitude")
                number(&json, point.x)
            }
            json.value(text.regulationAndReminders)
            json.key("residents")
            json.array { json in if let lines = residents.elements { json.value(lines) } }
            json.key("sector")
            spot.sector.write(to: &json, approximation: approximation?.written, number: number)
            if let last = text.ticketAndWhoMayPark { json.value(last) }
            json.member("zone", spot.zoneInfo) { $1.write(to: &$0, number: number) }
        }
    }

    /// The residents' lines of a spot in `sectorID` (nil: in none) and `zone`, from the
    /// ``cache`` when there is one.
    func residentsLines(sectorID: String?, zone: Zone?, language: Language) -> ResidentsLines {
        // Outside every sector the line is the same for every zone: written once per language.
        guard sectorID != nil else { return written[language].outsideResidents }
        guard let cache else {
            return ResidentsLines(Messages.residents(sectorID: sectorID, zone: zone, tariffs: tariffs, language))
        }
        return cache.residents(for: ParkAnswerCache.ResidentsKey(sector: sectorID, zone: zone?.id, language: language))
        {
            ResidentsLines(Messages.residents(sectorID: sectorID, zone: zone, tariffs: tariffs, language))
        }
    }
}

/// A sector layer's approximation note as a park answer writes it: the sector's
/// `approximation` member and the message that says it.
struct ApproximationText: Sendable {
    var note: String
    var written: JSONText.Fragment
    var message: JSONText.Fragment

    init(note: String, language: Language) {
        self.note = note
        written = JSONText.Fragment(string: note)
        message = JSONText.Fragment(string: Messages.approximateSector(note, language))
    }
}

/// A park answer's JSON text: a template and the numbers that fill it, written out where the
/// caller wants it (a network buffer) without an array in between.
public struct ParkAnswerText: Sendable {
    let template: JSONText.Template
    let numbers: [Double]

    /// The text.
    public var bytes: [UInt8] { template.filled(numbers) }

    /// The most bytes the text takes.
    public var maximumCount: Int { template.maximumCount }

    /// Hands the text to `append`, piece by piece.
    public func write(to append: (UnsafeRawBufferPointer) -> Void) { template.write(numbers, to: append) }
}
