import Foundation
import GeoqAPI
import GeoqGzip
import HTTPTypes
import Hummingbird

/// `GET /v1/layers/{name}` over HTTP: the answer of ``LayerFeaturesEndpoint`` with the headers
/// a map client caches by.
///
/// - `ETag` (strong): the snapshot's generation and a hash of the request's canonical
///   parameters and encoding, so a reload or another question changes it, and the same question
///   to the same snapshot keeps it. `If-None-Match` naming it (or `*`) gets 304, no body.
/// - `Cache-Control: no-cache`: a client may keep the body but must ask again (cheaply, by ETag).
/// - `Accept-Encoding: gzip`: the body gzip-compressed, `Content-Encoding: gzip`; every answer
///   says `Vary: Accept-Encoding`.
enum LayerFeaturesResponse {
    static func response(to request: Request, layer name: String, state: ServiceState) throws -> Response {
        let (data, generation) = state.snapshot
        guard let data else { throw Problem.stillLoading }
        let selection = try LayerFeaturesEndpoint.selection(
            layer: name, EndpointRequest(request).parameters, data: data,
            acceptLanguage: request.headers[.acceptLanguage])
        let gzip = Gzip.isAccepted(by: request.headers[.acceptEncoding])
        let tag = etag(generation: generation, key: selection.canonicalKey, gzip: gzip)
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache", .vary: "Accept-Encoding"]
        if matches(request.headers[.ifNoneMatch], tag) { return Response(status: .notModified, headers: headers) }
        var body = LayerFeaturesEndpoint.body(selection, data: data)
        if gzip {
            guard let compressed = Gzip.compress(body) else { throw Problem.internalError("gzip failed") }
            body = compressed
            headers[.contentEncoding] = "gzip"
        }
        headers[.contentType] = "application/geo+json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `"g<generation>-<FNV-1a 64 of the key, hex>[-gzip]"`.
    static func etag(generation: Int, key: String, gzip: Bool) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return "\"g\(generation)-\(String(hash, radix: 16))\(gzip ? "-gzip" : "")\""
    }

    /// Whether `If-None-Match` names `tag` (weak comparison, as RFC 9110 asks for this header).
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { item in
            var item = item.trimmingCharacters(in: .whitespaces)
            if item.hasPrefix("W/") { item.removeFirst(2) }
            return item == "*" || item == tag
        }
    }
}
