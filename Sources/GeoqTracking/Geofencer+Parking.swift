import Foundation
import GeoqCore
import GeoqParking
import GeoqTariffs

extension Geofencer {
    /// The minutes before a ticket's end at which `parked` suggests reminders.
    public static let reminderMinutes = [10, 5]

    /// The park answer a `parked` event carries, and its reminder times.
    ///
    /// When the zone is known (from the city's zone lines), it has a max stay, and parking is
    /// regulated at `time`, the answer quotes a ticket for that max stay bought now, and the
    /// reminders are its end less ``reminderMinutes`` (the latest a driver can come back).
    /// Otherwise the answer is "can I park here?" alone and there are no reminders. Nil when the
    /// engine has no park query, or the tariff refuses even the plain question.
    public func parkAnswer(at point: Point, time: Date) -> (answer: ParkAnswer?, reminders: [String]?) {
        guard let query = parkQuery else { return (nil, nil) }
        if let request = Self.ticketRequest(query, at: point, time: time),
            let result = try? query.answer(
                at: point, time: time, zoneID: nil, request: request, reminders: Self.reminderMinutes,
                language: language)
        {
            return (result.answer, result.answer.reminders.map(\.at))
        }
        guard let result = try? query.answer(at: point, time: time, zoneID: nil, request: nil, language: language)
        else { return (nil, nil) }
        return (result.answer, [])
    }

    /// The max-stay ticket of the zone found at `point`, when parking there is regulated at `time`.
    public static func ticketRequest(_ query: ParkQuery, at point: Point, time: Date) -> TicketQuote.Request? {
        guard let hit = query.zones?.zone(at: point), let zone = try? query.tariffs.zone(hit.zone),
            zone.rates != nil, let minutes = zone.maxStayMinutes,
            let status = try? RegulationStatus.at(time, in: query.tariffs), status.regulated
        else { return nil }
        return .minutes(minutes)
    }
}
