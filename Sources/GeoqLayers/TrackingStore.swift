import Foundation
import GeoqStore

/// Device tracks, events, hooks and the hooks' outbox, kept in the GeoPackage store beside the
/// layers (tables `geoq_tracks`, `geoq_events`, `geoq_hooks`, `geoq_outbox`, made on first use).
///
/// Events are opaque JSON bytes with a kind: the store knows nothing of how they were made.
/// Each call opens the file, works in its own connection and closes it, so the value is
/// `Sendable` and many tasks (the service's routes, one delivery loop per hook) may use it at
/// once; SQLite's write lock orders the writers. The file keeps the store's journal mode
/// (rollback journal, synchronous FULL): a commit that returned is on disk.
public struct TrackingStore: Sendable {
    public let storeFile: URL

    public init(storeFile: URL) { self.storeFile = storeFile }

    /// A connection of its own to the tracking tables, for one owner that writes on every request
    /// (the service's fix ingest): it is opened, and the tables checked, once instead of per call.
    /// Not Sendable: keep it in one actor or thread.
    public func connection() throws(StoreError) -> TrackingTables { try open() }

    func open() throws(StoreError) -> TrackingTables {
        do {
            try FileManager.default.createDirectory(
                at: storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError(.storeUnreadable, "cannot create the folder of \(storeFile.path): \(error)")
        }
        return try TrackingTables(path: storeFile.path)
    }

    /// Writes tracks, events and the outbox rows of every hook each event matches (its layer,
    /// its kind) in one transaction: all or nothing. Returns the events' global sequences.
    @discardableResult
    public func commit(
        tracks: [(device: String, layer: String, state: Data)], events: [StoredEvent], now: Date = Date()
    ) throws(StoreError) -> [Int64] {
        try open().commit(
            tracks: tracks.map { TrackRow(device: $0.device, layer: $0.layer, state: $0.state) }, events: events,
            now: now)
    }

    /// Every track, or those of one device and/or layer.
    public func tracks(device: String? = nil, layer: String? = nil) throws(StoreError) -> [TrackRow] {
        try open().tracks(device: device, layer: layer)
    }

    /// Events after sequence `since` (0: from the first), oldest first, at most `limit`.
    public func events(since: Int64, limit: Int) throws(StoreError) -> [EventRecord] {
        try open().events(since: since, limit: limit)
    }

    public func addHook(url: String, layer: String? = nil, events: [String]? = nil, now: Date = Date())
        throws(StoreError) -> Hook
    {
        try open().addHook(url: url, layer: layer, events: events, now: now)
    }

    public func hooks() throws(StoreError) -> [Hook] { try open().hooks() }

    /// Deletes a hook and marks its pending deliveries dead ("hook deleted"); false when unknown.
    public func deleteHook(id: Int64) throws(StoreError) -> Bool { try open().deleteHook(id: id) }

    /// `hook`'s pending deliveries due at `now`, oldest event first.
    public func due(hook: Int64, now: Date = Date(), limit: Int) throws(StoreError) -> [OutboxEntry] {
        try open().due(hook: hook, now: now, limit: limit)
    }

    /// When `hook`'s next pending delivery is due; nil when none is pending.
    public func nextDue(hook: Int64) throws(StoreError) -> Date? { try open().nextDue(hook: hook) }

    /// Every delivery of `hook`, any state.
    public func outbox(hook: Int64) throws(StoreError) -> [OutboxEntry] { try open().outbox(hook: hook) }

    public func markDelivered(_ id: Int64, attempts: Int, at now: Date = Date()) throws(StoreError) {
        try open().markDelivered(id, attempts: attempts, at: now)
    }

    public func markFailed(_ id: Int64, attempts: Int, nextAttempt: Date, error: String) throws(StoreError) {
        try open().markFailed(id, attempts: attempts, nextAttempt: nextAttempt, error: error)
    }

    public func markDead(_ id: Int64, attempts: Int, error: String) throws(StoreError) {
        try open().markDead(id, attempts: attempts, error: error)
    }

    public func stats() throws(StoreError) -> OutboxStats { try open().stats() }
}
