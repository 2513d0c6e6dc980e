import Foundation

/// Who a request speaks for, once its bearer credential is checked: a tenant's key, or a device
/// token that may post the fixes of one device only.
///
/// A class, not a struct: it travels with every keyed request from the gate to the endpoint,
/// and one reference is cheaper to hand on than its five.
public final class Principal: Sendable, Hashable {
    public let tenant: String
    public let scopes: Set<Scope>
    /// The key's id, or for a device token the id of the key that issued it.
    public let keyID: String
    /// The one device a device token speaks for; nil for a key.
    public let device: String?
    /// Requests per second this credential may make (its key's `--rate`); nil: the default.
    public let rate: Double?
    /// When the credential stops working (its key's expiry, or the token's if sooner); nil: never.
    public let expires: Date?

    public init(
        tenant: String, scopes: Set<Scope>, keyID: String, device: String? = nil, rate: Double? = nil,
        expires: Date? = nil
    ) {
        self.tenant = tenant
        self.scopes = scopes
        self.keyID = keyID
        self.device = device
        self.rate = rate
        self.expires = expires
    }

    public func has(_ scope: Scope) -> Bool { scopes.contains(scope) }

    /// The principal of a device token issued by this key: `track` only, for `device`, until
    /// `expires` or the key's own expiry, whichever is sooner.
    public func deviceToken(for device: String, expires tokenExpiry: Date) -> Principal {
        Principal(
            tenant: tenant, scopes: [.track], keyID: keyID, device: device, rate: rate,
            expires: min(expires ?? tokenExpiry, tokenExpiry))
    }

    public static func == (a: Principal, b: Principal) -> Bool {
        a.tenant == b.tenant && a.scopes == b.scopes && a.keyID == b.keyID && a.device == b.device
            && a.rate == b.rate && a.expires == b.expires
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tenant)
        hasher.combine(keyID)
        hasher.combine(device)
    }
}
