/// Who a request speaks for, once its bearer credential is checked: a tenant's key, or a device
/// token that may post the fixes of one device only.
public struct Principal: Sendable, Hashable {
    public var tenant: String
    public var scopes: Set<Scope>
    /// The key's id, or for a device token the id of the key that issued it.
    public var keyID: String
    /// The one device a device token speaks for; nil for a key.
    public var device: String?
    /// Requests per second this credential may make (its key's `--rate`); nil: the default.
    public var rate: Double?

    public init(tenant: String, scopes: Set<Scope>, keyID: String, device: String? = nil, rate: Double? = nil) {
        self.tenant = tenant
        self.scopes = scopes
        self.keyID = keyID
        self.device = device
        self.rate = rate
    }

    public func has(_ scope: Scope) -> Bool { scopes.contains(scope) }
}
