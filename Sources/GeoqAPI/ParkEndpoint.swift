import Foundation
import GeoqParking
import GeoqQuery
import GeoqSchedule
import GeoqTariffs

/// `GET /v1/park?lat=&lon=[&zone=Z][&(minutes=M|euros=X)][&at=ISO][&city=pamplona][&reminder=5][&lang=]`:
/// the answer of `geoq park` (sector, zone, regulation now, an optional ticket), in the language
/// of `lang`, else of `Accept-Language`, else Spanish.
public enum ParkEndpoint {
    public static let parameters = EndpointDescription.park.parameterNames

    /// - Parameters:
    ///   - acceptLanguage: the request's `Accept-Language` header, if any.
    ///   - now: the time asked about when `at` is absent.
    public static func answer(
        _ query: QueryParameters, data: ServiceData, acceptLanguage: String?, now: Date = Date()
    ) throws(Problem) -> ParkAnswer {
        try query.allowOnly(parameters)
        return try TariffEndpoint.inLanguage(query, acceptLanguage: acceptLanguage) { language throws(Problem) in
            try answer(query, data: data, language: language, now: now)
        }
    }

    static func answer(_ query: QueryParameters, data: ServiceData, language: Language, now: Date) throws(Problem)
        -> ParkAnswer
    {
        let point = try query.point()
        let zone = try query.value("zone")
        let euros = try query.value("euros"), minutes = try query.value("minutes")
        var request: TicketQuote.Request?
        if euros != nil || minutes != nil { request = try TariffEndpoint.ticketRequest(query) }
        let reminders = try TariffEndpoint.reminderMinutes(query)
        let atText = try query.value("at")
        let city = try query.value("city") ?? "pamplona"
        let tariffs = try TariffEndpoint.cityTariffs(city, data: data, language: language)
        let sectorLayer = tariffs.sectorLayer ?? data.defaultSectorLayer
        guard let sectors = data.sectorLookups[sectorLayer] else {
            throw .internalError("the sector layer \(sectorLayer) of \(city) is not loaded (see /v1/layers)")
        }
        // `at` reads as `start` of /v1/tariff does; its errors name `at`.
        var time = now
        if let atText {
            do throws(TariffError) { time = try TariffEndpoint.startTime(atText, clock: tariffs.clock) } catch {
                var problem = Problem.invalid("at", error.message(language))
                problem.localizedDetail = LocalizedText(
                    es: error.message(.es), eu: error.message(.eu), en: error.message(.en))
                throw problem
            }
        }
        do throws(TariffError) {
            // The snapshot's cache holds the same tariffs (both are made from one load).
            let query =
                data.parkAnswerCaches[city].map {
                    ParkQuery(cache: $0, sectors: sectors, zones: data.zoneLocators[city])
                }
                ?? ParkQuery(tariffs: tariffs, sectors: sectors, zones: data.zoneLocators[city])
            let result = try query.answer(
                at: point, time: time, zoneID: zone, request: request, reminders: reminders, language: language)
            if request != nil && result.quote == nil { throw TariffError.zoneNeeded(city: city) }
            return result.answer
        } catch {
            throw Problem(error, language: language, request: request)
        }
    }
}
