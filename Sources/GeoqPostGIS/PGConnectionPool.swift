import Dispatch
import Logging
import Synchronization

/// A few ``PGConnection``s to one database, lent to one caller at a time, so that a service
/// answering many requests neither opens a connection per request nor makes every request wait
/// for one shared connection.
///
/// A connection is opened when none is idle (at most `capacity` at once: a caller beyond that waits
/// for one to come back), and dropped when it comes back closed (the server restarted, the
/// network went away): the next caller connects afresh, which is how a replica reconnects.
/// Blocking like the connection itself: never call it on an event-loop thread.
public final class PGConnectionPool: Sendable {
    public let address: PostgresAddress
    let requirePostGIS: Bool
    let logger: Logger
    /// The idle connections. Each is owned by the pool while here and by exactly one caller of
    /// ``withConnection(_:)`` while lent, which is what makes the box safe to send.
    private let idle = Mutex<[LentConnection]>([])
    private let slots: DispatchSemaphore

    final class LentConnection: @unchecked Sendable {
        let db: PGConnection
        init(_ db: PGConnection) { self.db = db }
    }

    /// A pool of at most `capacity` connections to `address`.
    public init(
        address: PostgresAddress, capacity: Int = 4, requirePostGIS: Bool = false,
        logger: Logger = Logger(label: "geoq.postgres")
    ) {
        self.address = address
        self.requirePostGIS = requirePostGIS
        self.logger = logger
        slots = DispatchSemaphore(value: max(1, capacity))
    }

    /// Runs `body` with a connection of its own: an idle one, or a new connection. The connection
    /// comes back to the pool afterwards unless it was closed.
    public func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let lent = try idle.withLock { $0.popLast() } ?? connect()
        defer {
            if lent.db.isOpen { idle.withLock { $0.append(lent) } }
        }
        return try body(lent.db)
    }

    private func connect() throws(PostGISError) -> LentConnection {
        LentConnection(try PGConnection.connect(to: address, requirePostGIS: requirePostGIS, logger: logger))
    }
}
