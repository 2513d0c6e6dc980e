import Foundation

/// Everything the engine remembers of one device on one layer between two fixes. A value:
/// the caller keeps it (in memory, or as JSON in the store) and hands it back with the next fix.
public struct DeviceTrack: Codable, Hashable, Sendable {
    public var device: String
    public var layer: String
    /// The last fix used (not an ignored one).
    public var lastTime: Date
    public var lastLatitude: Double
    public var lastLongitude: Double
    public var lastAccuracy: Double?
    /// The feature the device is in (nil: in none), its name and the current stay.
    public var featureID: String?
    public var featureName: String?
    public var visit: String?
    public var enteredAt: Date?
    /// The feature last exited, until another is entered (re-entering it needs the margin).
    public var exitedID: String?
    /// Since when the device has been slower than the parked speed inside the feature.
    public var slowSince: Date?
    /// Since when it has been faster than the parked speed (a departure once it lasts).
    public var fastSince: Date?
    public var dwelled: Bool
    public var parked: Bool
    /// The sequence number of the next event.
    public var nextSequence: Int

    public init(device: String, layer: String, first fix: Fix) {
        self.device = device
        self.layer = layer
        lastTime = fix.time
        lastLatitude = fix.latitude
        lastLongitude = fix.longitude
        lastAccuracy = fix.accuracy
        dwelled = false
        parked = false
        nextSequence = 1
    }
}
