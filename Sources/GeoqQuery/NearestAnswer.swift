/// The answer to "what is nearest to me in this layer?", the same for every face. Distances
/// are geodesic metres on WGS84 (Karney), rounded to the centimetre; bearings are initial
/// bearings in degrees clockwise from true north.
public struct NearestAnswer: Codable, Hashable, Sendable {
    public struct Hit: Codable, Hashable, Sendable {
        public var id: String
        public var name: String?
        /// The category in words (`Especial`), when the layer has categories.
        public var category: String?
        public var categoryCode: String?
        public var distanceMetres: Double
        public var bearingDegrees: Double
        public var position: SectorAnswer.Position
        /// "How to get there": a geo URI (RFC 5870) for the feature's position, latitude first.
        public var geoURI: String
        /// Features of linked layers with the same id (a falla's `childrensFalla`, `marquee`).
        public var links: [String: Linked]?
        /// Map pin colour for fallas (Especial red, Primera A green), when it applies.
        public var pin: String?
    }

    public struct Linked: Codable, Hashable, Sendable {
        public var id: String
        public var name: String?
        public var layer: String
        public var geometryType: String
    }

    public var query: SectorAnswer.Position
    public var layer: String
    public var approximate: Bool
    public var approximation: String?
    /// "distance" (nearest first) or "category" (competition order, then nearest).
    public var order: String
    public var hits: [Hit]
}

/// `geoq services`: per service type, the nearest features of that type.
public struct ServicesAnswer: Codable, Hashable, Sendable {
    public struct Group: Codable, Hashable, Sendable {
        public var type: String
        public var layer: String
        public var hits: [NearestAnswer.Hit]
    }

    public var query: SectorAnswer.Position
    public var groups: [Group]
}
