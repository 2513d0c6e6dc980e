import Foundation
import GeoqCore
import GeoqQuery
import GeoqSchedule

/// The OGC API - Features face (Part 1: core, GeoJSON, HTML) under `/ogc`, so that GIS clients
/// (QGIS, GDAL's OAPIF driver, OWSLib) read the layers the way they read pygeoapi or tipg:
///
/// | path | answer |
/// |---|---|
/// | `/ogc` | landing page: links to the API description, conformance and collections |
/// | `/ogc/conformance` | the conformance classes implemented |
/// | `/ogc/collections` | every served layer, and the incidents |
/// | `/ogc/collections/{id}` | one collection: title, extent, links |
/// | `/ogc/collections/{id}/items` | its features, filtered and paged (see ``OGCItemsQuery``) |
/// | `/ogc/collections/{id}/items/{featureId}` | one feature |
///
/// Each in JSON (GeoJSON for features) or HTML, by `f=json|html`, else by `Accept` (a browser
/// gets HTML). Titles in the request's language (`lang`, else `Accept-Language`, else English).
/// Values only: the service hands over the request's parts and writes the answer's bytes.
public enum OGCFeatures {
    /// An answer's media type and bytes.
    public struct Answer: Sendable {
        public var contentType: String
        public var body: [UInt8]
        /// Headers beyond the type: `Content-Crs` for coordinates in another CRS.
        public var headers: [(name: String, value: String)] = []
    }

    /// What every request of this face carries besides its query.
    public struct Request: Sendable {
        /// Scheme and authority the client reached the service at (`http://127.0.0.1:8080`):
        /// links are absolute, as clients that follow them expect.
        public var origin: String
        public var query: QueryParameters
        public var accept: String?
        public var acceptLanguage: String?
        /// The answer's `timeStamp`.
        public var now: Date

        public init(
            origin: String, query: QueryParameters, accept: String? = nil, acceptLanguage: String? = nil,
            now: Date = Date()
        ) {
            self.origin = origin
            self.query = query
            self.accept = accept
            self.acceptLanguage = acceptLanguage
            self.now = now
        }
    }

    public enum Format: String, Sendable {
        case json, html
    }

    /// The base path of the face.
    public static let basePath = "/ogc"

    /// The conformance classes implemented (not OpenAPI 3.0's: the API document is 3.1).
    public static let conformance = [
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
        "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/geodata-tilesets",
        "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/mvt",
    ]

    /// The one CRS answers are in: WGS 84 longitude, latitude.
    public static let crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

    static let geoJSON = "application/geo+json"
    static let json = "application/json"
    static let html = "text/html; charset=utf-8"
    static let openAPI = "application/vnd.oai.openapi+json;version=3.1"

    /// The parameters of the documents that are not feature lists.
    static let documentParameters: Set<String> = ["f", "lang"]

    // MARK: - The endpoints

    public static func landing(_ request: Request) throws(Problem) -> Answer {
        try request.query.allowOnly(documentParameters)
        let (format, language) = try negotiate(request)
        let page = Page(request: request, path: basePath, format: format, language: language)
        return page.answer(json: { JSONDocuments.landing(page) }, html: { HTMLDocuments.landing(page) })
    }

    /// The API definition: the service's OpenAPI 3.1 document, or its operations as a page.
    public static func api(_ request: Request, document: OpenAPIDocument) throws(Problem) -> Answer {
        try request.query.allowOnly(documentParameters)
        let (format, language) = try negotiate(request)
        let page = Page(request: request, path: basePath + "/api", format: format, language: language)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let body = try? encoder.encode(document) else {
                throw Problem.internalError("could not encode the API document")
            }
            return Answer(contentType: openAPI, body: Array(body))
        case .html: return Answer(contentType: html, body: Array(HTMLDocuments.api(document, page).utf8))
        }
    }

    public static func conformance(_ request: Request) throws(Problem) -> Answer {
        try request.query.allowOnly(documentParameters)
        let (format, language) = try negotiate(request)
        let page = Page(request: request, path: basePath + "/conformance", format: format, language: language)
        return page.answer(json: { JSONDocuments.conformance(page) }, html: { HTMLDocuments.conformance(page) })
    }

    public static func collections(_ request: Request, data: ServiceData) throws(Problem) -> Answer {
        try request.query.allowOnly(documentParameters)
        let (format, language) = try negotiate(request)
        let page = Page(
            request: request, path: basePath + "/collections", format: format, language: language,
            systems: data.coordinateSystems)
        let collections = OGCCollection.all(in: data)
        return page.answer(
            json: { JSONDocuments.collections(collections, page) },
            html: { HTMLDocuments.collections(collections, page) })
    }

    public static func collection(_ id: String, _ request: Request, data: ServiceData) throws(Problem) -> Answer {
        try request.query.allowOnly(documentParameters)
        let (format, language) = try negotiate(request)
        let collection = try OGCCollection.named(id, in: data)
        let page = Page(
            request: request, path: collectionPath(id), format: format, language: language,
            systems: data.coordinateSystems)
        return page.answer(
            json: { JSONDocuments.collection(collection, page) }, html: { HTMLDocuments.collection(collection, page) })
    }

    public static func items(_ id: String, _ request: Request, data: ServiceData) throws(Problem) -> Answer {
        let (format, language) = try negotiate(request)
        do throws(Problem) {
            let collection = try OGCCollection.named(id, in: data)
            let query = try OGCItemsQuery(request.query, collection: collection, systems: data.coordinateSystems)
            let matches = query.matches(in: collection, systems: data.coordinateSystems)
            let page = Page(
                request: request, path: collectionPath(id) + "/items", format: format, language: language)
            let shown = matches.dropFirst(query.offset).prefix(query.limit)
            let selection = ItemsPage(
                collection: collection, query: query, matched: matches.count, shown: Array(shown),
                systems: data.coordinateSystems)
            var answer = page.answer(
                json: { JSONDocuments.items(selection, page) }, html: { HTMLDocuments.items(selection, page) })
            answer.headers = [("Content-Crs", "<\(query.crs ?? crs84)>")]
            return answer
        } catch { throw error.chosen(language) }
    }

    public static func item(_ id: String, featureId: String, _ request: Request, data: ServiceData) throws(Problem)
        -> Answer
    {
        try request.query.allowOnly(documentParameters.union(["crs"]))
        let (format, language) = try negotiate(request)
        do throws(Problem) {
            let crs = try OGCItemsQuery.crs(request.query, "crs", data.coordinateSystems)
            let collection = try OGCCollection.named(id, in: data)
            guard let index = collection.features.firstIndex(where: { $0.id == featureId }) else {
                throw Problem.unknownFeature(featureId, collection: id)
            }
            let page = Page(
                request: request, path: collectionPath(id) + "/items/" + OGCLink.encoded(featureId), format: format,
                language: language)
            var answer = page.answer(
                json: { JSONDocuments.item(collection, index, page, crs: crs, systems: data.coordinateSystems) },
                html: { HTMLDocuments.item(collection, index, page) })
            answer.headers = [("Content-Crs", "<\(crs ?? crs84)>")]
            return answer
        } catch { throw error.chosen(language) }
    }

    // MARK: - Shared parts

    static func collectionPath(_ id: String) -> String { basePath + "/collections/" + OGCLink.encoded(id) }

    /// The format (`f`, else `Accept`) and the language of a request.
    static func negotiate(_ request: Request) throws(Problem) -> (Format, Language) {
        let language = try TariffEndpoint.language(request.query, acceptLanguage: request.acceptLanguage, default: .en)
        do throws(Problem) {
            if let f = try request.query.value("f") {
                guard let format = Format(rawValue: f == "geojson" ? "json" : f) else {
                    throw Problem.invalid(
                        "f",
                        LocalizedText(
                            es: "f debe ser json o html; se recibió \"\(QueryParameters.shown(f))\"",
                            eu: "f json edo html izan behar da; \"\(QueryParameters.shown(f))\" jaso da",
                            en: "f must be json or html, got \"\(QueryParameters.shown(f))\""))
                }
                return (format, language)
            }
        } catch { throw error.chosen(language) }
        // A browser asks for HTML and never for JSON; GDAL and OWSLib ask for JSON or nothing.
        let accept = request.accept ?? ""
        return (accept.contains("text/html") && !accept.contains("json") ? .html : .json, language)
    }

    /// One document being answered: where it is, and in which format and language.
    struct Page {
        var request: Request
        var path: String
        var format: Format
        var language: Language
        /// The CRSs offered besides CRS84, which the collections list.
        var systems: any OGCCoordinateSystems = CRS84Only()

        /// `path` on the service, absolute, with `query` (name, value pairs).
        func href(_ path: String, _ query: [(name: String, value: String)] = []) -> String {
            request.origin + path + OGCLink.query(query)
        }

        /// This document's `self` and `alternate` links: the same query, in each format.
        func selfLinks(json jsonType: String = OGCFeatures.json) -> [OGCLink] {
            let kept = request.query.pairs.filter { $0.name != "f" }
            let jsonLink = OGCLink(
                href: href(path, kept + [("f", "json")]), rel: format == .json ? "self" : "alternate", type: jsonType,
                title: "This document as JSON")
            let htmlLink = OGCLink(
                href: href(path, kept + [("f", "html")]), rel: format == .html ? "self" : "alternate",
                type: "text/html", title: "This document as HTML")
            return format == .json ? [jsonLink, htmlLink] : [htmlLink, jsonLink]
        }

        func answer(json: () -> [UInt8], html: () -> String) -> Answer {
            switch format {
            case .json:
                let type = path.hasSuffix("/items") || path.contains("/items/") ? OGCFeatures.geoJSON : OGCFeatures.json
                return Answer(contentType: type, body: json())
            case .html: return Answer(contentType: OGCFeatures.html, body: Array(html().utf8))
            }
        }
    }

    /// A page of items: which features matched and which are shown.
    struct ItemsPage {
        var collection: OGCCollection
        var query: OGCItemsQuery
        var matched: Int
        /// Indices into the collection's features.
        var shown: [Int]
        var systems: any OGCCoordinateSystems

        /// The `next` and `prev` pages' queries, when there are such pages.
        func pagingQueries(_ request: Request) -> (
            next: [(name: String, value: String)]?, prev: [(name: String, value: String)]?
        ) {
            let kept = request.query.pairs.filter { $0.name != "offset" && $0.name != "f" }
            let next =
                query.offset + shown.count < matched ? kept + [("offset", String(query.offset + query.limit))] : nil
            let prev = query.offset > 0 ? kept + [("offset", String(max(0, query.offset - query.limit)))] : nil
            return (next, prev)
        }
    }
}
