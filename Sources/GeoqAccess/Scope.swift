/// What a key may do. A request needs one scope (see the service's access rules); a key holds
/// the scopes it was made with and no others: `admin` does not imply the rest.
public enum Scope: String, CaseIterable, Sendable, Hashable, Codable {
    /// Post fixes and issue device tokens.
    case track
    /// Read the tenant's events.
    case events
    /// Add, list and delete the tenant's webhooks.
    case hooks
    /// Metrics, erasure, the details of readiness and errors.
    case admin
    /// The read endpoints, when the operator makes them private.
    case read

    /// The scopes named in `names`, or the first name that is not one.
    public static func parse(_ names: [String]) -> Result<[Scope], ScopeError> {
        var scopes: [Scope] = []
        for name in names {
            guard let scope = Scope(rawValue: name) else { return .failure(ScopeError(name: name)) }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        return .success(scopes)
    }
}

/// A scope name that is not one of ``Scope``'s.
public struct ScopeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var description: String {
        "unknown scope \"\(name)\" (scopes: \(Scope.allCases.map(\.rawValue).joined(separator: ", ")))"
    }
}
