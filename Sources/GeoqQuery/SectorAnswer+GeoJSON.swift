import GeoqCore

extension SectorLookup {
    /// The answer as a GeoJSON FeatureCollection (RFC 7946, longitude first): the query
    /// point, then each matched feature (or the nearest one) with its polygon.
    ///
    /// Returned as a JSON-compatible value so each face can serialise it its own way.
    public func geoJSON(for answer: SectorAnswer) -> [String: Any] {
        var features: [[String: Any]] = []
        var queryProperties: [String: Any] = [
            "role": "query", "layer": answer.layer, "approximate": answer.approximate,
            "inside": answer.inside.map(\.id),
        ]
        if let note = answer.approximation { queryProperties["approximation"] = note }
        if let time = answer.timeZone {
            var object: [String: Any] = ["zone": time.zone, "instant": time.instant]
            if let offset = time.utcOffset { object["utcOffset"] = offset }
            if let seconds = time.utcOffsetSeconds { object["utcOffsetSeconds"] = seconds }
            if let local = time.localTime { object["localTime"] = local }
            if let summer = time.daylightSaving { object["daylightSaving"] = summer }
            if let problem = time.problem { object["problem"] = problem }
            queryProperties["timeZone"] = object
        }
        if let hint = answer.swapHint {
            queryProperties["swapHint"] =
                "latitude \(hint.latitude), longitude \(hint.longitude) is in \(hint.features.joined(separator: ", ")) (\(hint.layer))"
        }
        features.append([
            "type": "Feature",
            "geometry": ["type": "Point", "coordinates": [answer.query.longitude, answer.query.latitude]],
            "properties": queryProperties,
        ])
        for m in answer.inside + (answer.nearest.map { [$0] } ?? []) {
            guard let item = layer.features.firstIndex(where: { $0.id == m.id }) else { continue }
            var properties: [String: Any] = [
                "role": m.location == "exterior" ? "nearest" : "inside",
                "id": m.id, "layer": answer.layer, "location": m.location,
                "distanceToEdgeMetres": m.distanceToEdgeMetres, "approximate": answer.approximate,
            ]
            if let name = m.name { properties["name"] = name }
            features.append([
                "type": "Feature", "id": m.id,
                "geometry": layer.features[item].geometry.geoJSONObject,
                "properties": properties,
            ])
        }
        return ["type": "FeatureCollection", "features": features]
    }
}
