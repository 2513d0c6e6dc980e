import Foundation

/// The operations on the tracking tables (device tracks, events, hooks and their outbox, API keys
/// and settings) that every backend offers alike: ``TrackingTables`` in a GeoPackage, and the
/// PostgreSQL tables of a shared store. `TrackingStore` calls whichever its address names through
/// this one interface.
///
/// The wall between tenants is in the arguments: every read or change of a tenant's rows names
/// the tenant (nil only where the operator, or the delivery of every tenant's hooks, asks).
public protocol TrackingTableAccess {
    func commit(tracks: [TrackRow], events: [StoredEvent], now: Date) throws -> [Int64]
    func tracks(tenant: String?, device: String?, layer: String?, updatedSince: Date?) throws -> [TrackRow]
    func deviceCount(tenant: String) throws -> Int
    func events(tenant: String?, device: String?, since: Int64, limit: Int) throws -> [EventRecord]
    func lastEventSequence() throws -> Int64
    func addHook(
        tenant: String, url: String, layer: String?, events: [String]?, secret: String, idempotencyKey: String?,
        ordered: Bool, now: Date
    ) throws -> (hook: Hook, replayed: Bool)
    func hooks(tenant: String?) throws -> [Hook]
    func rotateHookSecret(tenant: String?, id: Int64, secret: String, previousExpires: Date) throws -> Hook?
    func deleteHook(tenant: String?, id: Int64) throws -> Bool
    func disableHook(id: Int64, reason: String, at now: Date) throws
    func dueHooks(now: Date, limit: Int) throws -> [Hook]
    func nextDue() throws -> Date?
    func trimPending(keep: Int, reason: String) throws -> Int
    func postpone(hook: Int64, until: Date) throws
    func due(hook: Int64, now: Date, limit: Int) throws -> [OutboxEntry]
    func outbox(hook: Int64) throws -> [OutboxEntry]
    func nextDue(hook: Int64) throws -> Date?
    func markDelivered(_ id: Int64, attempts: Int, at now: Date) throws
    func markFailed(_ id: Int64, attempts: Int, nextAttempt: Date, error: String) throws
    func markDead(_ id: Int64, attempts: Int, error: String) throws
    func record(_ outcomes: [OutboxOutcome]) throws
    func stats() throws -> OutboxStats
    func erase(tenant: String, device: String) throws -> Erasure
    func purge(eventsBefore: Date?, tracksBefore: Date?, batch: Int) throws -> Purge
    func addKey(_ key: StoredKey) throws
    func keys() throws -> [StoredKey]
    func revokeKey(id: String, at now: Date) throws -> Bool
    func setting(_ name: String, orStore value: Data) throws -> Data
}

extension TrackingTables: TrackingTableAccess {}
