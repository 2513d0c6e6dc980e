import Foundation
import GeoqStore
import Synchronization

/// The keys the service knows, as last read from the store, and the secret device tokens are
/// signed with: what every bearer credential is checked against, without a store round trip.
///
/// The service reads the keys again every ``refreshInterval`` (and at once, at most that often
/// again, when a request names a key id it does not know: a key made on another replica), so a
/// revoked or expired key stops working within a second on every replica, and a new one starts.
public final class KeyRing: Sendable {
    /// How old the keys may be before a request that meets an unknown id reads them again, and
    /// how often the service reads them anyway.
    public static let refreshInterval: Duration = .milliseconds(500)

    /// A key as the ring checks it: its record, its SHA-256 as bytes and whom it speaks for,
    /// made once per read of the store rather than at every request.
    private struct Known {
        let key: StoredKey
        let digest: [UInt8]
        let principal: Principal

        init(_ key: StoredKey) {
            self.key = key
            digest = APIKey.bytes(ofHex: key.hash)
            principal = Principal(
                tenant: key.tenant, scopes: Set(key.scopes.compactMap(Scope.init(rawValue:))), keyID: key.id,
                rate: key.rate, expires: key.expires)
        }
    }

    private struct State {
        var keys: [String: Known] = [:]
        var secret: Data?
        var readAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let reads = Atomic<UInt64>(0)
    /// Reads the keys and the signing secret from the store; nil: a ring of given keys only.
    private let reader: (@Sendable () throws -> (keys: [StoredKey], secret: Data))?

    /// A ring over the store's keys, read by `reader` (first read at the first request).
    public init(reading reader: @escaping @Sendable () throws -> (keys: [StoredKey], secret: Data)) {
        self.reader = reader
    }

    /// A ring of fixed keys (tests, benchmarks).
    public init(keys: [StoredKey], secret: Data = DeviceToken.newSecret()) {
        reader = nil
        state.withLock {
            $0.keys = Self.known(keys)
            $0.secret = secret
            $0.readAt = .now
        }
    }

    /// Reads the keys again now. Throws what the store threw; the keys read before stay.
    public func refresh() throws {
        guard let reader else { return }
        let (keys, secret) = try reader()
        state.withLock {
            $0.keys = Self.known(keys)
            $0.secret = secret
            $0.readAt = .now
        }
        reads.add(1, ordering: .releasing)
    }

    /// How many times the keys were read: a credential checked at one read holds until the
    /// next (which may have revoked its key), so a caller that remembers a check compares this.
    public var generation: UInt64 { reads.load(ordering: .acquiring) }

    /// Whether the keys are older than ``refreshInterval`` (or were never read).
    public var isStale: Bool {
        state.withLock { $0.readAt.map { ContinuousClock.now - $0 >= Self.refreshInterval } ?? true }
    }

    /// The secret device tokens are signed with (nil until the keys were first read).
    public var signingSecret: Data? { state.withLock { $0.secret } }

    /// What a bearer credential is.
    public enum Check: Sendable, Hashable {
        case principal(Principal)
        /// Shaped as a key whose id the ring does not know (yet): worth reading the keys again.
        case unknownKey
        /// Not a key or token, a wrong secret, forged, revoked or expired.
        case invalid
    }

    /// Checks `credential` (the text after `Bearer `) at `now`.
    public func check(_ credential: String, now: Date = Date()) -> Check {
        if DeviceToken.looksLikeOne(credential) { return checkDeviceToken(credential, now: now) }
        guard let id = APIKey.id(of: credential) else { return .invalid }
        guard let known = state.withLock({ $0.keys[id] }) else { return .unknownKey }
        guard APIKey.constantTimeEqual(APIKey.digest(credential), known.digest), known.key.isActive(at: now) else {
            return .invalid
        }
        return .principal(known.principal)
    }

    private func checkDeviceToken(_ credential: String, now: Date) -> Check {
        let (secret, keys) = state.withLock { ($0.secret, $0.keys) }
        // Before the first read of the store, nothing can be checked yet.
        guard let secret else { return .unknownKey }
        guard let claims = DeviceToken.verify(credential, secret: secret, now: now) else { return .invalid }
        // A token dies with the key that issued it (which another replica may have just made).
        guard let known = keys[claims.key] else { return .unknownKey }
        guard known.key.isActive(at: now), known.key.tenant == claims.tenant else { return .invalid }
        let principal = known.principal.deviceToken(
            for: claims.device, expires: Date(timeIntervalSince1970: Double(claims.expires)))
        return .principal(principal)
    }

    private static func known(_ keys: [StoredKey]) -> [String: Known] {
        Dictionary(keys.map { ($0.id, Known($0)) }, uniquingKeysWith: { $1 })
    }
}
