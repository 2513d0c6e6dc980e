import Dispatch
import Logging
import Synchronization

/// A few ``PostgresSession``s to one database, lent to one caller at a time, so that a service
/// answering many requests neither opens a connection per request nor makes every request wait
/// for one shared connection.
///
/// A session is opened when none is idle (at most `capacity` at once: a caller beyond that waits
/// for one to come back), and dropped when it comes back closed (the server restarted, the
/// network went away): the next caller connects afresh, which is how a replica reconnects.
/// Blocking like the session itself: never call it on an event-loop thread.
public final class PostgresSessionPool: Sendable {
    public let address: PostgresAddress
    let requirePostGIS: Bool
    let logger: Logger
    /// The idle sessions. Each is owned by the pool while here and by exactly one caller of
    /// ``withSession(_:)`` while lent, which is what makes the box safe to send.
    private let idle = Mutex<[LentSession]>([])
    private let slots: DispatchSemaphore

    final class LentSession: @unchecked Sendable {
        let session: PostgresSession
        init(_ session: PostgresSession) { self.session = session }
    }

    /// A pool of at most `capacity` sessions to `address`.
    public init(
        address: PostgresAddress, capacity: Int = 4, requirePostGIS: Bool = false,
        logger: Logger = Logger(label: "geoq.postgres")
    ) {
        self.address = address
        self.requirePostGIS = requirePostGIS
        self.logger = logger
        slots = DispatchSemaphore(value: max(1, capacity))
    }

    /// Runs `body` with a session of its own: an idle one, or a new connection. The session
    /// comes back to the pool afterwards unless it was closed.
    public func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let lent = try idle.withLock { $0.popLast() } ?? connect()
        defer {
            if lent.session.isOpen { idle.withLock { $0.append(lent) } }
        }
        return try body(lent.session)
    }

    private func connect() throws(PostGISError) -> LentSession {
        LentSession(try PostgresSession.connect(to: address, requirePostGIS: requirePostGIS, logger: logger))
    }
}
