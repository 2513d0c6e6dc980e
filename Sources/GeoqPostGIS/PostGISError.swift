/// Why a PostgreSQL store could not be used, one case per thing an operator fixes differently:
/// the address, the network, TLS, the credentials, the database, the PostGIS extension, or a query.
///
/// Every message names the store by its address (never its password).
public enum PostGISError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `--store` text is not a PostgreSQL address geoq can use.
    case badAddress(address: String, reason: String)
    /// Nothing answered at the host and port (refused, unknown host, timed out).
    case unreachable(address: String, reason: String)
    /// The connection could not be made as `sslmode` asks: the server offers no TLS, or its
    /// certificate is not one `sslmode` and `sslrootcert` accept.
    case tlsRefused(address: String, reason: String)
    /// The server answered and refused the user or the password.
    case credentialsRefused(address: String, reason: String)
    /// The server has no database of that name.
    case noDatabase(address: String)
    /// The database lacks the PostGIS extension, and this user cannot create it.
    case noPostGIS(address: String, reason: String)
    /// The connection broke during a query (the server restarted or the network went away).
    case connectionLost(address: String, reason: String)
    /// The server refused a statement (`sqlState` is PostgreSQL's five-character code).
    case queryFailed(address: String, sqlState: String, message: String)

    /// A stable code for scripts and JSON problems.
    public var code: String {
        switch self {
        case .badAddress: "store-bad-address"
        case .unreachable: "store-unreachable"
        case .tlsRefused: "store-tls-refused"
        case .credentialsRefused: "store-credentials-refused"
        case .noDatabase: "store-no-database"
        case .noPostGIS: "store-no-postgis"
        case .connectionLost: "store-connection-lost"
        case .queryFailed: "store-query-failed"
        }
    }

    /// Whether trying again later may succeed without anyone changing anything (the server was
    /// down or restarting), as opposed to a wrong address, password or database.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .connectionLost: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .badAddress(let address, let reason): "the store address \(address) is not usable: \(reason)"
        case .unreachable(let address, let reason):
            "the PostgreSQL server of \(address) cannot be reached: \(reason)"
        case .tlsRefused(let address, let reason):
            "the PostgreSQL server of \(address) cannot be reached securely: \(reason)"
        case .credentialsRefused(let address, let reason):
            "the PostgreSQL server of \(address) refused the credentials: \(reason)"
        case .noDatabase(let address): "the PostgreSQL server of \(address) has no such database"
        case .noPostGIS(let address, let reason):
            "the database \(address) lacks the PostGIS extension: \(reason)"
        case .connectionLost(let address, let reason): "the connection to \(address) was lost: \(reason)"
        case .queryFailed(let address, let sqlState, let message):
            "the database \(address) refused a statement (SQLSTATE \(sqlState)): \(message)"
        }
    }
}
