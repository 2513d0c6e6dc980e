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
    public static func answer(_ query: QueryParameters, data: ServiceData, acceptLanguage: String? = nil)
        throws(Problem) -> (answer: SectorAnswer, lookup: SectorLookup)
    {
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
            let answer = lookup.answer(for: point, language: language) { data.swapCandidates[name] ?? [] }
            return (answer, lookup)
        }
    }
}
