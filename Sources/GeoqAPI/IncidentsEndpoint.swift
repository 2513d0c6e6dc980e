import Foundation
import GeoqIncidents
import GeoqQuery
import GeoqSchedule

/// `GET /v1/incidents[?lat=&lon=[&within=M]][&type=T...][&source=S...][&category=C...][&since=ISO][&n=N]`:
/// the answer of `geoq incidents --format json`, from the incidents the snapshot read from the
/// store.
public enum IncidentsEndpoint {
    public static let parameters = EndpointDescription.incidents.parameterNames

    public static func answer(_ query: QueryParameters, data: ServiceData) throws(Problem) -> IncidentsAnswer {
        IncidentsAnswer(
            try selection(query, data: data), held: data.incidents.count, refreshedAt: data.incidentsRefreshedAt)
    }

    /// The incidents the query selects, in the answer's order (what the GeoJSON rendering draws).
    public static func selection(_ query: QueryParameters, data: ServiceData) throws(Problem) -> [IncidentQuery.Hit] {
        try query.allowOnly(parameters)
        if let problem = data.incidentsProblem { throw .internalError(problem) }
        let hasLatitude = try query.value("lat") != nil, hasLongitude = try query.value("lon") != nil
        if hasLatitude != hasLongitude {
            let missing = hasLatitude ? "lon" : "lat"
            let given = hasLatitude ? "lat" : "lon"
            throw .missing(
                missing,
                LocalizedText(
                    es: "\(missing) es obligatorio con \(given): indique los dos, o ninguno",
                    eu: "\(missing) derrigorrezkoa da \(given) ematean: eman biak, edo bat ere ez",
                    en: "\(missing) is required with \(given): give both, or neither"))
        }
        let near = hasLatitude ? try query.point() : nil
        let within = try query.metres("within")
        if within != nil && near == nil {
            throw .missing(
                "lat",
                LocalizedText(
                    es: "within necesita una posición: indique lat y lon",
                    eu: "within-ek posizio bat behar du: eman lat eta lon",
                    en: "within needs a position: give lat and lon"))
        }
        var types: Set<IncidentType> = []
        for text in try query.values("type") {
            guard let type = IncidentType(argument: text) else {
                let known = IncidentType.allCases.map { "\($0.rawValue) \($0.code)" }.joined(separator: ", ")
                let shown = QueryParameters.shown(text)
                throw .invalid(
                    "type",
                    LocalizedText(
                        es: "no hay ningún tipo de incidencia \"\(shown)\"; tipos: \(known)",
                        eu: "ez dago \"\(shown)\" gertaera-motarik; motak: \(known)",
                        en: "no incident type \"\(shown)\"; types: \(known)"))
            }
            types.insert(type)
        }
        let sources = try query.values("source")
        let categories = try query.values("category")
        var since: Date?
        if let text = try query.value("since") {
            guard let date = IncidentsAnswer.since(text) else {
                let shown = QueryParameters.shown(text)
                throw .invalid(
                    "since",
                    LocalizedText(
                        es:
                            "since debe ser ISO 8601, p. ej. 2026-11-20T00:00 o 2026-11-20T00:00:00Z; se recibió \"\(shown)\"",
                        eu:
                            "since ISO 8601 izan behar da, adib. 2026-11-20T00:00 edo 2026-11-20T00:00:00Z; \"\(shown)\" jaso da",
                        en: "since must be ISO 8601, e.g. 2026-11-20T00:00 or 2026-11-20T00:00:00Z, got \"\(shown)\""))
            }
            since = date
        }
        let limit = try query.integer("n", in: 1...100_000)
        let hits = IncidentQuery(
            types: types, sources: Set(sources), categories: categories, near: near, withinMetres: within, since: since
        )
        .run(data.incidents, geodesic: data.geodesic)
        return limit.map { Array(hits.prefix($0)) } ?? hits
    }
}
