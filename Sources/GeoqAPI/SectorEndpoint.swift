import Foundation
import GeoqCore
import GeoqQuery
import GeoqSchedule

/// `GET /v1/sector?lat=LAT&lon=LON[&layer=NAME][&lang=es|eu|en]`: the answer of `geoq
/// which-sector`, an approximate layer's note in the language of `lang`, else of
/// `Accept-Language`, else English.
public enum SectorEndpoint {
    public static let parameters = EndpointDescription.sector.parameterNames

    /// The answer, and the lookup that gave it (for a GeoJSON rendering).
    /// - Parameter acceptLanguage: the request's `Accept-Language` header, if any.
    /// - Parameter now: the instant a time-zone layer's local time is given for when `at` is absent.
    public static func answer(
        _ query: QueryParameters, data: ServiceData, acceptLanguage: String? = nil, now: Date = Date()
    ) throws(Problem) -> (answer: SectorAnswer, lookup: SectorLookup) {
        try query.allowOnly(parameters)
        return try TariffEndpoint.inLanguage(query, acceptLanguage: acceptLanguage, default: .en) {
            language throws(Problem) in
            let point = try query.point()
            let name = try query.value("layer") ?? data.defaultSectorLayer
            guard let lookup = data.sectorLookups[name] else {
                throw .unknownLayer(name, kind: "polygon", known: data.servedLayers(kind: "polygon"))
            }
            // The other layers, for the "did you swap latitude and longitude?" hint (only
            // wanted for a point outside the layer).
            let instant = try instant(query) ?? now
            let answer = lookup.answer(for: point, language: language, at: instant) { data.swapCandidates[name] ?? [] }
            return (answer, lookup)
        }
    }

    /// The `at` parameter: the instant a time-zone layer gives the local time for.
    static func instant(_ query: QueryParameters) throws(Problem) -> Date? {
        guard let text = try query.value("at") else { return nil }
        guard let date = LocalTime.instant(parsing: text) else {
            let shown = QueryParameters.shown(text)
            throw .invalid(
                "at",
                LocalizedText(
                    es:
                        "at debe ser un instante ISO 8601 con desfase, p. ej. 2026-07-15T12:00:00Z; se recibió \"\(shown)\"",
                    eu:
                        "at desfasea duen ISO 8601 une bat izan behar da, adib. 2026-07-15T12:00:00Z; \"\(shown)\" jaso da",
                    en: "at must be an ISO 8601 instant with an offset, e.g. 2026-07-15T12:00:00Z, got \"\(shown)\""))
        }
        return date
    }
}
