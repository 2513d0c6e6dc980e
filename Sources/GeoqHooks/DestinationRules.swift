import Foundation

/// Where a webhook may POST: the operator's rules, checked when a hook is made and again before
/// every delivery, on every address its host resolves to.
///
/// A receiver's URL comes from a client, so without these rules a hook could make the service
/// POST to itself, to the database beside it, to the cloud's metadata address or anywhere in the
/// operator's network, and read what comes back in its failures. As Stripe's smokescreen, every
/// address that is not global unicast is refused (``deniedRanges``), unless the operator allows
/// its range (`--hook-allow CIDR`); and https is required unless the operator allows http.
/// A Redis stream (`redis://`) is a destination only where the operator allows Redis: a URL a
/// client chose must not make the service speak Redis's protocol to whatever listens there.
public struct DestinationRules: Sendable, Hashable {
    /// Plain http receivers may be reached (`--hook-allow-http`).
    public var allowHTTP: Bool
    /// Redis streams may be appended to (`--hook-allow-redis`).
    public var allowRedis: Bool
    /// Ranges reachable although denied (`--hook-allow CIDR`): an operator's internal receivers.
    public var allowed: [AddressRange]

    public init(allowHTTP: Bool = false, allowRedis: Bool = false, allowed: [AddressRange] = []) {
        self.allowHTTP = allowHTTP
        self.allowRedis = allowRedis
        self.allowed = allowed
    }

    /// Why a destination is refused: the rule, and the option that would allow it.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The URL's scheme, host and port when its form may be reached; else why not.
    public func target(of url: String) -> Result<(host: String, port: Int, tls: Bool), Refusal> {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            ["http", "https", "redis"].contains(scheme), let host = parts.host, !host.isEmpty
        else { return .failure(Refusal(description: "the url must be an absolute https URL with a host")) }
        if scheme == "http", !allowHTTP {
            return .failure(
                Refusal(description: "the url must be https (the operator allows http with --hook-allow-http)"))
        }
        if scheme == "redis", !allowRedis {
            return .failure(
                Refusal(description: "Redis streams are not allowed (the operator allows them with --hook-allow-redis)")
            )
        }
        if parts.user != nil || parts.password != nil {
            return .failure(Refusal(description: "the url must not carry a user or password"))
        }
        // URLComponents keeps the brackets of an IPv6 literal in `host`.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let port = parts.port ?? ["https": 443, "redis": RedisStreamAddress.defaultPort][scheme] ?? 80
        return .success((bare, port, scheme == "https"))
    }

    /// Whether a receiver's URL may be reached now.
    public enum Destination: Sendable {
        /// Its host, port and scheme, and the addresses it resolved to, every one allowed.
        case reachable((host: String, port: Int, tls: Bool), [IPAddress])
        /// A rule refuses it: which, and how the operator could allow it.
        case refused(String)
        /// Its host could not be resolved (now: it may be later).
        case unresolved(String)
    }

    /// Checks `url` against these rules on every address `resolver` gives for its host now.
    public func check(_ url: String, resolver: HostResolver) async -> Destination {
        let target: (host: String, port: Int, tls: Bool)
        switch self.target(of: url) {
        case .success(let found): target = found
        case .failure(let refusal): return .refused(refusal.description)
        }
        let addresses: [IPAddress]
        do { addresses = try await resolver.resolve(target.host) } catch {
            return .unresolved("\(error)")
        }
        if let refusal = refusal(of: addresses) { return .refused(refusal.description) }
        return .reachable(target, addresses)
    }

    /// Why `address` may not be reached, or nil when it may.
    public func refusal(of address: IPAddress) -> Refusal? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        guard let (range, name) = Self.deniedRanges.first(where: { $0.range.contains(address) }) else { return nil }
        return Refusal(
            description: "\(address) is \(name) (\(range)); the operator can allow it with --hook-allow \(range)")
    }

    /// Why none of `addresses` may be reached (the first refused one: all must pass, so that the
    /// one connected to cannot be a denied one), or nil.
    public func refusal(of addresses: [IPAddress]) -> Refusal? {
        if addresses.isEmpty { return Refusal(description: "the host resolves to no address") }
        return addresses.lazy.compactMap(refusal(of:)).first
    }

    /// Every range that is not global unicast (RFC 6890's special-purpose registries, IANA's
    /// multicast and reserved blocks), with what it is. IPv6 forms that carry an IPv4 address
    /// (mapped, compatible, NAT64, 6to4, Teredo) are refused whole: what they reach is decided
    /// by a translator, not by this check.
    public static let deniedRanges: [(range: AddressRange, name: String)] = [
        ("0.0.0.0/8", "an unspecified or this-network address"),
        ("10.0.0.0/8", "a private address"),
        ("100.64.0.0/10", "a carrier-grade NAT address"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address (cloud metadata services live here)"),
        ("172.16.0.0/12", "a private address"),
        ("192.0.0.0/24", "an IETF protocol assignment"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.88.99.0/24", "a 6to4 relay address"),
        ("192.168.0.0/16", "a private address"),
        ("198.18.0.0/15", "a benchmarking address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved or broadcast address"),
        ("::/128", "the unspecified address"),
        ("::1/128", "a loopback address"),
        ("::ffff:0:0/96", "an IPv4-mapped address"),
        ("::/96", "an IPv4-compatible address"),
        ("64:ff9b::/96", "a NAT64 address"),
        ("64:ff9b:1::/48", "a local NAT64 address"),
        ("100::/64", "a discard-only address"),
        ("2001::/32", "a Teredo address"),
        ("2001::/23", "an IETF protocol assignment"),
        ("2001:db8::/32", "a documentation address"),
        ("2002::/16", "a 6to4 address"),
        ("fc00::/7", "a unique-local address"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
    ].map { (AddressRange($0.0)!, $0.1) }
}
