import Foundation

/// The operations on the tracking tables (device tracks, events, hooks and their outbox) that
/// every backend offers alike: ``TrackingTables`` in a GeoPackage, and the PostgreSQL tables of a
/// shared store. `TrackingStore` calls whichever its address names through this one interface.
public protocol TrackingTableAccess {
    func commit(tracks: [TrackRow], events: [StoredEvent], now: Date) throws -> [Int64]
    func tracks(device: String?, layer: String?) throws -> [TrackRow]
    func events(since: Int64, limit: Int) throws -> [EventRecord]
    func addHook(url: String, layer: String?, events: [String]?, now: Date) throws -> Hook
    func hooks() throws -> [Hook]
    func deleteHook(id: Int64) throws -> Bool
    func due(hook: Int64, now: Date, limit: Int) throws -> [OutboxEntry]
    func outbox(hook: Int64) throws -> [OutboxEntry]
    func nextDue(hook: Int64) throws -> Date?
    func markDelivered(_ id: Int64, attempts: Int, at now: Date) throws
    func markFailed(_ id: Int64, attempts: Int, nextAttempt: Date, error: String) throws
    func markDead(_ id: Int64, attempts: Int, error: String) throws
    func stats() throws -> OutboxStats
}

extension TrackingTables: TrackingTableAccess {}
