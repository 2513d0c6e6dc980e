import Foundation
import GeoqIncidents

extension IncidentsAnswer {
    /// `hits` as a GeoJSON FeatureCollection (RFC 7946, longitude first), in their order: each
    /// incident with a geometry, its properties those of the JSON answer's item.
    public static func geoJSON(_ hits: [IncidentQuery.Hit]) -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let features: [[String: Any]] = hits.compactMap { hit in
            guard let geometry = hit.incident.geometry else { return nil }
            let item = (try? encoder.encode(Item(hit))).flatMap { try? JSONSerialization.jsonObject(with: $0) }
            return [
                "type": "Feature", "id": hit.incident.id, "geometry": geometry.geoJSONObject,
                "properties": item as? [String: Any] ?? [:],
            ]
        }
        return ["type": "FeatureCollection", "features": features]
    }
}
