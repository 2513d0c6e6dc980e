import Foundation
import GeoqCore
import GeoqJSON
import GeoqQuery
import GeoqSchedule
import GeoqTariffs

// The park answer written straight as JSON, for the service's `GET /v1/park`: the same bytes as
// `answer(...)`'s ParkAnswer written with JSONText (and so as JSONEncoder's), made from parts
// written once. Per request only the spot's own members are written (the point, the sector,
// the zone found, the first message); the tariff part (about three quarters of the text) is
// copied from the bytes kept with it, the residents' lines from those kept per sector and zone.
// The tests hold the two paths to the same bytes over thousands of real requests.

extension ParkQuery {
    /// The answer of ``answer(at:time:zoneID:request:reminders:language:)`` as its JSON text
    /// (members in sorted key order, as ``ParkAnswer``'s `write(to:)` writes them).
    /// - Parameter capacity: bytes reserved for the text (a park answer is 1.5 to 3.5 KB).
    /// - Returns: the text, and whether a ticket was priced (a ticket asked without a zone is
    ///   not: the caller refuses it, as it refuses an answer without a quote).
    public func answerText(
        at point: Point, time: Date, zoneID: String?, request: TicketQuote.Request?, reminders: [Int] = [],
        language: Language, reservingCapacity capacity: Int = 4096
    ) throws(TariffError) -> (text: [UInt8], priced: Bool) {
        let spot = try locate(point, zoneID: zoneID, language: language)
        let part = try tariffPart(for: spot, time: time, request: request, reminders: reminders, language: language)
        let text = part.text
        let residents = residentsLines(sectorID: spot.match?.id, zone: spot.zone, language: language)
        // The layer's note, written once per language (checked to be the note of this answer).
        let approximation = spot.found.approximation.map { note in
            approximationTexts[language].flatMap { $0.note == note ? $0 : nil }
                ?? ApproximationText(note: note, language: language)
        }
        // No zone: the note saying why; a zone: its notes (a zone has no such note).
        let notes = spot.noZoneNote?.written ?? text.zoneNotes

        var json = JSONText(reservingCapacity: capacity)
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
            ParkAnswer.Position(latitude: point.y, longitude: point.x).write(to: &json)
            json.value(text.regulationAndReminders)
            json.key("residents")
            json.array { json in if let lines = residents.elements { json.value(lines) } }
            json.key("sector")
            spot.sector.write(to: &json, approximation: approximation?.written)
            if let last = text.ticketAndWhoMayPark { json.value(last) }
            json.member("zone", spot.zoneInfo) { $1.write(to: &$0) }
        }
        return (json.bytes, part.quote != nil)
    }

    /// The residents' lines of a spot in `sectorID` (nil: in none) and `zone`, from the
    /// ``cache`` when there is one.
    func residentsLines(sectorID: String?, zone: Zone?, language: Language) -> ResidentsLines {
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
