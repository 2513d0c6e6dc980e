import GeoqLayers
import Synchronization

/// The delivery's calls on a GeoPackage store, one at a time: its writers queue here rather than
/// in SQLite's busy handler, whose sleeps (and 5 s limit) many workers at once ran into. A file
/// has one writer anyway; the workers' POSTs still run side by side. On PostgreSQL calls go as
/// they come.
final class StoreTurns: Sendable {
    private let store: TrackingStore
    private let turn = Mutex(())

    init(_ store: TrackingStore) { self.store = store }

    func run<T>(_ body: () throws -> T) throws -> T {
        if store.isShared { return try body() }
        return try turn.withLock { _ in try body() }
    }
}
