import Foundation
import GeoqLayers
import GeoqStore
import Synchronization

/// The delivery's calls on its store. On a GeoPackage they go one at a time through one
/// connection, opened once: the workers' writers queue here rather than in SQLite's busy
/// handler (whose sleeps, and 5 s limit, many workers at once ran into), and no call pays for
/// opening the file and checking its tables again (the store's own calls each do). A file has
/// one writer anyway; the workers' POSTs still run side by side. On PostgreSQL calls go as they
/// come, through the store's pool.
final class StoreTurns: Sendable {
    private let store: TrackingStore
    private let turn = Mutex(())
    /// The GeoPackage's tables, opened at the first call (nil until then, and on PostgreSQL);
    /// used only inside `turn`, which is what confines the connection to one caller at a time.
    nonisolated(unsafe) private var tables: TrackingTables?

    init(_ store: TrackingStore) { self.store = store }

    var isShared: Bool { store.isShared }

    /// `body` on the store's tables.
    func run<T>(_ body: (any TrackingTableAccess) throws -> T) throws -> T {
        if store.isShared { return try body(try store.tables()) }
        return try turn.withLock { _ in
            let open = try tables ?? store.connection()
            tables = open
            do { return try body(open) } catch {
                // A connection that failed may be what failed: the next call opens the file again.
                tables = nil
                throw error
            }
        }
    }

    /// `hook`'s deliveries due now, taken for delivery (on PostgreSQL claimed for `lease`).
    func claim(hook: Int64, lease: Duration, limit: Int) throws -> [OutboxEntry] {
        if store.isShared { return try store.claim(hook: hook, lease: lease, limit: limit) }
        return try run { try $0.due(hook: hook, now: Date(), limit: limit) }
    }
}
