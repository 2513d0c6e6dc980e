import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// Follows a PostgreSQL store's change announcements: LISTENs on the address's
/// ``PostgresAddress/changesChannel`` and reports each version announced, and reconnects with
/// backoff whenever the connection is lost, for as long as the task runs.
///
/// A notification sent while the listener was away is lost (PostgreSQL does not queue them for
/// absent listeners), so every (re)connection is reported as ``Event/connected``: the caller
/// then compares the store with what it holds and catches up. A heartbeat query notices a
/// connection that died without a word (a network cut leaves no FIN to read).
public struct ChangeListener: Sendable {
    public enum Event: Sendable, Equatable {
        /// Listening (first connection or a reconnection): check the store for missed changes.
        case connected
        /// A change was committed; the payload is the store's new version.
        case changed(version: String)
        /// The connection failed or was lost; the next attempt comes after `retryIn`.
        case disconnected(PostGISError, retryIn: Duration)
    }

    public let address: PostgresAddress
    /// The first wait after a failure; it doubles up to ``maximumBackoff``, and goes back to the
    /// first after a connection that stayed up.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    /// How often the connection is checked with a query, and how long the check may take.
    public var heartbeat: Duration
    let logger: Logger

    public init(
        address: PostgresAddress, initialBackoff: Duration = .milliseconds(250), maximumBackoff: Duration = .seconds(5),
        heartbeat: Duration = .seconds(5), logger: Logger = Logger(label: "geoq.store-changes")
    ) {
        self.address = address
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.heartbeat = heartbeat
        self.logger = logger
    }

    /// Listens until the task is cancelled, reporting every event to `handle` in order (the next
    /// notification waits for `handle` to return, so a slow reload is never run twice at once).
    public func run(_ handle: @escaping @Sendable (Event) async -> Void) async {
        var backoff = initialBackoff
        while !Task.isCancelled {
            let failure = await listenOnce(handle)
            guard !Task.isCancelled else { return }
            if failure.wasConnected { backoff = initialBackoff }
            await handle(.disconnected(failure.error, retryIn: backoff))
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, maximumBackoff)
        }
    }

    /// One connection's life: connect, LISTEN, report notifications until the connection fails.
    private func listenOnce(_ handle: @escaping @Sendable (Event) async -> Void) async -> (
        error: PostGISError, wasConnected: Bool
    ) {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(),
                configuration: address.configuration(named: address.listenerName), id: 2,
                logger: logger)
        } catch {
            return (PGConnection.connectFailure(error, address: address), false)
        }
        defer { Task { try? await connection.close() } }
        let address = address
        let heartbeat = heartbeat
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await connection.listen(on: address.changesChannel) { notifications in
                        await handle(.connected)
                        for try await notification in notifications {
                            await handle(.changed(version: notification.payload))
                        }
                    }
                    throw PostGISError.connectionLost(address: address.description, reason: "the LISTEN ended")
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: heartbeat)
                        try await Self.check(connection, within: heartbeat, logger: logger)
                    }
                }
                // The first to end (a failure, or cancellation) ends both.
                try await group.next()
                group.cancelAll()
            }
            return (.connectionLost(address: address.description, reason: "stopped"), true)
        } catch let error as PostGISError {
            return (error, true)
        } catch {
            return (.connectionLost(address: address.description, reason: Self.reason(error)), true)
        }
    }

    /// `SELECT 1` must answer within `limit`; else the connection is closed (which also ends the
    /// LISTEN) and the check throws.
    static func check(_ connection: PostgresConnection, within limit: Duration, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await connection.query("SELECT 1", logger: logger)
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            let answered = try await group.next() ?? false
            group.cancelAll()
            if !answered {
                try? await connection.close()
                throw CheckTimedOut()
            }
        }
    }

    struct CheckTimedOut: Error, CustomStringConvertible {
        var description: String { "the server did not answer a heartbeat query in time" }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError { return PGConnection.reason(error) }
        return "\(error)"
    }
}

extension PostgresAddress {
    /// The `application_name` of a replica's listening connection, `geoq listen <channel>`: an
    /// operator finds the replicas following a store in `pg_stat_activity` by it.
    public var listenerName: String { "geoq listen \(changesChannel)" }
}
