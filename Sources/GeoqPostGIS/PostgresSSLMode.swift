/// libpq's `sslmode`: whether the connection to PostgreSQL is encrypted, and what of the
/// server's certificate is checked (PostgreSQL's documentation, "SSL Support", table 34.1).
///
/// | mode          | TLS                              | certificate checked                      |
/// |---------------|----------------------------------|------------------------------------------|
/// | `disable`     | never                            | —                                        |
/// | `allow`       | never (geoq has no plain-then-TLS retry; a server that demands TLS refuses) | — |
/// | `prefer`      | when the server offers it        | only with a CA file, as `verify-ca`      |
/// | `require`     | always                           | only with a CA file, as `verify-ca`      |
/// | `verify-ca`   | always                           | signed by a CA of `sslrootcert`          |
/// | `verify-full` | always                           | signed, and for the address's host name  |
///
/// A CA file is `sslrootcert`, else `~/.postgresql/root.crt` (for `prefer` and `require` only
/// when it exists); `sslrootcert=system` is the system's CAs. TLS 1.2 at least, as PostgreSQL's
/// own `ssl_min_protocol_version` default.
public enum PostgresSSLMode: String, Sendable, Hashable, CaseIterable {
    case disable
    case allow
    case prefer
    case require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    static let valuesText = allCases.map(\.rawValue).joined(separator: ", ")

    /// Whether the server's certificate must chain to a CA this side trusts.
    var verifies: Bool { self == .verifyCA || self == .verifyFull }
}
