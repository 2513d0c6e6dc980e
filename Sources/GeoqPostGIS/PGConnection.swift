import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One connection to PostgreSQL with a blocking calling convention, like the GeoPackage's SQLite
/// connection: each call returns when the server has answered.
///
/// postgres-nio does the work on its own event-loop threads; a call here waits for the answer.
/// So never call it on an event-loop thread (the service's request handlers do not: they answer
/// from the in-memory snapshot). Not Sendable: one owner at a time, as a connection runs one
/// statement at a time and a transaction must not interleave with another caller's statements.
public final class PGConnection {
    public let address: PostgresAddress
    let connection: PostgresConnection
    let logger: Logger

    private init(address: PostgresAddress, connection: PostgresConnection, logger: Logger) {
        self.address = address
        self.connection = connection
        self.logger = logger
    }

    /// postgres-nio requires a connection to be closed before it is released.
    deinit { close() }

    /// Connects and, when `requirePostGIS`, checks that the database has the PostGIS extension
    /// (creating it when this user may). Each failure says which of address, network,
    /// credentials, database or extension is at fault.
    public static func connect(
        to address: PostgresAddress, requirePostGIS: Bool = true, logger: Logger = Logger(label: "geoq.postgres")
    ) throws(PostGISError) -> PGConnection {
        let configuration = try address.configuration()
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1,
                logger: logger
            ).wait()
        } catch {
            throw connectFailure(error, address: address)
        }
        let db = PGConnection(address: address, connection: connection, logger: logger)
        if requirePostGIS { try db.ensurePostGIS() }
        return db
    }

    /// Whether the connection is still open (it closes when the server goes away).
    public var isOpen: Bool { !connection.isClosed }

    /// Runs `query` and returns every row.
    @discardableResult
    public func query(_ query: PostgresQuery) throws(PostGISError) -> [PostgresRow] {
        do {
            return Array(try connection.query(query, logger: logger).wait().rows)
        } catch {
            throw failure(error)
        }
    }

    /// Runs `body` between BEGIN and COMMIT; a throw rolls back (when the connection is still
    /// there to hear it) and is rethrown.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try query("BEGIN")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            if isOpen { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Closes the connection.
    public func close() {
        guard !connection.isClosed else { return }
        try? connection.close().wait()
    }

    /// Creates the address's schema unless it exists. Two processes creating it at once is not an
    /// error (PostgreSQL's IF NOT EXISTS can still race on the catalog's unique index).
    public func ensureSchema() throws(PostGISError) {
        do {
            try query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(address.schema)"))
        } catch .queryFailed(_, let state, _) where state == "23505" || state == "42P06" {
            return
        }
    }

    /// The PostGIS version, after creating the extension when it is available but not yet created
    /// in this database (possible for its owner or a superuser).
    @discardableResult
    public func ensurePostGIS() throws(PostGISError) -> String {
        if let version = try postGISVersion() { return version }
        let available =
            try query(
                "SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'"
            ).first.flatMap { try? $0.decode(Int.self) } ?? 0
        guard available > 0 else {
            throw .noPostGIS(
                address: address.description,
                reason: "the server has no PostGIS to install (Debian: apt install postgresql-15-postgis-3)")
        }
        do {
            try query("CREATE EXTENSION IF NOT EXISTS postgis")
        } catch {
            throw .noPostGIS(
                address: address.description,
                reason: "it is not created and \(address.user) may not create it (\(error)); "
                    + "run CREATE EXTENSION postgis as the database owner or a superuser")
        }
        guard let version = try postGISVersion() else {
            throw .noPostGIS(address: address.description, reason: "CREATE EXTENSION postgis left no extension")
        }
        return version
    }

    private func postGISVersion() throws(PostGISError) -> String? {
        try query("SELECT extversion FROM pg_extension WHERE extname = 'postgis'").first.flatMap {
            try? $0.decode(String.self)
        }
    }

    /// An error of a statement as a ``PostGISError``.
    func failure(_ error: any Error) -> PostGISError {
        guard let error = error as? PSQLError else {
            return .connectionLost(address: address.description, reason: "\(error)")
        }
        if let info = error.serverInfo, let state = info[.sqlState] {
            return .queryFailed(address: address.description, sqlState: state, message: info[.message] ?? "")
        }
        return .connectionLost(address: address.description, reason: Self.reason(error))
    }

    static func connectFailure(_ error: any Error, address: PostgresAddress) -> PostGISError {
        let where_ = address.description
        if let error = error as? PostGISError { return error }
        guard let error = error as? PSQLError else { return .unreachable(address: where_, reason: "\(error)") }
        if let reason = address.tlsFailure(error) { return .tlsRefused(address: where_, reason: reason) }
        if let info = error.serverInfo, let state = info[.sqlState] {
            let message = info[.message] ?? state
            switch state {
            case "28P01", "28000": return .credentialsRefused(address: where_, reason: message)
            case "3D000": return .noDatabase(address: where_)
            case "57P03": return .unreachable(address: where_, reason: "the server is starting up or shutting down")
            default: return .queryFailed(address: where_, sqlState: state, message: message)
            }
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return .credentialsRefused(
                address: where_,
                reason: "the server asks for a password and none was given (in the address or PGPASSWORD)")
        case .saslError, .unsupportedAuthMechanism:
            return .credentialsRefused(address: where_, reason: reason(error))
        default:
            return .unreachable(address: where_, reason: reason(error))
        }
    }

    /// The most telling text of a client-side error: the underlying network error when there is
    /// one (PSQLError's own description hides it).
    static func reason(_ error: PSQLError) -> String {
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}

extension PostgresAddress {
    /// postgres-nio's configuration for this address: TLS as its `sslmode` says, its connect
    /// timeout, and `application_name` (what `pg_stat_activity` shows an operator) set to `name`.
    func configuration(named name: String = "geoq") throws(PostGISError) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: try tlsSetting())
        configuration.options.additionalStartupParameters = [("application_name", String(name.prefix(63)))]
        configuration.options.connectTimeout = .nanoseconds(
            connectTimeout.components.seconds * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000)
        return configuration
    }
}
