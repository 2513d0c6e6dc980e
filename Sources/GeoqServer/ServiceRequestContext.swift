import GeoqAPI
import GeoqAccess
import Hummingbird
import NIOCore

/// The request context of the service's router: Hummingbird's core, the client's address (the
/// rate limit of unauthenticated reads counts by it), and who the request speaks for once the
/// access gate let it through (``AccessMiddleware`` sets it; the routes read it).
public struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The checked credential's tenant and scopes; nil for a request without one.
    public var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Who the request speaks for, holding `scope`. The access gate decided already; each
    /// private route asks again, so that a path the gate and the router read differently can
    /// never open it. `keyOnly`: a device token is not enough (it may post its own fixes only).
    func principal(holding scope: Scope, keyOnly: Bool = false) throws -> Principal {
        guard let principal else { throw Problem.unauthorized(credentialGiven: false) }
        guard principal.has(scope), !keyOnly || principal.device == nil else {
            throw Problem.forbidden(scope: scope.rawValue)
        }
        return principal
    }
}
