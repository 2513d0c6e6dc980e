import Foundation
import GeoqAPI
import GeoqIncidents
import GeoqLayers
import GeoqParking
import Hummingbird

/// The HTTP face of geoq: each route reads its query into ``GeoqAPI``, which does the work, and
/// writes the answer or the problem back. No geometry and no rules live here.
public enum Routes {
    /// The router for `state`.
    /// - Parameters:
    ///   - limits: body size, batch length and batch time.
    ///   - logRequests: log each answered request (id, method, path, status, duration) with
    ///     swift-log at info level; off in tests.
    public static func router(
        state: ServiceState, metrics: RequestMetrics = RequestMetrics(), limits: ServiceLimits = ServiceLimits(),
        logRequests: Bool = false
    ) -> Router<BasicRequestContext> {
        let router = Router()
        if logRequests { router.add(middleware: AccessLogMiddleware(level: .info)) }
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ProblemMiddleware())

        router.get("/metrics") { _, _ in
            Responses.body(
                Data(metrics.exposition().utf8), status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }

        router.get("/openapi.json") { _, _ in Responses.json(OpenAPIDocument.service(for: state.data, limits: limits)) }
        router.get("/healthz") { _, _ in Responses.json(["status": "ok"]) }
        router.get("/readyz") { _, _ -> Response in
            let data = try current(state)
            let served = data.sectorLookups.count
            return Responses.json(
                Readiness(
                    status: "ready", store: data.storeFile, polygonLayers: served, pointLayers: data.pointLayers.count,
                    generation: state.generation, loadedAt: data.loadedAt.ISO8601Format()))
        }

        router.get("/v1/layers") { _, _ -> Response in
            let data = try current(state)
            return Responses.json(["layers": data.layers])
        }

        router.get("/v1/sector") { request, _ -> Response in
            let data = try current(state)
            let (answer, lookup) = try SectorEndpoint.answer(parameters(request), data: data)
            return Responses.wantsGeoJSON(request)
                ? Responses.geoJSON(lookup.geoJSON(for: answer)) : Responses.json(answer)
        }
        router.post("/v1/sector:batch") { request, _ -> Response in
            let data = try current(state)
            let target = try SectorBatchEndpoint.target(parameters(request), data: data)
            let contentType = request.headers[.contentType]
            // A declared length over the limit is refused before reading anything.
            if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limits.maxBodyBytes {
                throw Problem.bodyTooLarge(limit: limits.maxBodyBytes)
            }
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: limits.maxBodyBytes) } catch let error
                as HTTPResponseError where error.status == .contentTooLarge
            {
                throw Problem.bodyTooLarge(limit: limits.maxBodyBytes)
            }
            let items = try SectorBatchEndpoint.items(
                Data(buffer: body), contentType: contentType, maxPoints: limits.maxBatchPoints)
            return Responses.batch(items, target: target, timeLimit: limits.requestTimeout)
        }

        router.get("/v1/nearest") { request, _ -> Response in
            let data = try current(state)
            let answer = try NearestEndpoint.answer(parameters(request), data: data)
            return Responses.wantsGeoJSON(request) ? Responses.geoJSON(answer.geoJSON) : Responses.json(answer)
        }

        router.get("/v1/services") { request, _ -> Response in
            let data = try current(state)
            let answer = try ServicesEndpoint.answer(parameters(request), data: data)
            return Responses.wantsGeoJSON(request) ? Responses.geoJSON(answer.geoJSON) : Responses.json(answer)
        }

        router.get("/v1/ar") { request, _ -> Response in
            let data = try current(state)
            return Responses.json(try AREndpoint.answer(parameters(request), data: data))
        }

        router.get("/v1/tariff") { request, _ -> Response in
            let data = try current(state)
            return Responses.json(
                try TariffEndpoint.answer(
                    parameters(request), data: data, acceptLanguage: request.headers[.acceptLanguage]))
        }
        router.get("/v1/park") { request, _ -> Response in
            let data = try current(state)
            let answer = try ParkEndpoint.answer(
                parameters(request), data: data, acceptLanguage: request.headers[.acceptLanguage])
            return Responses.wantsGeoJSON(request)
                ? Responses.json(ParkFeature(answer: answer), contentType: "application/geo+json")
                : Responses.json(answer)
        }

        router.get("/v1/incidents") { request, _ -> Response in
            let data = try current(state)
            guard Responses.wantsGeoJSON(request) else {
                return Responses.json(try IncidentsEndpoint.answer(parameters(request), data: data))
            }
            return Responses.geoJSON(
                IncidentsAnswer.geoJSON(try IncidentsEndpoint.selection(parameters(request), data: data)))
        }
        return router
    }

    static func parameters(_ request: Request) -> QueryParameters {
        QueryParameters(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
    }

    static func current(_ state: ServiceState) throws(Problem) -> ServiceData {
        guard let data = state.data else { throw .stillLoading }
        return data
    }

    struct Readiness: Encodable {
        var status: String
        var store: String
        var polygonLayers: Int
        var pointLayers: Int
        /// How many snapshots have been loaded (1 at start, one more per reload).
        var generation: Int
        var loadedAt: String
    }
}

/// Where the service listens.
public struct ServerAddress: Sendable {
    public var host: String
    public var port: Int

    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}

/// Runs the service until it is stopped (SIGINT or SIGTERM end it gracefully: in-flight
/// requests finish first).
public func runService(
    address: ServerAddress, state: ServiceState, reloader: ReloadService? = nil,
    limits: ServiceLimits = ServiceLimits(),
    logRequests: Bool = false
) async throws {
    let app = Application(
        router: Routes.router(state: state, limits: limits, logRequests: logRequests),
        configuration: .init(address: .hostname(address.host, port: address.port), serverName: "geoq"),
        services: reloader.map { [$0] } ?? [])
    try await app.runService()
}
