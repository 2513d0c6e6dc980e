import GeoqCore
import GeoqJSON

extension JSONText {
    /// `geometry` as a GeoJSON geometry object (RFC 7946: longitude first, keys sorted), the one
    /// writer of every answer that hands out a layer's features. `transform` maps each position
    /// first (another CRS's axes, for an answer asked in one).
    mutating func geoJSONGeometry(_ geometry: Geometry, transform: ((Point) -> Point)? = nil) {
        func position(_ json: inout JSONText, _ point: Point) {
            let point = transform.map { $0(point) } ?? point
            json.array { json in
                json.number(point.x)
                json.number(point.y)
            }
        }
        func line(_ json: inout JSONText, _ points: some Collection<Point>) {
            json.array { json in for point in points { position(&json, point) } }
        }
        func polygon(_ json: inout JSONText, _ polygon: Polygon) {
            json.array { json in for ring in polygon.rings { line(&json, ring.points) } }
        }
        object { json in
            json.key("coordinates")
            switch geometry {
            case .point(let point): position(&json, point)
            case .multiPoint(let points), .lineString(let points): line(&json, points)
            case .multiLineString(let lines): json.array { json in for points in lines { line(&json, points) } }
            case .polygon(let shape): polygon(&json, shape)
            case .multiPolygon(let shapes):
                json.array { json in for shape in shapes.polygons { polygon(&json, shape) } }
            }
            json.key("type")
            json.string(geometry.typeName)
        }
    }
}
