import Foundation

/// Everything the engine remembers of one device on one layer between two fixes. A value:
/// the caller keeps it (in memory, or as JSON in the store) and hands it back with the next fix.
///
/// Two things are tracked apart: the phone (which feature it is in, its stay there) and the car
/// it parked (``car``), which stays parked while the phone walks away, even out of the feature.
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
    /// Consecutive fixes beyond the current feature's margin (an exit once confirmed).
    public var leaving: Crossing?
    /// Consecutive fixes inside one feature while in none, or while leaving (an enter once confirmed).
    public var entering: Crossing?
    public var dwelled: Bool
    /// The fixes that have stayed near one point since the last move (nil while parked).
    public var stay: MotionFit?
    /// Consecutive fixes beyond the stay's radius (the stay ends once confirmed).
    public var strayed: Crossing?
    /// The parked car, from `parked` until `left`.
    public var car: ParkedCar?
    /// While the car is parked: the phone's way from it since it last left the car's radius.
    public var excursion: MotionFit?
    /// The excursion was judged on foot (no vehicle speed within the departure window): the
    /// car stays parked until the phone is back at it.
    public var onFoot: Bool?
    /// Consecutive fixes back within the car's radius (the phone back at the car once confirmed).
    public var returning: Crossing?
    /// Whether a car is parked (kept with ``car`` for stores written before it).
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

    /// A run of consecutive fixes toward one change (leaving the feature, entering `featureID`).
    public struct Crossing: Codable, Hashable, Sendable {
        /// The feature entered (for ``DeviceTrack/entering``); nil otherwise.
        public var featureID: String?
        /// The run's first fix.
        public var since: Date
        public var fixes: Int
    }

    /// Where the car was parked, and the stay it belongs to (its `left` names them).
    public struct ParkedCar: Codable, Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var featureID: String
        public var featureName: String?
        public var visit: String
        public var since: Date
    }
}
