import Foundation
import GeoqStore

/// Device tracks, events, hooks and the hooks' outbox: in the GeoPackage store beside the layers
/// (tables `geoq_tracks`, `geoq_events`, `geoq_hooks`, `geoq_outbox`, made on first use), or in
/// a shared database (the same tables, shared by every replica; see ``SharedTrackingTables``).
///
/// Events are opaque JSON bytes with a kind: the store knows nothing of how they were made.
/// On a GeoPackage each call opens the file, works in its own connection and closes it, so the
/// value is `Sendable` and many tasks (the service's routes, one delivery loop per hook) may
/// use it at once; SQLite's write lock orders the writers. The file keeps the store's journal
/// mode (rollback journal, synchronous FULL): a commit that returned is on disk. On a shared
/// store the calls share the backend's few connections, one per caller at a time.
///
/// Errors: `StoreError` from a GeoPackage, ``SharedStoreError`` from a shared store's database.
public struct TrackingStore: Sendable {
    public let address: StoreAddress
    /// The shared store's tables and their connections; nil for a GeoPackage.
    let shared: (any SharedTrackingTables)?

    /// The tracking tables of the store at `address`.
    public init(address: StoreAddress) {
        self.address = address
        if case .shared(let database) = address {
            shared = database.trackingTables()
        } else {
            shared = nil
        }
    }

    /// The tracking tables of the GeoPackage `storeFile`.
    public init(storeFile: URL) { self.init(address: .geoPackage(storeFile)) }

    /// The GeoPackage file, or nil for a shared store.
    public var storeFile: URL? { address.file }

    /// Whether several processes share the tracks (a shared store): then a batch of fixes must be
    /// applied through ``advanceLocked(tenant:layer:devices:now:maxDevices:_:)`` and the sweep through
    /// ``sweepLocked(now:_:)``, never from tracks kept in memory.
    public var isShared: Bool { shared != nil }

    /// A connection of its own to the GeoPackage's tracking tables, for one owner that writes on
    /// every request (the service's fix ingest): it is opened, and the tables checked, once
    /// instead of per call. Not Sendable: keep it in one actor or thread.
    public func connection() throws(StoreError) -> TrackingTables { try open() }

    /// The tables of push subscriptions and their outbox: the shared store's, or the
    /// GeoPackage's, opened for this call.
    public func pushTables() throws -> any PushTableAccess {
        if let shared { return shared }
        return try open()
    }

    /// The tables to work on: the shared store's, or the GeoPackage's, opened for this call.
    public func tables() throws -> any TrackingTableAccess {
        if let shared { return shared }
        return try open()
    }

    func open() throws(StoreError) -> TrackingTables {
        guard let storeFile else {
            throw StoreError(.storeUnreadable, "\(address) is a database, not a GeoPackage file")
        }
        do {
            try FileManager.default.createDirectory(
                at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError(.storeUnreadable, "cannot create the folder of \(storeFile.path): \(error)")
        }
        return try TrackingTables(path: storeFile.path)
    }

    /// Writes tracks, events and the outbox rows of every hook each event matches (its tenant,
    /// its layer, its kind) in one transaction: all or nothing. Returns the events' global
    /// sequences.
    @discardableResult
    public func commit(tracks: [TrackRow], events: [StoredEvent], now: Date = Date()) throws -> [Int64] {
        try tables().commit(tracks: tracks, events: events, now: now)
    }

    /// Applies a batch to the tracks of `devices` (distinct) of `tenant` on `layer` with them
    /// locked against every other writer: `advance` gets their current tracks in the order of
    /// `devices` (nil: none yet) and returns, in the same order, the tracks to write (nil: leave
    /// it) and the events, all in one transaction. `advance` may run more than once (a shared
    /// store retries a transaction rolled back to break a deadlock): it must depend on its argument
    /// only. With `maxDevices`, a batch that would give the tenant more devices than that is
    /// refused (``TrackingLimitError``) and nothing is written.
    @discardableResult
    public func advanceLocked(
        tenant: String, layer: String, devices: [String], now: Date = Date(), maxDevices: Int? = nil,
        _ advance: ([StoredTrack?]) throws -> (tracks: [StoredTrack?], events: [StoredEvent])
    ) throws -> [Int64] {
        if let shared {
            return try shared.advanceLocked(
                tenant: tenant, layer: layer, devices: devices, now: now, maxDevices: maxDevices, advance)
        }
        let tables = try open()
        let stored = try tables.deviceTracks(tenant: tenant, devices: devices)
        let current = devices.map { device in
            stored[device]?.first { $0.layer == layer }.map { StoredTrack(state: $0.state, open: $0.open) }
        }
        let change = try advance(current)
        let tracks = zip(devices, change.tracks).compactMap { device, track in
            track.map { TrackRow(tenant: tenant, device: device, layer: layer, state: $0.state, open: $0.open) }
        }
        return try tables.commit(tracks: tracks, events: change.events, now: now)
    }

    /// Ends stays: `end` gets every open stay (a track in a feature, ``TrackRow/open``) and
    /// returns the tracks and events to write, in one transaction. On a shared store a stay is
    /// written only where no one wrote it since it was read, so two replicas sweeping at once end
    /// each stay once.
    @discardableResult
    public func sweepLocked(
        now: Date = Date(), _ end: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64] {
        if let shared { return try shared.sweepLocked(now: now, end) }
        let tables = try open()
        let change = try end(try tables.tracks(tenant: nil).filter(\.open))
        return try tables.commit(tracks: change.tracks, events: change.events, now: now)
    }

    /// `tenant`'s tracks (nil: every tenant's, the operator's view), or those of one device
    /// and/or layer, or those updated since an instant.
    public func tracks(tenant: String?, device: String? = nil, layer: String? = nil, updatedSince: Date? = nil)
        throws -> [TrackRow]
    {
        try tables().tracks(tenant: tenant, device: device, layer: layer, updatedSince: updatedSince)
    }

    /// How many devices `tenant` has a track of.
    public func deviceCount(tenant: String) throws -> Int { try tables().deviceCount(tenant: tenant) }

    /// A GeoPackage service's tracks at start: see `TrackingTables.startingTracks(activeSince:)`.
    public func startingTracks(activeSince: Date) throws -> [TrackRow] {
        try open().startingTracks(activeSince: activeSince)
    }

    /// How many devices each tenant of a GeoPackage has a track of.
    public func deviceCounts() throws -> [String: Int] { try open().deviceCounts() }

    /// `tenant`'s events (nil: every tenant's) after sequence `since` (0: from the first), oldest
    /// first, at most `limit`; all of them or one device's.
    public func events(tenant: String?, device: String? = nil, since: Int64, limit: Int) throws -> [EventRecord] {
        try tables().events(tenant: tenant, device: device, since: since, limit: limit)
    }

    /// Adds a hook of `tenant`; its deliveries are signed with `secret` (a new one unless given).
    /// The sequence of the last event committed (0 when none).
    public func lastEventSequence() throws -> Int64 { try tables().lastEventSequence() }

    public func addHook(
        tenant: String, url: String, layer: String? = nil, events: [String]? = nil, secret: String = Hook.newSecret(),
        ordered: Bool = false, now: Date = Date()
    ) throws -> Hook {
        try tables().addHook(
            tenant: tenant, url: url, layer: layer, events: events, secret: secret, idempotencyKey: nil,
            ordered: ordered, now: now
        ).hook
    }

    /// Adds a hook of `tenant` unless its `idempotencyKey` made one before: then that hook comes
    /// back, `replayed`, and nothing is added (a client's retry of `POST /v1/hooks`).
    public func addHook(
        tenant: String, url: String, layer: String?, events: [String]?, idempotencyKey: String, ordered: Bool = false,
        now: Date = Date()
    ) throws -> (hook: Hook, replayed: Bool) {
        try tables().addHook(
            tenant: tenant, url: url, layer: layer, events: events, secret: Hook.newSecret(),
            idempotencyKey: idempotencyKey, ordered: ordered, now: now)
    }

    /// Gives hook `id` of `tenant` (nil: of any) a new secret; the one it had goes on signing
    /// beside it for `overlap`. Nil when `tenant` has no such hook.
    public func rotateHookSecret(tenant: String?, id: Int64, overlap: Duration, now: Date = Date()) throws -> Hook? {
        let seconds = Double(overlap.components.seconds) + Double(overlap.components.attoseconds) / 1e18
        return try tables().rotateHookSecret(
            tenant: tenant, id: id, secret: Hook.newSecret(), previousExpires: now.addingTimeInterval(seconds))
    }

    /// `tenant`'s hooks (nil: every tenant's: the delivery's and the operator's view).
    public func hooks(tenant: String?) throws -> [Hook] { try tables().hooks(tenant: tenant) }

    /// Deletes a hook of `tenant` (nil: of any) and marks its pending deliveries dead ("hook
    /// deleted"); false when `tenant` has no such hook.
    public func deleteHook(tenant: String?, id: Int64) throws -> Bool {
        try tables().deleteHook(tenant: tenant, id: id)
    }

    /// Removes everything of `device` in `tenant`, in one transaction: its tracks, its events,
    /// and every delivery of them (the right to erasure).
    public func erase(tenant: String, device: String) throws -> Erasure {
        try tables().erase(tenant: tenant, device: device)
    }

    /// Removes the events (with their deliveries) committed before `eventsBefore` and the tracks
    /// not updated since `tracksBefore`.
    @discardableResult
    public func purge(eventsBefore: Date?, tracksBefore: Date?) throws -> Purge {
        try tables().purge(eventsBefore: eventsBefore, tracksBefore: tracksBefore, batch: 5_000)
    }

    // MARK: Keys and settings

    public func addKey(_ key: StoredKey) throws { try tables().addKey(key) }

    /// Every key, revoked and expired ones included.
    public func keys() throws -> [StoredKey] { try tables().keys() }

    /// Revokes key `id`; false when unknown or revoked already.
    public func revokeKey(id: String, at now: Date = Date()) throws -> Bool { try tables().revokeKey(id: id, at: now) }

    /// The setting `name`, stored as `value` by whoever asks first.
    public func setting(_ name: String, orStore value: Data) throws -> Data {
        try tables().setting(name, orStore: value)
    }

    /// Stops hook `id` (its receiver answered 410 Gone): no more events, its pending deliveries dead.
    public func disableHook(id: Int64, reason: String, at now: Date = Date()) throws {
        try tables().disableHook(id: id, reason: reason, at: now)
    }

    /// The hooks with deliveries due at `now`, longest waiting first, at most `limit`.
    public func dueHooks(now: Date = Date(), limit: Int) throws -> [Hook] {
        try tables().dueHooks(now: now, limit: limit)
    }

    /// When the next pending delivery of any hook is due (nil when none is pending).
    public func nextDue() throws -> Date? { try tables().nextDue() }

    /// Holds every pending delivery of `hook` until `until` at least (its receiver asked to wait).
    public func postpone(hook: Int64, until: Date) throws { try tables().postpone(hook: hook, until: until) }

    /// Makes dead, with `reason`, each hook's oldest pending deliveries beyond its newest `keep`;
    /// how many.
    public func trimPending(keep: Int, reason: String) throws -> Int {
        try tables().trimPending(keep: keep, reason: reason)
    }

    /// `hook`'s pending deliveries due at `now`, oldest event first.
    public func due(hook: Int64, now: Date = Date(), limit: Int) throws -> [OutboxEntry] {
        try tables().due(hook: hook, now: now, limit: limit)
    }

    /// `hook`'s deliveries due at `now`, taken for delivery: on a shared store claimed for `lease`
    /// so that no other replica sends them meanwhile
    /// (``SharedTrackingTables/claim(hook:now:lease:limit:)``); on a GeoPackage, which one
    /// process serves, the same as ``due(hook:now:limit:)``.
    public func claim(hook: Int64, now: Date = Date(), lease: Duration, limit: Int) throws -> [OutboxEntry] {
        if let shared { return try shared.claim(hook: hook, now: now, lease: lease, limit: limit) }
        return try open().due(hook: hook, now: now, limit: limit)
    }

    /// When `hook`'s next pending delivery is due; nil when none is pending.
    public func nextDue(hook: Int64) throws -> Date? { try tables().nextDue(hook: hook) }

    /// Every delivery of `hook`, any state.
    public func outbox(hook: Int64) throws -> [OutboxEntry] { try tables().outbox(hook: hook) }

    public func markDelivered(_ id: Int64, attempts: Int, at now: Date = Date()) throws {
        try tables().markDelivered(id, attempts: attempts, at: now)
    }

    public func markFailed(_ id: Int64, attempts: Int, nextAttempt: Date, error: String) throws {
        try tables().markFailed(id, attempts: attempts, nextAttempt: nextAttempt, error: error)
    }

    public func markDead(_ id: Int64, attempts: Int, error: String) throws {
        try tables().markDead(id, attempts: attempts, error: error)
    }

    /// Records `outcomes` in one transaction (one commit for them all).
    public func record(_ outcomes: [OutboxOutcome]) throws { try tables().record(outcomes) }

    public func stats() throws -> OutboxStats { try tables().stats() }
}
