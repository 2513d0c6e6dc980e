import Foundation
import GeoqAPI
import GeoqAccess
import NIOCore
import Synchronization

/// The one place that decides whether a request may be answered, for both entrances: the GET
/// endpoints answered on the event loop (``InlineAnswerHandler``) and Hummingbird's router
/// (``AccessMiddleware``). Each hands over the same few facts of the request
/// (``GateRequest``) and gets the same decision, so that no endpoint is open by accident on one
/// path and closed on the other.
///
/// In order: the Host must be one served (DNS rebinding); a CORS preflight is answered; a write
/// from another origin's page is refused; a write's body must be JSON or NDJSON (a form post
/// cannot be); a bearer credential, when given, must be a valid key or device token (401); the
/// endpoint's scope must be held (403); then the credential's, or the client address's, token
/// bucket must have a token (429).
public final class AccessGate: Sendable {
    let rules: AccessRules
    /// The keys, or nil for a service without a tracking store (only open reads then).
    let keys: KeyRing?
    let limiter = RateLimiter()
    /// When a request last made the ring read the keys again (a key id it did not know).
    private let lastMissRefresh = Mutex<ContinuousClock.Instant?>(nil)

    public init(rules: AccessRules = AccessRules(), keys: KeyRing?) {
        self.rules = rules
        self.keys = keys
    }

    /// What an endpoint needs.
    enum Requirement: Equatable {
        /// Anyone (liveness, readiness and the map page's files).
        case open
        /// Anyone, unless reads are private (`read`).
        case read
        case scope(Scope)
        /// `admin`, or a loopback client when the operator allows it.
        case metrics
    }

    /// The requirement of `method` on `path`. Everything not named is a read: an unknown path
    /// answers 404 to whoever may read.
    static func requirement(method: String, path given: String) -> Requirement {
        let path = routedPath(given)
        if method == "GET" || method == "HEAD" {
            switch path {
            case "/healthz", "/readyz": return .open
            // The map page's own files hold no data: with private reads the page asks for a key.
            case "/", "/sw.js", "/manifest.webmanifest": return .open
            // The VAPID public key: every browser that subscribes must have it.
            case "/v1/push/key": return .open
            case "/v1/push/subscriptions": return .scope(.track)
            case _ where path.hasPrefix("/page/") || path.hasPrefix("/assets/leaflet/"): return .open
            case "/metrics": return .metrics
            case "/v1/events", "/v1/events/stream": return .scope(.events)
            case "/v1/hooks": return .scope(.hooks)
            default: return .read
            }
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch method {
        case "POST":
            switch path {
            case "/v1/fixes": return .scope(.track)
            case "/v1/hooks": return .scope(.hooks)
            case "/v1/push/subscriptions", "/v1/park": return .scope(.track)
            default:
                let token = parts.count == 4 && parts[0] == "v1" && parts[1] == "devices" && parts[3] == "token"
                let rotate = parts.count == 4 && parts[0] == "v1" && parts[1] == "hooks" && parts[3] == "rotate"
                return token ? .scope(.track) : rotate ? .scope(.hooks) : .read
            }
        case "DELETE" where parts.count == 3 && parts[0] == "v1" && parts[1] == "hooks": return .scope(.hooks)
        case "DELETE" where parts.count == 4 && parts[0] == "v1" && parts[1] == "push" && parts[2] == "subscriptions":
            return .scope(.track)
        case "DELETE", "PUT", "PATCH": return .scope(.admin)
        default: return .read
        }
    }

    /// The path the router will route: it skips empty segments (`//v1/hooks/` is `/v1/hooks`),
    /// so the same spelling must need the same scope here. A path without them (nearly every
    /// request) is taken as it is, with no copy.
    static func routedPath(_ path: String) -> String {
        let slash = UInt8(ascii: "/")
        var doubled = false
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == slash, previous == slash {
                doubled = true
                break
            }
            previous = byte
        }
        guard doubled || (path.utf8.count > 1 && previous == slash) else { return path }
        return "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// Whether `method` on `path` changes the store (and so must carry a JSON body, and come
    /// from an allowed origin when from a browser).
    static func isWrite(method: String, path: String) -> Bool {
        method != "GET" && method != "HEAD" && method != "OPTIONS" && path != "/v1/sector:batch"
    }

    /// The media types a write's body may have.
    static let writeMediaTypes = ["application/json", "application/x-ndjson"]

    /// The decision on `request`. `mayWait`: the caller can wait for the store (the router);
    /// the event loop cannot, and hands a request with a key it does not know to the router.
    ///
    /// `memo`: what this connection's earlier requests were found to be (see ``Memo``); a
    /// caller without one passes a new one.
    func decide(_ request: GateRequest, mayWait: Bool, memo: inout Memo) -> GateDecision {
        var headers: [(String, String)] = []
        if let host = request.host, let allowed = rules.allowedHosts, host != memo.allowedHost {
            let name = Self.hostName(host)
            if !allowed.contains(name) { return .refuse(.hostNotAllowed(name), headers: []) }
            memo.allowedHost = host
        }
        if let origin = request.origin {
            if rules.corsOrigins.contains(origin) {
                headers.append(("Access-Control-Allow-Origin", origin))
                headers.append(("Vary", "Origin"))
                if request.method == "OPTIONS" {
                    headers += [
                        ("Access-Control-Allow-Methods", "GET, HEAD, POST, DELETE"),
                        ("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Accept-Language"),
                        ("Access-Control-Max-Age", "600"),
                    ]
                    return .preflight(headers: headers)
                }
                headers.append(("Access-Control-Expose-Headers", "RateLimit, RateLimit-Policy, Retry-After"))
            } else if !Self.isSameOrigin(origin, host: request.host)
                && (request.method == "OPTIONS" || Self.isWrite(method: request.method, path: request.path))
            {
                return .refuse(.originNotAllowed(origin), headers: [])
            }
        }
        let write = Self.isWrite(method: request.method, path: request.path)
        if write, request.hasBody || request.contentType != nil {
            let type = request.contentType.map(Self.mediaType)
            if type == nil || !Self.writeMediaTypes.contains(type!) {
                return .refuse(
                    .unsupportedMediaType(request.contentType, accepted: Self.writeMediaTypes), headers: headers)
            }
        }

        var checked: Memo.Credential?
        if let authorization = request.authorization {
            guard let keys else {
                return .refuse(.unauthorized(credentialGiven: true), headers: headers + Self.challenge(invalid: true))
            }
            if let remembered = memo.credential, remembered.header == authorization,
                remembered.keysRead == keys.generation, remembered.principal.expires.map({ $0 > Date() }) ?? true
            {
                checked = remembered
            } else {
                // Read before the check: a refresh in between makes the memo stale, never wrongly fresh.
                let keysRead = keys.generation
                guard let credential = Self.bearer(authorization) else {
                    return .refuse(
                        .unauthorized(credentialGiven: true), headers: headers + Self.challenge(invalid: true))
                }
                switch check(credential, keys: keys, mayWait: mayWait) {
                case .principal(let found):
                    checked = Memo.Credential(
                        header: authorization, principal: found, keysRead: keysRead, limit: limit(of: found))
                    memo.credential = checked
                case .unknownKey where !mayWait: return .askRouter
                case .unknownKey, .invalid:
                    return .refuse(
                        .unauthorized(credentialGiven: true), headers: headers + Self.challenge(invalid: true))
                }
            }
        }
        let principal = checked?.principal

        switch Self.requirement(method: request.method, path: request.path) {
        case .open: break
        case .read where !rules.privateReads: break
        case .read: if let refusal = need(.read, principal, headers) { return refusal }
        case .scope(let scope): if let refusal = need(scope, principal, headers) { return refusal }
        case .metrics:
            let loopback =
                rules.metricsFromLoopback && principal == nil && request.clientIsLoopback && !request.forwarded
            if !loopback, let refusal = need(.admin, principal, headers) { return refusal }
        }

        var rateLimit: RateLimitHeaders?
        if let limit = checked?.limit {
            let taken: RateLimiter.Outcome
            if let outcome = limit.bucket.take(policy: limit.policy) {
                taken = outcome
            } else {
                // Dropped to make room: the name's new bucket from now on.
                memo.credential?.limit?.bucket = limiter.bucket(limit.name, policy: limit.policy)
                taken = limiter.take(limit.name, policy: limit.policy)
            }
            if !taken.allowed {
                return .refuse(
                    .tooManyRequests(retryAfter: taken.retryAfterSeconds),
                    headers: headers + RateLimitHeaders(policy: limit.policyText, outcome: taken).fields
                        + [("Retry-After", String(taken.retryAfterSeconds))])
            }
            rateLimit = RateLimitHeaders(policy: limit.policyText, outcome: taken)
        } else if let policy = rules.anonymousRate, let client = request.client,
            // The page's key is every visitor's: each is held to the rate of a client without one.
            rules.limitLoopback || !request.clientIsLoopback
        {
            let outcome = limiter.take("address:\(client)", policy: policy)
            if !outcome.allowed {
                return .refuse(
                    .tooManyRequests(retryAfter: outcome.retryAfterSeconds),
                    headers: headers + [
                        ("Retry-After", String(outcome.retryAfterSeconds)),
                        ("RateLimit-Policy", policy.policyHeader(name: "address")),
                        ("RateLimit", outcome.header(name: "address")),
                    ])
            }
        }
        return .pass(principal, headers: headers, rateLimit: rateLimit)
    }

    /// The token bucket `principal`'s requests take from; nil for the page's key, which every
    /// visitor holds (they are limited per client address, as those without a key).
    private func limit(of principal: Principal) -> Memo.Limit? {
        guard principal.keyID != rules.pageKeyID else { return nil }
        // A device token has its own bucket, at its key's rate: one phone cannot spend its fleet's.
        let policy = principal.rate.map { RateLimiter.Policy(rate: $0, burst: max(1, $0 * 2)) } ?? rules.keyRate
        let name = principal.device.map { "device:\(principal.tenant)\u{0}\($0)" } ?? "key:\(principal.keyID)"
        return Memo.Limit(
            name: name, bucket: limiter.bucket(name, policy: policy), policy: policy,
            policyText: RateLimitHeaders.PolicyText(policy.policyHeader(name: "key")))
    }

    /// A refusal unless `principal` holds `scope`: 401 without a credential, 403 with one.
    private func need(_ scope: Scope, _ principal: Principal?, _ headers: [(String, String)]) -> GateDecision? {
        guard let principal else {
            return .refuse(.unauthorized(credentialGiven: false), headers: headers + Self.challenge(invalid: false))
        }
        return principal.has(scope) ? nil : .refuse(.forbidden(scope: scope.rawValue), headers: headers)
    }

    /// Checks a credential; on the router, a key id the ring does not know makes it read the
    /// keys again (at most every quarter second, so that made-up ids cannot hammer the store).
    private func check(_ credential: String, keys: KeyRing, mayWait: Bool) -> KeyRing.Check {
        let first = keys.check(credential)
        guard first == .unknownKey, mayWait else { return first }
        let due = lastMissRefresh.withLock { last -> Bool in
            guard last.map({ ContinuousClock.now - $0 >= .milliseconds(250) }) ?? true else { return false }
            last = .now
            return true
        }
        guard due, (try? keys.refresh()) != nil else { return first }
        return keys.check(credential)
    }

    static func challenge(invalid: Bool) -> [(String, String)] {
        [("WWW-Authenticate", invalid ? #"Bearer realm="geoq", error="invalid_token""# : #"Bearer realm="geoq""#)]
    }

    /// The credential of an `Authorization: Bearer X` header (the scheme in any case; spaces
    /// and tabs around either ignored). Read as bytes: Foundation's trimming goes through
    /// UTF-16 and cost more than the rest of a keyed answer.
    static func bearer(_ header: String) -> String? {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var bytes = Substring(header).utf8[...]
        while let first = bytes.first, blank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, blank(last) { bytes = bytes.dropLast() }
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count,
            zip(bytes.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        var credential = bytes.dropFirst(scheme.count)
        while let first = credential.first, blank(first) { credential = credential.dropFirst() }
        return credential.isEmpty ? nil : String(Substring(credential))
    }

    /// A Host header's name: lowercase, without the port (`[::1]:8080` is `::1`).
    static func hostName(_ host: String) -> String {
        let lower = host.lowercased()
        if lower.hasPrefix("["), let end = lower.firstIndex(of: "]") {
            return String(lower[lower.index(after: lower.startIndex)..<end])
        }
        if let colon = lower.lastIndex(of: ":"), lower.firstIndex(of: ":") == colon {
            return String(lower[..<colon])
        }
        return lower
    }

    /// Whether `origin` is the service's own (a page it served, posting back).
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// A Content-Type's media type, lowercase, without its parameters.
    static func mediaType(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }
}

extension AccessGate {
    /// What the gate remembers between the requests of one connection. A client sends the same
    /// Host and the same credential with each request, and checking the credential again
    /// (parsing it, hashing the key, making its bucket's name) was most of what a key check
    /// cost. A remembered credential holds only while the keys are those of the same read of
    /// the store (so a revoked key stops working as soon as without it) and until it expires.
    struct Memo: Sendable {
        /// The last Host value found allowed.
        var allowedHost: String?
        var credential: Credential?

        struct Credential: Sendable {
            /// The whole Authorization value, compared as it came.
            var header: String
            var principal: Principal
            /// ``KeyRing/generation`` when it was checked.
            var keysRead: UInt64
            var limit: Limit?
        }

        /// A credential's token bucket (held, so that no request looks its name up), with its
        /// `RateLimit-Policy` header made once.
        struct Limit: Sendable {
            var name: String
            var bucket: RateLimiter.Bucket
            var policy: RateLimiter.Policy
            var policyText: RateLimitHeaders.PolicyText
        }
    }
}

/// What the access gate reads of a request, whichever entrance it came through.
struct GateRequest: Sendable {
    var method: String
    var path: String
    var host: String?
    var origin: String?
    var authorization: String?
    var contentType: String?
    /// Whether a body comes (a Content-Length over 0, or chunked).
    var hasBody: Bool
    /// The client's IP address, as text.
    var client: String?
    var clientIsLoopback: Bool
    /// Whether a proxy forwarded it (`Forwarded`, `X-Forwarded-For` or `X-Real-IP`): then a
    /// loopback client is the proxy, not someone on this machine.
    var forwarded = false
}

/// The gate's decision.
enum GateDecision: Sendable {
    /// Answer it, as `principal` (nil: no credential), with these headers added, and the rate
    /// limit of its credential.
    case pass(Principal?, headers: [(String, String)], rateLimit: RateLimitHeaders?)
    /// Answer this problem instead, with these headers.
    case refuse(Problem, headers: [(String, String)])
    /// A CORS preflight from an allowed origin: 204 with these headers.
    case preflight(headers: [(String, String)])
    /// The event loop cannot decide without reading the keys: let the router answer.
    case askRouter
}

/// The `RateLimit-Policy` and `RateLimit` headers (IETF httpapi draft) of a request allowed
/// with a key. The event loop writes them into the answer's head as bytes (they go with every
/// keyed answer, and making their text was most of what the key check cost); the router adds
/// them as fields.
struct RateLimitHeaders: Sendable {
    var policy: PolicyText
    var outcome: RateLimiter.Outcome

    /// A credential's `RateLimit-Policy` value, and the bytes that start both lines in a head.
    final class PolicyText: Sendable {
        let header: String
        /// `CRLF RateLimit-Policy: <header> CRLF RateLimit: "key";r=`: the same for every answer.
        let headLines: [UInt8]

        init(_ header: String) {
            self.header = header
            headLines = Array("\r\nRateLimit-Policy: \(header)\r\nRateLimit: \"key\";r=".utf8)
        }
    }

    var fields: [(String, String)] {
        [("RateLimit-Policy", policy.header), ("RateLimit", outcome.header(name: "key"))]
    }

    /// Both header lines, each after a CRLF (as the head is written: the line before has no end).
    func write(into buffer: inout ByteBuffer) {
        buffer.writeBytes(policy.headLines)
        buffer.writeDecimal(outcome.remaining)
        buffer.writeStaticString(";t=")
        buffer.writeDecimal(outcome.resetSeconds)
    }
}

extension ByteBuffer {
    /// `value` in decimal digits, without making a String.
    mutating func writeDecimal(_ value: Int) {
        guard value != 0 else {
            writeInteger(UInt8(ascii: "0"))
            return
        }
        if value < 0 { writeInteger(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { bytes in
            var end = bytes.count
            while magnitude > 0 {
                end -= 1
                bytes[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            return bytes.count - end
        }
        withUnsafeBytes(of: &digits) { writeBytes(UnsafeRawBufferPointer(rebasing: $0.suffix(count))) }
    }
}

extension GateRequest {
    /// The headers a reverse proxy adds to what it forwards.
    static let forwardingHeaders = ["forwarded", "x-forwarded-for", "x-real-ip"]

    /// Whether the client's address is a loopback one.
    static func isLoopback(_ address: String?) -> Bool { address.map(AccessRules.isLoopback) ?? false }
}

extension GateDecision {
    /// Whether only the router can decide (the event loop must not wait for the store).
    var needsRouter: Bool {
        if case .askRouter = self { return true }
        return false
    }
}
