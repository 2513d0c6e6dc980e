import GeoqCore

/// A point to label in the camera view (a falla, a service).
public struct ARTarget: Hashable, Sendable {
    public var id: String
    public var name: String
    /// WGS84 position (x = longitude, y = latitude).
    public var position: Point
    /// Altitude in metres on the camera's datum; nil means "at the device's altitude" (the
    /// label sits on the horizon line when pitch and roll are 0).
    public var altitude: Double?

    public init(id: String, name: String, position: Point, altitude: Double? = nil) {
        self.id = id
        self.name = name
        self.position = position
        self.altitude = altitude
    }
}
