import GeoqParking
import GeoqQuery

/// What the engine tells about one device on one layer: it entered or left a feature, stayed,
/// parked or drove off. The same value for the CLI, the store and webhooks (JSON by `Codable`,
/// the kind in `event`).
public struct TrackingEvent: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case enter, exit, dwell, parked, left
    }

    /// Where the fix was, latitude first, as in every answer.
    public typealias Position = SectorAnswer.Position

    public var event: Kind
    public var device: String
    public var layer: String
    public var featureID: String
    public var featureName: String?
    /// ISO 8601 in the city's clock when the engine has the city's tariffs, else UTC.
    public var time: String
    /// The fix that caused the event (for a synthetic exit: the device's last fix).
    public var position: Position
    /// The stay this event belongs to: the same for its enter, dwell, parked, left and exit.
    public var visit: String
    /// Per device and layer, 1-based, without gaps.
    public var sequence: Int
    /// Only on a synthetic exit: `silent` (no fix within the silence timeout) or `removed`
    /// (a reload dropped the feature).
    public var reason: String?
    /// Only on `parked`: the park answer for that point at that moment.
    public var park: ParkAnswer?
    /// Only on `parked`: when to remind the driver (ISO 8601), see ``Geofencer``.
    public var reminders: [String]?
}

/// A fix the engine did not use, and why (the caller counts them).
public struct IgnoredFix: Codable, Hashable, Sendable {
    public enum Reason: String, Codable, Hashable, Sendable {
        /// Older than the device's last fix.
        case older
        /// The same time as the device's last fix.
        case duplicate
    }

    public var reason: Reason
    public var device: String
    /// The ignored fix's time and the device's last time, ISO 8601 UTC.
    public var time: String
    public var lastTime: String
}
