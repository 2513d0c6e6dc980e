import Foundation
import Synchronization

/// A replica's link to its shared store (PostgreSQL): whether it is connected, since when and
/// why not, and which store version its snapshot holds. `/readyz` and `/metrics` show it; the
/// reloader keeps it up to date. A service over a GeoPackage file has none.
///
/// Invariant: `connected` flips only on the listener's events; `loadedVersion` only when a
/// snapshot built at that version was swapped in.
public final class StoreLink: Sendable {
    public struct Status: Sendable, Equatable {
        /// The store's address, without its password.
        public var store: String
        public var connected = false
        /// When `connected` last changed (or when the service started).
        public var since: Date
        /// Why the link is down (nil while connected).
        public var lastError: String?
        /// Connections made after the first.
        public var reconnects = 0
        /// Change announcements heard.
        public var changes = 0
        /// The store version of the snapshot being served (nil before the first load).
        public var loadedVersion: String?
        public var reloads = 0
        public var failedReloads = 0
        /// How long the last reload took, from its trigger to the swap.
        public var lastReloadSeconds: Double?
    }

    private let status: Mutex<Status>
    private let everConnected = Atomic<Bool>(false)

    public init(store: String, now: Date = Date()) { status = Mutex(Status(store: store, since: now)) }

    public var current: Status { status.withLock { $0 } }

    public func connected(now: Date = Date()) {
        let first = !everConnected.exchange(true, ordering: .relaxed)
        status.withLock {
            if !first { $0.reconnects += 1 }
            $0.connected = true
            $0.since = now
            $0.lastError = nil
        }
    }

    public func lost(_ reason: String, now: Date = Date()) {
        status.withLock {
            if $0.connected || $0.lastError == nil { $0.since = now }
            $0.connected = false
            $0.lastError = reason
        }
    }

    public func heardChange() { status.withLock { $0.changes += 1 } }

    public func loaded(version: String?, seconds: Double) {
        status.withLock {
            $0.loadedVersion = version
            $0.reloads += 1
            $0.lastReloadSeconds = seconds
        }
    }

    public func reloadFailed() { status.withLock { $0.failedReloads += 1 } }

    /// The link's part of `/metrics` (Prometheus text format).
    public func exposition(now: Date = Date()) -> String {
        let s = current
        let down = s.connected ? 0 : max(0, now.timeIntervalSince(s.since))
        var out =
            "# HELP geoq_store_connected Whether the replica is connected to its shared store (0: answering from its last snapshot).\n"
        out += "# TYPE geoq_store_connected gauge\ngeoq_store_connected \(s.connected ? 1 : 0)\n"
        out += "# HELP geoq_store_disconnected_seconds How long the link has been down (0 while connected).\n"
        out += "# TYPE geoq_store_disconnected_seconds gauge\ngeoq_store_disconnected_seconds \(down)\n"
        out += "# HELP geoq_store_reconnects_total Connections to the store after the first.\n"
        out += "# TYPE geoq_store_reconnects_total counter\ngeoq_store_reconnects_total \(s.reconnects)\n"
        out += "# HELP geoq_store_changes_total Change announcements heard (LISTEN/NOTIFY).\n"
        out += "# TYPE geoq_store_changes_total counter\ngeoq_store_changes_total \(s.changes)\n"
        out +=
            "# HELP geoq_snapshot_reloads_total Snapshots loaded from the store (the first one included), by result.\n"
        out += "# TYPE geoq_snapshot_reloads_total counter\n"
        out += "geoq_snapshot_reloads_total{result=\"ok\"} \(s.reloads)\n"
        out += "geoq_snapshot_reloads_total{result=\"failed\"} \(s.failedReloads)\n"
        if let seconds = s.lastReloadSeconds {
            out += "# HELP geoq_snapshot_last_reload_seconds How long the last reload took.\n"
            out += "# TYPE geoq_snapshot_last_reload_seconds gauge\ngeoq_snapshot_last_reload_seconds \(seconds)\n"
        }
        return out
    }
}
