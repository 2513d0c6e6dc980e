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
}
