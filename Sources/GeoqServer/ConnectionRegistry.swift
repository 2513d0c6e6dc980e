import NIOCore
import Synchronization

/// One open connection as the registry sees it: since when it has been unused, and how to
/// close it from another event loop.
final class ConnectionRecord: Sendable {
    /// `ConnectionRecord.busy` while a request is in progress, `ConnectionRecord.evicting` once
    /// chosen to make room, else the uptime (nanoseconds) at which it last became unused.
    /// Stored by the connection's own event loop on every change, so requests take no lock.
    let unusedSince = Atomic<UInt64>(0)
    /// Closes the connection on its event loop if it is still unused when that runs.
    let evict: @Sendable () -> Void

    static let busy: UInt64 = 0
    static let evicting = UInt64.max

    init(evict: @escaping @Sendable () -> Void) {
        self.evict = evict
    }

    func markBusy() { unusedSince.store(Self.busy, ordering: .relaxed) }
    func markUnused(at uptime: UInt64) { unusedSince.store(max(1, uptime), ordering: .relaxed) }
}

/// The open connections of one service, capped at ``ConnectionLimits/maxConnections``.
///
/// At the cap a newcomer is admitted by closing unused connections (silent, partway through a
/// head, or idle between requests), those unused the longest first, a few at a time as nginx
/// does with its reusable connections (an eighth of the unused ones, from 1 to 32), so that
/// the scan for them (linear in the open connections, under the lock) is paid once per few
/// newcomers. A newcomer is refused only when every open connection has a request in progress.
///
/// The lock is taken when a connection opens or closes, never per request: a request marks
/// its connection busy or unused with an atomic store on the connection's record.
final class ConnectionRegistry: Sendable {
    let maxConnections: Int
    let counters: ConnectionCounters
    private let open = Mutex<[ObjectIdentifier: ConnectionRecord]>([:])

    init(maxConnections: Int, counters: ConnectionCounters) {
        self.maxConnections = maxConnections
        self.counters = counters
    }

    /// Admits `record` (making room if the cap is reached), or returns false when it is
    /// refused. The connections chosen to make room are asked to close after the lock is let go.
    func admit(_ record: ConnectionRecord) -> Bool {
        let (admitted, evicted) = open.withLock { open -> (Bool, [ConnectionRecord]) in
            let evicted = open.count >= maxConnections ? Self.longestUnused(in: open) : []
            guard open.count < maxConnections || !evicted.isEmpty else { return (false, []) }
            open[ObjectIdentifier(record)] = record
            return (true, evicted)
        }
        if admitted { counters.opened() } else { counters.close(.refusedAtCap) }
        for record in evicted { record.evict() }
        return admitted
    }

    /// Forgets a closed connection.
    func remove(_ record: ConnectionRecord) {
        let removed = open.withLock { $0.removeValue(forKey: ObjectIdentifier(record)) }
        if removed != nil { counters.ended() }
    }

    /// The connections to close to make room, each marked as being evicted (a connection that
    /// turned busy meanwhile is left alone).
    private static func longestUnused(in open: [ObjectIdentifier: ConnectionRecord]) -> [ConnectionRecord] {
        var unused: [(since: UInt64, record: ConnectionRecord)] = []
        unused.reserveCapacity(open.count)
        for record in open.values {
            let since = record.unusedSince.load(ordering: .relaxed)
            if since != ConnectionRecord.busy, since != ConnectionRecord.evicting { unused.append((since, record)) }
        }
        let wanted = max(1, min(32, unused.count / 8))
        var chosen: [ConnectionRecord] = []
        for (since, record) in unused.sorted(by: { $0.since < $1.since }) where chosen.count < wanted {
            if record.unusedSince.compareExchange(
                expected: since, desired: ConnectionRecord.evicting, ordering: .relaxed
            ).exchanged {
                chosen.append(record)
            }
        }
        return chosen
    }
}
