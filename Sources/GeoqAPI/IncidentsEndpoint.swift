import Foundation
import GeoqIncidents
import GeoqPROJ

/// `GET /v1/incidents[?lat=&lon=[&within=M]][&type=T...][&since=ISO][&n=N]`: the answer of
/// `geoq incidents --format json`, from the incidents the snapshot read from the store.
public enum IncidentsEndpoint {
    public static let parameters = EndpointDescription.incidents.parameterNames

    public static func answer(_ query: QueryParameters, data: ServiceData) throws(Problem) -> IncidentsAnswer {
        try query.allowOnly(parameters)
        if let problem = data.incidentsProblem { throw .internalError(problem) }
        let hasLatitude = try query.value("lat") != nil, hasLongitude = try query.value("lon") != nil
        if hasLatitude != hasLongitude {
            let missing = hasLatitude ? "lon" : "lat"
            throw .missing(missing, "\(missing) is required with \(hasLatitude ? "lat" : "lon"): give both, or neither")
        }
        let near = hasLatitude ? try query.point() : nil
        let within = try query.metres("within")
        if within != nil && near == nil { throw .missing("lat", "within needs a position: give lat and lon") }
        var types: Set<IncidentType> = []
        for text in try query.values("type") {
            guard let type = IncidentType(argument: text) else {
                let known = IncidentType.allCases.map { "\($0.rawValue) \($0.code)" }.joined(separator: ", ")
                throw .invalid("type", "no incident type \"\(QueryParameters.shown(text))\"; types: \(known)")
            }
            types.insert(type)
        }
        var since: Date?
        if let text = try query.value("since") {
            guard let date = IncidentsAnswer.since(text) else {
                throw .invalid(
                    "since",
                    "since must be ISO 8601, e.g. 2026-11-20T00:00 or 2026-11-20T00:00:00Z, got \"\(QueryParameters.shown(text))\""
                )
            }
            since = date
        }
        let limit = try query.integer("n", in: 1...100_000)
        let hits = IncidentQuery(types: types, near: near, withinMetres: within, since: since)
            .run(data.incidents, geodesic: Geodesic.wgs84)
        return IncidentsAnswer(
            limit.map { Array(hits.prefix($0)) } ?? hits, held: data.incidents.count,
            refreshedAt: data.incidentsRefreshedAt)
    }
}
