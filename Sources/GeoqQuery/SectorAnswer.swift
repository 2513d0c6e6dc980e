/// The answer to "in which feature of this layer is this point?", the same for every face
/// (CLI text, JSON, GeoJSON, the HTTP service).
///
/// Distances are geodesic metres on WGS84, rounded to the centimetre.
public struct SectorAnswer: Codable, Hashable, Sendable {
    public struct Position: Codable, Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// One feature and how far the point is from its edge.
    public struct Match: Codable, Hashable, Sendable {
        public var id: String
        public var name: String?
        /// "interior" or "boundary" for a feature the point is in; "exterior" for the
        /// nearest feature of a point that is in none.
        public var location: String
        /// Distance to the nearest edge of the feature: how safely inside, or how far away.
        public var distanceToEdgeMetres: Double
        /// The point of the feature's boundary nearest to the query.
        public var nearestEdgePoint: Position
    }

    /// The same numbers the other way round fall inside a feature: the user probably typed
    /// longitude first.
    public struct SwapHint: Codable, Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var layer: String
        public var features: [String]
    }

    public var query: Position
    public var layer: String
    /// True when the layer only approximates what it is named after.
    public var approximate: Bool
    /// Why the answer is approximate; present exactly when `approximate` is true.
    public var approximation: String?
    /// Every feature that covers the point (boundary included), in layer order. Empty when
    /// the point is outside every feature.
    public var inside: [Match]
    /// When `inside` is empty: the nearest feature.
    public var nearest: Match?
    public var swapHint: SwapHint?
    /// On a time-zone layer: the zone that covers the point and the local time there.
    public var timeZone: LocalTime?

    public var isInside: Bool { !inside.isEmpty }
}
