import Foundation
import GeoqAPI
import GeoqHooks
import GeoqLayers
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The HTTP face of geoq: each route reads its query into ``GeoqAPI``, which does the work, and
/// writes the answer or the problem back. No geometry and no rules live here.
public enum Routes {
    /// The router for `state`.
    /// - Parameters:
    ///   - limits: body size, batch length and batch time.
    ///   - logRequests: log each answered request (id, method, path, status, duration) with
    ///     swift-log at info level; off in tests.
    ///   - page: the map page at `/` and the files it loads.
    public static func router(
        state: ServiceState, metrics: RequestMetrics = RequestMetrics(), limits: ServiceLimits = ServiceLimits(),
        logRequests: Bool = false, page: PageFiles = PageFiles(), tracking: Tracking? = nil,
        access: AccessRules = AccessRules()
    ) -> Router<ServiceRequestContext> {
        let router = router(
            endpoints: GetEndpoints(state: state, metrics: metrics, limits: limits), state: state, metrics: metrics,
            limits: limits, logRequests: logRequests, page: page,
            gate: AccessGate(rules: access, keys: tracking?.keys))
        // The fixes, hooks, events and devices endpoints, over the tracking store when the service has one.
        if let tracking { register(tracking, on: router, state: state, limits: limits) }
        return router
    }

    static func register(
        _ tracking: Tracking, on router: Router<ServiceRequestContext>, state: ServiceState, limits: ServiceLimits
    ) {
        HookRoutes.register(on: router, tracking: tracking, state: state)
        EventStreamRoute.register(on: router, tracking: tracking)
        FixesRoute.register(on: router, tracking: tracking, state: state, limits: limits)
        DeviceRoutes.register(on: router, tracking: tracking)
        PushRoutes.register(on: router, tracking: tracking, state: state)
    }

    static func router(
        endpoints: GetEndpoints, state: ServiceState, metrics: RequestMetrics, limits: ServiceLimits,
        logRequests: Bool, page: PageFiles, gate: AccessGate
    ) -> Router<ServiceRequestContext> {
        // HEAD of every GET route: the GET answer's status and headers, no body (RFC 9110).
        let router = Router(context: ServiceRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SecurityHeadersMiddleware())
        if logRequests { router.add(middleware: AccessLogMiddleware(log: AccessLog(level: .info))) }
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: AccessMiddleware(gate: gate))

        for (path, endpoint) in endpoints.all {
            // The route's own endpoint: the router also matches spellings such as a trailing slash.
            router.get(RouterPath(path)) { request, context in
                endpoints.answer(EndpointRequest(request, principal: context.principal), by: endpoint).response
            }
        }

        router.get("/v1/layers/:name") { request, context in
            try LayerFeaturesResponse.response(
                to: request, layer: context.parameters.get("name") ?? "", state: state)
        }

        OGCRoutes.register(on: router, state: state, limits: limits, endpoints: endpoints)
        page.register(on: router)

        router.post("/v1/sector:batch") { request, _ -> Response in
            guard let data = state.data else { throw Problem.stillLoading }
            let target = try SectorBatchEndpoint.target(
                EndpointRequest(request).parameters, data: data,
                acceptLanguage: request.headers[.acceptLanguage])
            let contentType = request.headers[.contentType]
            let body = try await Self.body(of: request, limit: limits.maxBodyBytes)
            let items = try SectorBatchEndpoint.items(
                Data(buffer: body), contentType: contentType, maxPoints: limits.maxBatchPoints)
            return Responses.batch(items, target: target, timeLimit: limits.requestTimeout)
        }
        return router
    }

    /// The service as a Hummingbird application: the router above, and the GET endpoints also
    /// answered on each connection's event loop (``InlineAnswerHandler``), on connections held
    /// to `connections`' timeouts and cap (``ConnectionDeadlines``); over TLS with `tls`'s
    /// current certificate when given.
    public static func application(
        state: ServiceState, address: ServerAddress = ServerAddress(), tls: ServiceTLS? = nil,
        reloader: ReloadService? = nil,
        metrics: RequestMetrics = RequestMetrics(), limits: ServiceLimits = ServiceLimits(),
        connections: ConnectionLimits = ConnectionLimits(), logRequests: Bool = false, logger: Logger? = nil,
        page: PageFiles = PageFiles(), tracking: Tracking? = nil, access: AccessRules = AccessRules(),
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let logger = logger ?? defaultLogger()
        // One gate for both entrances: the event loop's answers and the router.
        let gate = AccessGate(rules: access, keys: tracking?.keys)
        let endpoints = GetEndpoints(state: state, metrics: metrics, limits: limits)
        let accessLog = logRequests ? AccessLog(level: .info) : nil
        let registry = ConnectionRegistry(maxConnections: connections.maxConnections, counters: metrics.connections)
        let router = router(
            endpoints: endpoints, state: state, metrics: metrics, limits: limits, logRequests: logRequests, page: page,
            gate: gate)
        if let tracking { register(tracking, on: router, state: state, limits: limits) }
        var services: [any Service] = reloader.map { [$0] } ?? []
        if let tracking { services.append(TrackingService(tracking: tracking, state: state)) }
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                ServiceHTTP1Channel(responder: responder, tls: tls) {
                    ConnectionDeadlines(
                        limits: connections, bodyTimeout: limits.requestTimeout, registry: registry,
                        serverName: serverName)
                } inlineAnswers: {
                    InlineAnswerHandler(
                        endpoints: endpoints, gate: gate, metrics: metrics, accessLog: accessLog, logger: logger,
                        serverName: serverName)
                }
            },
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: serverName),
            services: services,
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? address.port) },
            eventLoopGroupProvider: address.eventLoopThreads == System.coreCount
                ? .singleton : .shared(MultiThreadedEventLoopGroup(numberOfThreads: address.eventLoopThreads)),
            logger: logger)
    }

    /// A request's whole body, or a 413 problem when it is over `limit` bytes (a declared
    /// length over the limit is refused before anything is read).
    static func body(of request: Request, limit: Int) async throws -> ByteBuffer {
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit { throw Problem.bodyTooLarge(limit: limit) }
        // Room for the declared length at once: a fleet's batch of 100 KB would otherwise be
        // copied at each doubling of the buffer.
        var collected = ByteBuffer()
        collected.reserveCapacity(max(0, declared ?? 0))
        for try await var chunk in request.body {
            guard collected.readableBytes + chunk.readableBytes <= limit else {
                throw Problem.bodyTooLarge(limit: limit)
            }
            collected.writeBuffer(&chunk)
        }
        return collected
    }

    /// Hummingbird's own default logger: labelled with the server name, level from LOG_LEVEL.
    static func defaultLogger() -> Logger {
        var logger = Logger(label: serverName)
        if let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) {
            logger.logLevel = level
        }
        return logger
    }

    /// The `Server` header of every answer.
    static let serverName = "geoq"
}

/// Where the service listens, and with how many event-loop threads.
public struct ServerAddress: Sendable {
    public var host: String
    public var port: Int
    /// Threads answering connections; nil: one per core the process may run on.
    public var threads: Int?

    /// The event-loop threads to start: `threads`, else one per core the process may run on
    /// (SwiftNIO's core count, within the affinity mask).
    var eventLoopThreads: Int {
        threads ?? min(System.coreCount, CPUAffinity.allowedProcessors() ?? System.coreCount)
    }

    public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int? = nil) {
        self.host = host
        self.port = port
        self.threads = threads
    }
}

/// Runs the service until it is stopped (SIGINT or SIGTERM end it gracefully: in-flight
/// requests finish first). `onListening` is told the port once the socket is bound.
public func runService(
    address: ServerAddress, state: ServiceState, tls: ServiceTLS? = nil, reloader: ReloadService? = nil,
    limits: ServiceLimits = ServiceLimits(), connections: ConnectionLimits = ConnectionLimits(),
    logRequests: Bool = false, page: PageFiles = PageFiles(), tracking: Tracking? = nil,
    access: AccessRules = AccessRules(), metrics: RequestMetrics = RequestMetrics(),
    onListening: @escaping @Sendable (Int) -> Void = { _ in }
) async throws {
    try await Routes.application(
        state: state, address: address, tls: tls, reloader: reloader, metrics: metrics, limits: limits,
        connections: connections, logRequests: logRequests, page: page, tracking: tracking, access: access,
        onListening: onListening
    ).runService()
}
