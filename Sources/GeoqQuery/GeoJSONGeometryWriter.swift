import GeoqCore

extension Geometry {
    /// The geometry as a GeoJSON geometry object (RFC 7946, longitude first), as a JSON-compatible
    /// value so that each face can serialise the answer that holds it its own way.
    var geoJSONObject: [String: Any] {
        func position(_ p: Point) -> [Double] { [p.x, p.y] }
        func rings(_ p: Polygon) -> [[[Double]]] { p.rings.map { $0.points.map(position) } }
        switch self {
        case .point(let p): return ["type": "Point", "coordinates": position(p)]
        case .multiPoint(let ps): return ["type": "MultiPoint", "coordinates": ps.map(position)]
        case .lineString(let ps): return ["type": "LineString", "coordinates": ps.map(position)]
        case .multiLineString(let ls): return ["type": "MultiLineString", "coordinates": ls.map { $0.map(position) }]
        case .polygon(let p): return ["type": "Polygon", "coordinates": rings(p)]
        case .multiPolygon(let mp): return ["type": "MultiPolygon", "coordinates": mp.polygons.map(rings)]
        }
    }
}
