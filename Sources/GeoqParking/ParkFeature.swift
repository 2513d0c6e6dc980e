/// The park answer as a GeoJSON Feature (RFC 7946): the spot, longitude first, with the whole
/// answer as its properties.
public struct ParkFeature: Encodable, Sendable {
    public let type = "Feature"
    public let geometry: PointGeometry
    public let properties: ParkAnswer

    public struct PointGeometry: Encodable, Sendable {
        public let type = "Point"
        public let coordinates: [Double]
    }

    public init(answer: ParkAnswer) {
        geometry = PointGeometry(coordinates: [answer.query.longitude, answer.query.latitude])
        properties = answer
    }
}
