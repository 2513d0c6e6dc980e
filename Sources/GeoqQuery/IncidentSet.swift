import GeoqCore
import GeoqIncidents

/// Incidents held for questions near a position: each incident's line or area is indexed once,
/// when the set is made, so that a query measures to the nearest point of every line or area
/// without building anything per request.
///
/// Invariant: `shapes[i]` describes `incidents[i].geometry` (nil when it has none).
public struct IncidentSet: Sendable {
    /// The incidents, in the order they were given.
    public let incidents: [Incident]
    let shapes: [Shape?]

    /// An incident's geometry, ready for "which of its points is nearest to p?".
    enum Shape: Sendable {
        case points([Point])
        /// Line strings as segments (a single-point line as one zero-length segment).
        case lines(EdgeIndex)
        /// An area: inside it the nearest point is the position itself; outside, its boundary's.
        case area(IndexedPolygon)
    }

    public init(_ incidents: [Incident]) {
        self.incidents = incidents
        self.shapes = incidents.map { $0.geometry.map(Self.shape) }
    }

    public var count: Int { incidents.count }

    static func shape(_ geometry: Geometry) -> Shape {
        func segments(_ line: [Point]) -> [Segment] {
            line.count == 1 ? [Segment(line[0], line[0])] : zip(line, line.dropFirst()).map { Segment($0, $1) }
        }
        switch geometry {
        case .point(let p): return .points([p])
        case .multiPoint(let points): return .points(points)
        case .lineString(let line): return .lines(EdgeIndex(segments: segments(line)))
        case .multiLineString(let lines): return .lines(EdgeIndex(segments: lines.flatMap(segments)))
        case .polygon, .multiPolygon:
            return .area(IndexedPolygon(geometry.areal!))
        }
    }

    /// The point of incident `i` nearest to `p` (measured in the local metric at p's latitude),
    /// or nil when the incident has no location.
    func nearestPoint(of i: Int, to p: Point) -> Point? {
        guard let shape = shapes[i] else { return nil }
        let metric = LocalMetric(wgs84AtLatitude: p.y)
        switch shape {
        case .points(let points):
            // The first of equally near points, as a scan in order keeps it.
            var best: (point: Point, distance: Double)?
            for q in points {
                let d = metric.distance(p, q)
                if d < (best?.distance ?? .infinity) { best = (q, d) }
            }
            return best?.point
        case .lines(let edges):
            return edges.nearest(to: p, metric: metric)?.point
        case .area(let polygon):
            return polygon.covers(p) ? p : polygon.boundary.nearest(to: p, metric: metric)?.point
        }
    }
}
