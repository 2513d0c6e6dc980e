import GeoqCore
import GeoqTariffs

/// Which regulated zone a car stands in, from the city's zone lines (the colour painted along
/// each regulated street segment, e.g. Pamplona's `SEGU_Lin_EsRegZonas`): the nearest segment
/// within a tolerance gives the zone.
///
/// Distances are metres in a local tangent plane at the query point (WGS84 radii of curvature,
/// ``LocalMetric``): within the tolerance of a few tens of metres its error is far below the
/// width of a street.
public struct ZoneLocator: Sendable {
    public struct Segment: Sendable {
        public var zone: String
        public var featureID: String
        public var a: Point
        public var b: Point

        public init(zone: String, featureID: String, a: Point, b: Point) {
            self.zone = zone
            self.featureID = featureID
            self.a = a
            self.b = b
        }
    }

    /// The regulated segments, in layer order; `segments[i]` is edge `i` of the edge index.
    public let segments: [Segment]
    /// How far from a regulated segment a car may stand and still be in its zone.
    public let toleranceMetres: Double
    /// The segments' geometry, built once: each query opens only the boxes near the point.
    let index: EdgeIndex

    public init(segments: [Segment], toleranceMetres: Double) {
        precondition(toleranceMetres > 0, "the tolerance must be positive")
        self.segments = segments
        self.toleranceMetres = toleranceMetres
        self.index = EdgeIndex(segments: segments.map { GeoqCore.Segment($0.a, $0.b) })
    }

    /// Builds the segments from line features: `zoneOf` names each feature's zone (nil: not
    /// a regulated segment, left out). Polygon features contribute their rings.
    public init(features: [Feature], toleranceMetres: Double, zoneOf: (Feature) -> String?) {
        var segments: [Segment] = []
        for feature in features {
            guard let zone = zoneOf(feature) else { continue }
            let lines: [[Point]]
            switch feature.geometry {
            case .lineString(let points): lines = [points]
            case .multiLineString(let parts): lines = parts
            case .polygon(let polygon): lines = polygon.rings.map(\.points.array)
            case .multiPolygon(let mp): lines = mp.polygons.flatMap { $0.rings.map(\.points.array) }
            case .point, .multiPoint: lines = []
            }
            for line in lines where line.count >= 2 {
                for i in 1..<line.count {
                    segments.append(Segment(zone: zone, featureID: feature.id, a: line[i - 1], b: line[i]))
                }
            }
        }
        self.init(segments: segments, toleranceMetres: toleranceMetres)
    }

    /// The zone lines of a city's tariffs: `features` of `spec.layer`, each segment's zone read
    /// from `spec.field` through `spec.values`.
    public init(features: [Feature], spec: CityTariffs.ZoneLayerSpec) {
        self.init(features: features, toleranceMetres: spec.toleranceMetres) {
            $0.properties[spec.field]?.text.flatMap { spec.values[$0] }
        }
    }

    public struct Match: Hashable, Sendable {
        public var zone: String
        public var featureID: String
        public var distanceMetres: Double
    }

    /// The nearest segment within the tolerance (ties: the first in layer order), or nil.
    public func zone(at point: Point) -> Match? {
        let metric = LocalMetric(wgs84AtLatitude: point.y)
        guard let nearest = index.nearest(to: point, metric: metric, within: toleranceMetres) else { return nil }
        let segment = segments[nearest.edge]
        return Match(zone: segment.zone, featureID: segment.featureID, distanceMetres: nearest.distance)
    }
}
