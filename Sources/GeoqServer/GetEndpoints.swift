import Foundation
import GeoqAPI
import GeoqAccess
import GeoqGzip
import GeoqIncidents
import GeoqParking
import GeoqQuery
import HTTPTypes
import Hummingbird
import HummingbirdCore

/// What a GET endpoint reads of a request: its path and query, and the two headers that
/// change an answer.
struct EndpointRequest {
    /// The path, as sent (`/v1/sector`).
    var path: String
    /// The query, as sent, without the `?` (empty when there is none).
    var query: String
    /// The `Accept` header: GeoJSON or JSON.
    var accept: String?
    /// The `Accept-Language` header: the language of problems and tariff texts.
    var acceptLanguage: String?
    /// Who the access gate found the request speaks for (nil: no credential).
    var principal: Principal? = nil
    /// `Accept-Encoding` and `If-None-Match`: for the answers a client caches (tiles).
    var acceptEncoding: String? = nil
    var ifNoneMatch: String? = nil

    var parameters: QueryParameters { QueryParameters(query: query) }

    /// True when the client asked for GeoJSON (`Accept: application/geo+json`).
    var wantsGeoJSON: Bool { accept?.contains("application/geo+json") ?? false }
}

extension EndpointRequest {
    /// The request as Hummingbird's router hands it over.
    init(_ request: Request, principal: Principal? = nil) {
        self.init(
            path: request.uri.path, query: request.uri.query ?? "", accept: request.headers[.accept],
            acceptLanguage: request.headers[.acceptLanguage], principal: principal,
            acceptEncoding: request.headers[.acceptEncoding], ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// Whether the caller may see the operator's details (store address, errors): `admin`.
    var isAdmin: Bool { principal?.has(.admin) ?? false }
}

/// A whole answer with its body already written, as every GET endpoint gives one.
struct Answer: Sendable {
    var status: HTTPResponse.Status
    var contentType: String
    var body: ByteBuffer
    /// Headers beyond the content type (the access gate's: rate limits, CORS).
    var headers: [(String, String)] = []

    /// Bytes a body may keep free before its text, so that the event loop writes the HTTP head
    /// there instead of copying head and body into a new buffer (a head is about 420 bytes,
    /// 260 of them ``SecurityHeaders``, and the access gate's rate limits may add 100).
    static let headroom = 640

    /// The answer as Hummingbird sends it.
    var response: Response {
        var fields: HTTPFields = hasContent ? [.contentType: contentType] : [:]
        fields.add(headers)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: body))
    }

    /// Whether the answer carries content: 204 and 304 have none, and no type or length.
    var hasContent: Bool { status != .noContent && status != .notModified }
}

/// The service's GET endpoints: each a synchronous function from a request to its answer,
/// reading one snapshot of the data.
///
/// Being synchronous is what lets ``InlineAnswerHandler`` answer them on the connection's
/// event loop; Hummingbird's router serves the same table for everything that reaches it.
struct GetEndpoints: Sendable {
    typealias Handler = @Sendable (EndpointRequest) throws -> Answer

    private let handlers: [String: Handler]
    /// Every tile's path (`/ogc/collections/{id}/tiles/WebMercatorQuad/{z}/{y}/{x}`), one handler.
    let tiles: Handler

    /// Every endpoint with its path, in path order.
    var all: [(path: String, endpoint: Handler)] { handlers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    init(state: ServiceState, metrics: RequestMetrics, limits: ServiceLimits) {
        @Sendable func current() throws(Problem) -> ServiceData {
            guard let data = state.data else { throw .stillLoading }
            return data
        }
        let tileCache = TileCache()
        tiles = { request in try TileResponse.answer(request, state: state, cache: tileCache) }
        handlers = [
            "/metrics": { _ in
                Responses.body(
                    Data(metrics.exposition().utf8), status: .ok,
                    contentType: "text/plain; version=0.0.4; charset=utf-8")
            },
            "/openapi.json": { _ in Responses.json(OpenAPIDocument.service(for: state.data, limits: limits)) },
            "/healthz": { _ in
                Responses.body(Data(#"{"status":"ok"}"#.utf8), status: .ok, contentType: "application/json")
            },
            "/readyz": { request in
                let link = state.link?.current
                guard let data = state.data else {
                    // A replica that never reached its store: say why (to the operator only:
                    // the store's error names its address), not merely "loading".
                    if let link, let error = link.lastError {
                        throw Problem.notReady(
                            request.isAdmin
                                ? "no snapshot yet: \(error); retrying"
                                : "no snapshot yet: the store cannot be reached; retrying")
                    }
                    throw Problem.stillLoading
                }
                var readiness = Readiness(
                    status: link.map { $0.connected ? "ready" : "stale" } ?? "ready", store: data.storeFile,
                    polygonLayers: data.sectorLookups.count, pointLayers: data.pointLayers.count,
                    generation: state.generation, loadedAt: data.loadedAt.ISO8601Format(),
                    storeVersion: link?.loadedVersion, storeLink: link.map(Readiness.Link.init))
                if !request.isAdmin {
                    // What is public by design: ready or not, and how fresh. Where the store is
                    // and why it failed are the operator's.
                    readiness.store = nil
                    readiness.storeLink?.lastError = nil
                }
                return Responses.json(readiness)
            },
            "/v1/layers": { request in
                var layers = try current().layers
                // Why a layer failed to load names its file or database: the operator's only.
                if !request.isAdmin {
                    for index in layers.indices where layers[index].error != nil {
                        layers[index].error = "the layer could not be loaded (an admin key sees why)"
                    }
                }
                return Responses.json(["layers": layers])
            },
            "/v1/sector": { request in
                let (answer, lookup) = try SectorEndpoint.answer(
                    request.parameters, data: current(), acceptLanguage: request.acceptLanguage)
                return request.wantsGeoJSON ? Responses.geoJSON(lookup.geoJSON(for: answer)) : Responses.json(answer)
            },
            "/v1/nearest": { request in
                let answer = try NearestEndpoint.answer(request.parameters, data: current())
                return request.wantsGeoJSON ? Responses.geoJSON(answer.geoJSON) : Responses.json(answer)
            },
            "/v1/services": { request in
                let answer = try ServicesEndpoint.answer(request.parameters, data: current())
                return request.wantsGeoJSON ? Responses.geoJSON(answer.geoJSON) : Responses.json(answer)
            },
            "/v1/ar": { request in Responses.json(try AREndpoint.answer(request.parameters, data: current())) },
            "/v1/tariff": { request in
                Responses.json(
                    try TariffEndpoint.answer(
                        request.parameters, data: current(), acceptLanguage: request.acceptLanguage))
            },
            "/v1/park": { request in
                guard request.wantsGeoJSON else {
                    // Written from the parts the snapshot keeps written: the same bytes as the
                    // answer's JSONText.
                    return Responses.json(
                        text: try ParkEndpoint.answerText(
                            request.parameters, data: current(), acceptLanguage: request.acceptLanguage))
                }
                let answer = try ParkEndpoint.answer(
                    request.parameters, data: current(), acceptLanguage: request.acceptLanguage)
                return Responses.json(ParkFeature(answer: answer), contentType: "application/geo+json")
            },
            "/v1/incidents": { request in
                guard request.wantsGeoJSON else {
                    return Responses.json(try IncidentsEndpoint.answer(request.parameters, data: current()))
                }
                return Responses.geoJSON(
                    IncidentsAnswer.geoJSON(try IncidentsEndpoint.selection(request.parameters, data: current())))
            },
        ]
    }

    /// The endpoint at `path`, or nil when none has that path.
    func endpoint(at path: String) -> Handler? { handlers[path] }

    /// Endpoints whose answer may wait on the store: `/metrics` reads the webhook outbox's lag,
    /// a database round trip on a PostgreSQL store. They are answered by the router on a task,
    /// never on an event loop, where a wait would stall every connection of that loop.
    static let mayWaitOnTheStore: Set<String> = ["/metrics"]

    /// The endpoint at `path` when it may be answered on an event loop.
    func inlineEndpoint(at path: String) -> Handler? {
        if Self.mayWaitOnTheStore.contains(path) { return nil }
        return handlers[path] ?? (TileResponse.tilePath(path) != nil ? tiles : nil)
    }

    /// The answer of `endpoint` to `request`. A problem is an answer too: problem+json in the
    /// request's language.
    func answer(_ request: EndpointRequest, by endpoint: Handler) -> Answer {
        do {
            return Self.compressed(try endpoint(request), for: request)
        } catch let problem as Problem {
            // A 500's words may name a file or the store (its path, user, host): the operator's only.
            guard problem.status != 500 || request.isAdmin else {
                return Responses.problem(.internalError("the service failed to answer (an admin key sees why)"))
            }
            return Responses.problem(problem, acceptLanguage: request.acceptLanguage)
        } catch {
            // The error's words may name the store (its path, user, host): the operator's only.
            return Responses.problem(.internalError(request.isAdmin ? "\(error)" : "the service failed to answer"))
        }
    }

    /// Answers at least this long are gzip-compressed for a client that accepts it: the layer
    /// list and an AR overlay (12 to 15 KB, a third of that compressed), not the few hundred
    /// bytes of a sector or park answer, where compressing would cost more than it saves.
    static let compressedFrom = 4_096

    /// `answer` gzip-compressed when it is long, the client accepts gzip and it is not already
    /// encoded (a tile); it then says `Vary: Accept-Encoding`. A short answer is sent as it is to
    /// every client, so that a cache never hands a compressed body to one that cannot read it.
    static func compressed(_ answer: Answer, for request: EndpointRequest) -> Answer {
        guard answer.body.readableBytes >= compressedFrom, answer.status == .ok,
            !answer.headers.contains(where: { $0.0.lowercased() == "content-encoding" }),
            Gzip.isAccepted(by: request.acceptEncoding),
            let gzipped = Gzip.compress(Array(answer.body.readableBytesView))
        else { return answer }
        var compressed = answer
        compressed.body = ByteBuffer(bytes: gzipped)
        compressed.headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
        return compressed
    }

    struct Readiness: Encodable {
        var status: String
        var store: String?
        var polygonLayers: Int
        var pointLayers: Int
        /// How many snapshots have been loaded (1 at start, one more per reload).
        var generation: Int
        var loadedAt: String
        /// The shared store's version the snapshot was loaded at (PostgreSQL stores only).
        var storeVersion: String?
        var storeLink: Link?

        /// The link to a shared store: a replica that lost it keeps answering from its snapshot
        /// (status "stale") and says since when and why.
        struct Link: Encodable {
            var connected: Bool
            var since: String
            var lastError: String?
            var reconnects: Int

            init(_ status: StoreLink.Status) {
                connected = status.connected
                since = status.since.ISO8601Format()
                lastError = status.lastError
                reconnects = status.reconnects
            }
        }
    }
}
