import Foundation
import GeoqCore
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
        try answering(query, data: data, acceptLanguage: acceptLanguage, now: now) {
            parkQuery, asked throws(TariffError) in
            let (answer, quote) = try parkQuery.answer(
                at: asked.point, time: asked.time, zoneID: asked.zone, request: asked.request,
                reminders: asked.reminders, language: asked.language)
            return (answer, quote != nil)
        }
    }

    /// The same answer as ``answer(_:data:acceptLanguage:now:)``, as its JSON text (the bytes
    /// `ParkAnswer`'s JSONText writes), written from the parts the snapshot keeps written.
    public static func answerText(
        _ query: QueryParameters, data: ServiceData, acceptLanguage: String?, now: Date = Date()
    ) throws(Problem) -> ParkAnswerText {
        try answering(query, data: data, acceptLanguage: acceptLanguage, now: now) {
            parkQuery, asked throws(TariffError) in
            try parkQuery.answerText(
                at: asked.point, time: asked.time, zoneID: asked.zone, request: asked.request,
                reminders: asked.reminders, language: asked.language)
        }
    }

    /// Reads the query, then answers with `answer` over the city's park query (which also says
    /// whether a ticket was priced); every refusal becomes the problem the API promises, in the
    /// answer's language.
    static func answering<Answer>(
        _ query: QueryParameters, data: ServiceData, acceptLanguage: String?, now: Date,
        _ answer: (ParkQuery, ParkQuestion) throws(TariffError) -> (Answer, priced: Bool)
    ) throws(Problem) -> Answer {
        try query.allowOnly(parameters)
        return try TariffEndpoint.inLanguage(query, acceptLanguage: acceptLanguage) { language throws(Problem) in
            try answering(query, data: data, language: language, now: now, answer)
        }
    }

    static func answering<Answer>(
        _ query: QueryParameters, data: ServiceData, language: Language, now: Date,
        _ answer: (ParkQuery, ParkQuestion) throws(TariffError) -> (Answer, priced: Bool)
    ) throws(Problem) -> Answer {
        let point = try query.point()
        let zone = try query.value("zone")
        let euros = try query.value("euros"), minutes = try query.value("minutes")
        var request: TicketQuote.Request?
        if euros != nil || minutes != nil { request = try TariffEndpoint.ticketRequest(query) }
        let reminders = try TariffEndpoint.reminderMinutes(query)
        let atText = try query.value("at")
        let city = try query.value("city") ?? "pamplona"
        // The snapshot's park query; without one (the city's sector layer is not loaded), the
        // refusal that says why.
        let parkQuery: ParkQuery
        if let kept = data.parkQueries[city] {
            parkQuery = kept
        } else {
            let tariffs = try TariffEndpoint.cityTariffs(city, data: data, language: language)
            let sectorLayer = tariffs.sectorLayer ?? data.defaultSectorLayer
            guard let sectors = data.sectorLookups[sectorLayer] else {
                throw .internalError("the sector layer \(sectorLayer) of \(city) is not loaded (see /v1/layers)")
            }
            parkQuery = ParkQuery(tariffs: tariffs, sectors: sectors, zones: data.zoneLocators[city])
        }
        // `at` reads as `start` of /v1/tariff does; its errors name `at`.
        var time = now
        if let atText {
            do throws(TariffError) { time = try TariffEndpoint.startTime(atText, clock: parkQuery.tariffs.clock) } catch
            {
                var problem = Problem.invalid("at", error.message(language))
                problem.localizedDetail = LocalizedText(
                    es: error.message(.es), eu: error.message(.eu), en: error.message(.en))
                throw problem
            }
        }
        do throws(TariffError) {
            let asked = ParkQuestion(
                point: point, time: time, zone: zone, request: request, reminders: reminders, language: language)
            let (result, priced) = try answer(parkQuery, asked)
            if request != nil && !priced { throw TariffError.zoneNeeded(city: city) }
            return result
        } catch {
            throw Problem(error, language: language, request: request)
        }
    }
}
