import Foundation
import GeoqAPI
import HTTPTypes
import Hummingbird

/// The OGC API - Features face over HTTP (``OGCFeatures`` answers; this file only reads the
/// request's parts and writes the bytes back). Reads: open, or `read` with private reads, as
/// every layer's features are (``AccessGate``).
enum OGCRoutes {
    static func register(
        on router: Router<ServiceRequestContext>, state: ServiceState, limits: ServiceLimits, endpoints: GetEndpoints
    ) {
        let base = OGCFeatures.basePath
        @Sendable func data() throws(Problem) -> ServiceData {
            guard let data = state.data else { throw .stillLoading }
            return data
        }
        router.get(RouterPath(base)) { request, _ in
            response(try OGCFeatures.landing(ogcRequest(request)), to: request)
        }
        router.get(RouterPath(base + "/api")) { request, _ in
            response(
                try OGCFeatures.api(
                    ogcRequest(request), document: OpenAPIDocument.service(for: state.data, limits: limits)),
                to: request)
        }
        router.get(RouterPath(base + "/conformance")) { request, _ in
            response(try OGCFeatures.conformance(ogcRequest(request)), to: request)
        }
        router.get(RouterPath(base + "/collections")) { request, _ in
            response(try OGCFeatures.collections(ogcRequest(request), data: data()), to: request)
        }
        router.get(RouterPath(base + "/collections/:collectionId")) { request, context in
            response(
                try OGCFeatures.collection(segment(context, "collectionId"), ogcRequest(request), data: data()),
                to: request)
        }
        router.get(RouterPath(base + "/collections/:collectionId/items")) { request, context in
            response(
                try OGCFeatures.items(segment(context, "collectionId"), ogcRequest(request), data: data()), to: request)
        }
        router.get(RouterPath(base + "/collections/:collectionId/tiles")) { request, context in
            response(
                try OGCTiles.tilesets(segment(context, "collectionId"), ogcRequest(request), data: data()), to: request)
        }
        router.get(RouterPath(base + "/collections/:collectionId/tiles/\(OGCTiles.tileMatrixSet)")) {
            request, context in
            response(
                try OGCTiles.tileset(segment(context, "collectionId"), ogcRequest(request), data: data()), to: request)
        }
        // The event loop answers tiles (one of the GET endpoints); this route, with the same
        // handler, those it hands on.
        router.get(RouterPath(base + "/collections/:collectionId/tiles/\(OGCTiles.tileMatrixSet)/:z/:y/:x")) {
            request, context in
            endpoints.answer(EndpointRequest(request, principal: context.principal), by: endpoints.tiles).response
        }
        router.get(RouterPath(base + "/collections/:collectionId/items/:featureId")) { request, context in
            response(
                try OGCFeatures.item(
                    segment(context, "collectionId"), featureId: segment(context, "featureId"), ogcRequest(request),
                    data: data()), to: request)
        }
    }

    /// The request's parts the face reads; links point back at the scheme and authority the
    /// client used (the Host the access gate accepted).
    static func ogcRequest(_ request: Request) -> OGCFeatures.Request {
        let origin = "\(request.head.scheme ?? "http")://\(request.head.authority ?? "127.0.0.1")"
        return OGCFeatures.Request(
            origin: origin, query: QueryParameters(query: request.uri.query ?? ""),
            accept: request.headers[.accept], acceptLanguage: request.headers[.acceptLanguage])
    }

    /// A path segment, percent-decoded (the router hands it over as sent).
    static func segment(_ context: ServiceRequestContext, _ name: String) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// `answer` as Hummingbird sends it, gzip-compressed as every long read is (see
    /// ``GetEndpoints/compressed(_:for:)``).
    static func response(_ answer: OGCFeatures.Answer, to request: Request) -> Response {
        let plain = Answer(
            status: .ok, contentType: answer.contentType, body: ByteBuffer(bytes: answer.body),
            headers: answer.headers.map { ($0.name, $0.value) })
        return GetEndpoints.compressed(plain, for: EndpointRequest(request)).response
    }
}
