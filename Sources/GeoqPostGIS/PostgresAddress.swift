import Foundation

/// Where a PostgreSQL store is: `postgresql://user[:password]@host[:port]/database`, the libpq
/// URI form (`postgres://` too), with the query options geoq understands.
///
/// The password may also come from `$PGPASSWORD` (as libpq reads it), so that it need not sit in
/// a command line or a process list. ``description`` never shows the password.
///
/// TLS as libpq: `sslmode` (`prefer` unless said, or `$PGSSLMODE`) and `sslrootcert` (or
/// `$PGSSLROOTCERT`), with the meanings ``PostgresSSLMode`` gives.
public struct PostgresAddress: Sendable, Hashable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// The schema geoq's tables live in (`geoq` unless `?schema=` says otherwise), so that
    /// several geoq stores can share one database and none clutters `public`.
    public var schema: String
    /// How long to wait for the server to answer a connection attempt.
    public var connectTimeout: Duration
    /// Whether and how the connection is encrypted and the server's certificate checked.
    public var sslMode: PostgresSSLMode
    /// The CA certificates (PEM) the server's certificate is checked against, or `system` for
    /// the system's; nil: libpq's default, `~/.postgresql/root.crt`.
    public var sslRootCertificate: String?

    public init(
        user: String, password: String? = nil, host: String = "127.0.0.1", port: Int = 5432, database: String,
        schema: String = "geoq", connectTimeout: Duration = .seconds(5), sslMode: PostgresSSLMode = .prefer,
        sslRootCertificate: String? = nil
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.schema = schema
        self.connectTimeout = connectTimeout
        self.sslMode = sslMode
        self.sslRootCertificate = sslRootCertificate
    }

    /// The LISTEN/NOTIFY channel on which a change of the store's layers is announced (its
    /// payload is the store's new version, nothing else): `<schema>_changes`.
    public var changesChannel: String { "\(schema)_changes" }

    /// Parses a `postgresql://` or `postgres://` address. `environment` supplies `PGPASSWORD`
    /// when the address has no password, `PGUSER` (else `USER`) when it has no user, and
    /// `PGSSLMODE` and `PGSSLROOTCERT` when it has no `sslmode` or `sslrootcert`.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(PostGISError)
    {
        func bad(_ why: String) -> PostGISError {
            .badAddress(address: Self.redacted(text), reason: why)
        }
        guard let schemeEnd = text.range(of: "://") else {
            throw bad("expected postgresql://user@host:port/database")
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgresql" || scheme == "postgres" else {
            throw bad("the scheme '\(scheme)' is not a store geoq knows (postgresql:// or a GeoPackage file path)")
        }
        guard let components = URLComponents(string: text) else {
            throw bad("not a valid URL (percent-encode special characters in the user and password)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw bad("no host (postgresql://user@host:port/database)")
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else {
            throw bad("no database name after the host (postgresql://user@host:port/database)")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw bad("port \(port) is out of range 1...65535") }
        var timeout = Duration.seconds(5)
        var schema = "geoq"
        var sslMode: PostgresSSLMode?
        var sslRootCertificate: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "connect_timeout":
                guard let seconds = item.value.flatMap(Int.init), (1...3600).contains(seconds) else {
                    throw bad("connect_timeout must be a whole number of seconds 1...3600")
                }
                timeout = .seconds(seconds)
            case "sslmode":
                guard let mode = item.value.flatMap(PostgresSSLMode.init(rawValue:)) else {
                    throw bad("sslmode=\(item.value ?? "") is not one of \(PostgresSSLMode.valuesText)")
                }
                sslMode = mode
            case "sslrootcert":
                guard let file = item.value, !file.isEmpty else {
                    throw bad("sslrootcert needs a file (the CA certificates in PEM) or system")
                }
                sslRootCertificate = file
            case "schema":
                guard let name = item.value, Self.isPlainIdentifier(name) else {
                    throw bad("schema must be a plain identifier: a-z, 0-9 and _, not starting with a digit")
                }
                schema = name
            case "application_name":
                continue
            default:
                throw bad(
                    "unknown option '\(item.name)' (known: schema, connect_timeout, sslmode, sslrootcert, application_name)"
                )
            }
        }
        let user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }.flatMap { $0.isEmpty ? nil : $0 }
        guard let user = user ?? environment["PGUSER"] ?? environment["USER"] else {
            throw bad("no user (postgresql://user@host:port/database)")
        }
        let password =
            components.password.flatMap { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        if sslMode == nil, let text = environment["PGSSLMODE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let mode = PostgresSSLMode(rawValue: text) else {
                throw bad("PGSSLMODE=\(text) is not one of \(PostgresSSLMode.valuesText)")
            }
            sslMode = mode
        }
        let root = sslRootCertificate ?? environment["PGSSLROOTCERT"].flatMap { $0.isEmpty ? nil : $0 }
        // libpq's rule: the system's roots would let any server with a public certificate pass
        // unless its name is checked too.
        if root == "system" {
            guard sslMode == nil || sslMode == .verifyFull else {
                throw bad("sslrootcert=system needs sslmode=verify-full (the system's CAs sign any public name)")
            }
            sslMode = .verifyFull
        }
        self.init(
            user: user, password: password, host: host, port: port,
            database: path.removingPercentEncoding ?? path, schema: schema, connectTimeout: timeout,
            sslMode: sslMode ?? .prefer, sslRootCertificate: root)
    }

    /// The address as a user may see it: the password replaced by `***`.
    public var description: String {
        "postgresql://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
            + (schema == "geoq" ? "" : "?schema=\(schema)")
    }

    /// Lower-case ASCII letters, digits and `_`, not starting with a digit: a name that needs no
    /// quoting in SQL (schemas are written into statements, never bound).
    public static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            name.utf8.count <= 63
        else { return false }
        return name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }

    /// `text` with anything between `user:` and `@` replaced by `***`, for error messages about
    /// an address that did not parse.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", range: scheme.upperBound..<text.endIndex)
        else { return text }
        let userInfo = text[scheme.upperBound..<at.lowerBound]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at.lowerBound...])
    }
}
