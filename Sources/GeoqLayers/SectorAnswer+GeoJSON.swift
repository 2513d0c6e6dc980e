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
                "geometry": Self.geoJSONGeometry(layer.features[item].geometry),
                "properties": properties,
            ])
        }
        return ["type": "FeatureCollection", "features": features]
    }

    /// A core geometry as a GeoJSON geometry object.
    static func geoJSONGeometry(_ g: Geometry) -> [String: Any] {
        func position(_ p: Point) -> [Double] { [p.x, p.y] }
        func rings(_ p: Polygon) -> [[[Double]]] { p.rings.map { $0.points.map(position) } }
        switch g {
        case .point(let p): return ["type": "Point", "coordinates": position(p)]
        case .multiPoint(let ps): return ["type": "MultiPoint", "coordinates": ps.map(position)]
        case .lineString(let ps): return ["type": "LineString", "coordinates": ps.map(position)]
        case .multiLineString(let ls): return ["type": "MultiLineString", "coordinates": ls.map { $0.map(position) }]
        case .polygon(let p): return ["type": "Polygon", "coordinates": rings(p)]
        case .multiPolygon(let mp): return ["type": "MultiPolygon", "coordinates": mp.polygons.map(rings)]
        }
    }
}
