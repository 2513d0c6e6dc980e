import Foundation

extension NearestAnswer {
    /// The hits as a GeoJSON FeatureCollection (RFC 7946, longitude first), nearest first: each
    /// a Point with id, name, category, distance, bearing, geo URI and pin as properties.
    public var geoJSON: [String: Any] {
        ["type": "FeatureCollection", "features": hits.map { $0.geoJSONFeature() }]
    }
}

extension ServicesAnswer {
    /// Every group's hits as one GeoJSON FeatureCollection, each feature naming its
    /// `serviceType` and `layer`; groups in order, each nearest first.
    public var geoJSON: [String: Any] {
        let features = groups.flatMap { group in
            group.hits.map { $0.geoJSONFeature(extra: ["serviceType": group.type, "layer": group.layer]) }
        }
        return ["type": "FeatureCollection", "features": features]
    }
}

extension NearestAnswer.Hit {
    func geoJSONFeature(extra: [String: Any] = [:]) -> [String: Any] {
        var properties: [String: Any] = [
            "id": id, "distanceMetres": distanceMetres, "bearingDegrees": bearingDegrees, "geoURI": geoURI,
        ]
        if let name { properties["name"] = name }
        if let category { properties["category"] = category }
        if let pin { properties["pin"] = pin }
        properties.merge(extra) { _, new in new }
        return [
            "type": "Feature", "id": id, "properties": properties,
            "geometry": ["type": "Point", "coordinates": [position.longitude, position.latitude]],
        ]
    }
}
