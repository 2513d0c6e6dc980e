import GeoqAccess

/// What the operator decided about access (`geoq serve` options): which reads are private, which
/// Host values and browser origins are served, and the rates. The rules themselves, and the
/// endpoints each scope opens, are ``AccessGate``'s.
public struct AccessRules: Sendable {
    /// Reads of open city data need the `read` scope (`--private-reads`).
    public var privateReads: Bool
    /// The Host values served (lowercase, without a port); nil: any (`--allowed-host '*'`).
    public var allowedHosts: Set<String>?
    /// Browser origins whose pages may call the service (`--cors-origin`); none by default.
    public var corsOrigins: Set<String>
    /// `/metrics` without a key for clients on the loopback address (`--metrics-host 127.0.0.1`).
    public var metricsFromLoopback: Bool
    /// Requests a second per client address without a key (nil: no limit).
    public var anonymousRate: RateLimiter.Policy?
    /// Whether clients on the loopback address are held to ``anonymousRate`` too (off: a
    /// reverse proxy on the same machine, which limits by the real client, is not limited).
    public var limitLoopback: Bool
    /// Requests a second of a key that was made without `--rate`.
    public var keyRate: RateLimiter.Policy
    /// The id of the key written into the map page (`--page-key`): every visitor holds it, so
    /// its requests are limited per client address, as those without a key.
    public var pageKeyID: String?

    public init(
        privateReads: Bool = false, allowedHosts: Set<String>? = nil, corsOrigins: Set<String> = [],
        metricsFromLoopback: Bool = false, anonymousRate: RateLimiter.Policy? = Self.defaultAnonymousRate,
        limitLoopback: Bool = false, keyRate: RateLimiter.Policy = Self.defaultKeyRate, pageKeyID: String? = nil
    ) {
        self.privateReads = privateReads
        self.allowedHosts = allowedHosts
        self.corsOrigins = corsOrigins
        self.metricsFromLoopback = metricsFromLoopback
        self.anonymousRate = anonymousRate
        self.limitLoopback = limitLoopback
        self.keyRate = keyRate
        self.pageKeyID = pageKeyID
    }

    public static let defaultAnonymousRate = RateLimiter.Policy(rate: 50, burst: 100)
    public static let defaultKeyRate = RateLimiter.Policy(rate: 1_000, burst: 2_000)

    /// The Host values served by default: the listen address (unless it is every address) and
    /// the loopback names.
    public static func defaultHosts(listeningOn host: String) -> Set<String> {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "::1"]
        if !["0.0.0.0", "::", ""].contains(host) { hosts.insert(host.lowercased()) }
        return hosts
    }

    /// Whether `address` (an IP address as text) is a loopback one: 127.0.0.0/8, ::1, or
    /// 127.0.0.0/8 mapped into IPv6.
    public static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
