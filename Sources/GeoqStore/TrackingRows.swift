import Foundation

/// The tenant that owns the rows of a store written before tenants existed, and of every row
/// written without naming one.
public let defaultTenant = "default"

/// A device's state on one layer, kept as opaque bytes (the geofence engine's record). The same
/// device id in two tenants is two devices.
public struct TrackRow: Sendable, Hashable {
    public var tenant: String
    public var device: String
    public var layer: String
    /// The track's record (`DeviceTrack.storage`), opaque to the store.
    public var state: [UInt8]
    /// The device is in a feature: a stay that a sweep may end (silence, a feature removed).
    /// Sweeps and a service's start read only these and the recently updated ones, not every
    /// device ever seen.
    public var open: Bool

    public init(tenant: String, device: String, layer: String, state: [UInt8], open: Bool = false) {
        self.tenant = tenant
        self.device = device
        self.layer = layer
        self.state = state
        self.open = open
    }
}

/// A track without its key: a batch of one tenant's devices on one layer hands its tracks over in
/// the order of its devices, so that neither side looks them up by key.
public struct StoredTrack: Sendable, Hashable {
    /// The track's record (`DeviceTrack.storage`), opaque to the store.
    public var state: [UInt8]
    /// The device is in a feature (see ``TrackRow/open``).
    public var open: Bool

    public init(state: [UInt8], open: Bool) {
        self.state = state
        self.open = open
    }
}

/// An event to store: its kind (`enter`, `exit`, ...) and its JSON body, opaque to the store.
public struct StoredEvent: Sendable, Hashable {
    public var tenant: String
    public var device: String
    public var layer: String
    public var kind: String
    public var body: Data

    public init(tenant: String, device: String, layer: String, kind: String, body: Data) {
        self.tenant = tenant
        self.device = device
        self.layer = layer
        self.kind = kind
        self.body = body
    }
}

/// An event as stored, with its global sequence (1, 2, 3, ... in commit order, never reused).
public struct EventRecord: Sendable, Hashable {
    public var sequence: Int64
    public var event: StoredEvent
    public var created: Date

    public init(sequence: Int64, event: StoredEvent, created: Date) {
        self.sequence = sequence
        self.event = event
        self.created = created
    }
}

/// A webhook: where to POST events, and which ones (nil: every layer, every kind). It receives
/// only its own tenant's events.
public struct Hook: Sendable, Hashable {
    /// Never reused, so that an idempotency key (hook id and event sequence) is never repeated.
    public var id: Int64
    public var tenant: String
    public var url: String
    public var layer: String?
    public var events: [String]?
    public var created: Date
    /// What its deliveries are signed with (`whsec_` and base64, as the Standard Webhooks
    /// specification writes secrets). Kept as it is, not hashed: signing needs it; shown to the
    /// hook's owner only when it is made or rotated.
    public var secret: String
    /// The secret before the last rotation, still signing beside the new one until
    /// ``previousSecretExpires``, so that a receiver can switch without losing a delivery.
    public var previousSecret: String?
    public var previousSecretExpires: Date?
    /// When its receiver answered 410 Gone: it gets no more events (delete it, or add it again).
    public var disabled: Date?
    /// The `Idempotency-Key` of the request that made it: a retry gets this hook back.
    public var idempotencyKey: String?
    /// Each device's events in order: none is sent while an earlier one of the same device is
    /// still pending (waiting for a retry, or in flight), so a receiver never sees `left`
    /// before the `parked` it follows. Other devices' events go on meanwhile.
    public var ordered: Bool

    public init(
        id: Int64, tenant: String, url: String, layer: String?, events: [String]?, created: Date, secret: String,
        previousSecret: String? = nil, previousSecretExpires: Date? = nil, disabled: Date? = nil,
        idempotencyKey: String? = nil, ordered: Bool = false
    ) {
        self.ordered = ordered
        self.disabled = disabled
        self.idempotencyKey = idempotencyKey
        self.id = id
        self.tenant = tenant
        self.url = url
        self.layer = layer
        self.events = events
        self.created = created
        self.secret = secret
        self.previousSecret = previousSecret
        self.previousSecretExpires = previousSecretExpires
    }

    /// A new signing secret: `whsec_` and 32 random bytes in base64 (the kernel's CSPRNG).
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "whsec_" + Data(bytes).base64EncodedString()
    }

    /// The secrets that sign a delivery at `now`: the current one, and the previous one while
    /// its overlap lasts.
    public func signingSecrets(at now: Date) -> [String] {
        guard let previousSecret, let previousSecretExpires, previousSecretExpires > now else { return [secret] }
        return [secret, previousSecret]
    }

    /// Whether `event` goes to this hook: enabled, the hook's tenant, and its layer and kinds.
    public func matches(_ event: StoredEvent) -> Bool {
        disabled == nil && event.tenant == tenant && (layer == nil || layer == event.layer)
            && (events == nil || events!.contains(event.kind))
    }
}

/// One delivery of one event to one hook, as the outbox holds it.
public struct OutboxEntry: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case pending, delivered, dead
    }

    public var id: Int64
    public var hook: Int64
    public var sequence: Int64
    /// `<hook id>-<event sequence>`: the same for every attempt of this delivery, so that a
    /// receiver can drop a repeat (delivery is at least once).
    public var idempotencyKey: String
    public var attempts: Int
    public var nextAttempt: Date
    public var state: State
    public var lastError: String?
    /// The event's JSON body (what is POSTed).
    public var body: Data

    public init(
        id: Int64, hook: Int64, sequence: Int64, idempotencyKey: String, attempts: Int, nextAttempt: Date,
        state: State, lastError: String?, body: Data
    ) {
        self.id = id
        self.hook = hook
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
        self.attempts = attempts
        self.nextAttempt = nextAttempt
        self.state = state
        self.lastError = lastError
        self.body = body
    }
}

/// The outbox at a glance.
public struct OutboxStats: Sendable, Hashable {
    public var pending: Int
    public var delivered: Int
    public var dead: Int
    /// When the oldest pending event was committed (nil when nothing is pending).
    public var oldestPending: Date?

    public init(pending: Int, delivered: Int, dead: Int, oldestPending: Date?) {
        self.pending = pending
        self.delivered = delivered
        self.dead = dead
        self.oldestPending = oldestPending
    }
}

/// An API key as the store keeps it: never the key itself, only its SHA-256 (see the service's
/// key checks), with whom it speaks for and what it may do.
public struct StoredKey: Sendable, Hashable {
    /// The key's public id (printed by `geoq keys list`, part of the key's text).
    public var id: String
    public var tenant: String
    /// The scopes granted, by name (`track`, `events`, `hooks`, `admin`, `read`).
    public var scopes: [String]
    /// SHA-256 of the whole key, lowercase hex.
    public var hash: String
    public var created: Date
    /// After this instant the key no longer works (nil: never expires).
    public var expires: Date?
    /// When the key was revoked (nil: not revoked).
    public var revoked: Date?
    /// Requests per second the key may make (a token bucket of that rate); nil: the service's default.
    public var rate: Double?

    public init(
        id: String, tenant: String, scopes: [String], hash: String, created: Date, expires: Date?, revoked: Date?,
        rate: Double?
    ) {
        self.id = id
        self.tenant = tenant
        self.scopes = scopes
        self.hash = hash
        self.created = created
        self.expires = expires
        self.revoked = revoked
        self.rate = rate
    }

    /// Whether the key works at `now`: not revoked, not expired.
    public func isActive(at now: Date) -> Bool {
        revoked == nil && (expires.map { now < $0 } ?? true)
    }
}

/// What an erasure removed.
public struct Erasure: Sendable, Hashable, Codable {
    public var tracks: Int
    public var events: Int
    public var deliveries: Int

    public init(tracks: Int, events: Int, deliveries: Int) {
        self.tracks = tracks
        self.events = events
        self.deliveries = deliveries
    }
}

/// What a retention pass removed: the same counts as an erasure, over every device.
public typealias Purge = Erasure

/// A limit of the tracking store that a batch would pass: refused, nothing written.
public enum TrackingLimitError: Error, Sendable, Hashable {
    /// The batch would give `tenant` more than `limit` devices.
    case tooManyDevices(tenant: String, limit: Int)
}

/// What became of one try of a delivery, as the outbox records it.
public enum OutboxOutcome: Sendable, Hashable {
    /// The receiver took it.
    case delivered(id: Int64, attempts: Int, at: Date)
    /// It failed; it stays pending until `nextAttempt`.
    case failed(id: Int64, attempts: Int, nextAttempt: Date, error: String)
    /// It is given up (a dead letter).
    case dead(id: Int64, attempts: Int, error: String)
}
