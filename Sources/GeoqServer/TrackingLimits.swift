import Foundation

/// What one tenant may put into the service's tracking, and how long the service keeps it
/// (`geoq serve` options; docs/SECURITY.md says why each default).
public struct TrackingLimits: Sendable, Hashable {
    /// The most fixes one `POST /v1/fixes` takes (`--max-fixes`).
    public var maxFixesPerRequest: Int
    /// The longest device id, in bytes of UTF-8.
    public var maxDeviceIDLength: Int
    /// The most devices a tenant may have tracks of (`--max-devices`).
    public var maxDevicesPerTenant: Int
    /// The most webhooks a tenant may have (`--max-hooks`).
    public var maxHooksPerTenant: Int
    /// How far in the future a posted fix may be dated (`--max-future`): a phone's clock may be
    /// a little ahead; a fix dated years ahead would make every later one "older" and silence the
    /// device.
    public var maxFutureSkew: Duration
    /// How long events (and their deliveries) are kept (`--retain-events`).
    public var retainEvents: Duration
    /// How long a track is kept after its last change (`--retain-tracks`); a fix older than this
    /// is refused by the service (`geoq track` replays files of any date).
    public var retainTracks: Duration
    /// How long a track outside every feature stays in memory after its last fix (it stays in
    /// the store and is read back at its next fix).
    public var idleInMemory: Duration

    public init(
        maxFixesPerRequest: Int = 10_000, maxDeviceIDLength: Int = 128, maxDevicesPerTenant: Int = 100_000,
        maxHooksPerTenant: Int = 20, maxFutureSkew: Duration = .seconds(300),
        retainEvents: Duration = .seconds(30 * 86_400),
        retainTracks: Duration = .seconds(30 * 86_400), idleInMemory: Duration = .seconds(900)
    ) {
        self.maxFixesPerRequest = maxFixesPerRequest
        self.maxDeviceIDLength = maxDeviceIDLength
        self.maxDevicesPerTenant = maxDevicesPerTenant
        self.maxHooksPerTenant = maxHooksPerTenant
        self.maxFutureSkew = maxFutureSkew
        self.retainEvents = retainEvents
        self.retainTracks = retainTracks
        self.idleInMemory = idleInMemory
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
