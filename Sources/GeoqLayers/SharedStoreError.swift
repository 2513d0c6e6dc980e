/// Why a shared store (a database that many geoq processes use) could not be used, in the layers'
/// own terms: the backend that reaches the database turns its client's failures into one of
/// these, so that every face reports them, and maps them to exit statuses and HTTP problems, the
/// same way whichever backend it is.
///
/// ``message`` is the backend's whole sentence; it names the store by its address, never its
/// password.
public struct SharedStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One kind per thing an operator fixes differently.
    public enum Kind: Sendable, Hashable {
        /// The store address is not one geoq can use.
        case badAddress
        /// Nothing answered at the host and port (refused, unknown host, timed out).
        case unreachable
        /// The connection could not be made with the TLS the address asks for.
        case tlsRefused
        /// The server answered and refused the user or the password.
        case credentialsRefused
        /// The server has no database of that name.
        case noDatabase
        /// The database lacks the spatial extension the layer tables need (PostGIS), and the user
        /// cannot create it.
        case noSpatialExtension
        /// The connection broke during a statement (the server restarted, the network went away).
        case connectionLost
        /// The server refused a statement.
        case queryFailed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A bad address, worded as every backend words it.
    public static func badAddress(_ address: String, reason: String) -> SharedStoreError {
        SharedStoreError(.badAddress, "the store address \(address) is not usable: \(reason)")
    }

    /// A stable code for scripts and JSON problems: the codes the PostgreSQL store has always
    /// given, so that scripts written against them keep working.
    public var code: String {
        switch kind {
        case .badAddress: "store-bad-address"
        case .unreachable: "store-unreachable"
        case .tlsRefused: "store-tls-refused"
        case .credentialsRefused: "store-credentials-refused"
        case .noDatabase: "store-no-database"
        case .noSpatialExtension: "store-no-postgis"
        case .connectionLost: "store-connection-lost"
        case .queryFailed: "store-query-failed"
        }
    }

    /// Whether trying again later may succeed without anyone changing anything (the server was
    /// down or restarting), as opposed to a wrong address, password or database.
    public var isTransient: Bool { kind == .unreachable || kind == .connectionLost }

    public var description: String { message }
}
