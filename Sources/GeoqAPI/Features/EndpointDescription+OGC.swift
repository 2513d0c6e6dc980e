extension EndpointDescription {
    /// `f` and `lang`, which every path of the OGC API face takes.
    static func ogcFormat(_ formats: [String] = ["json", "html"]) -> [OpenAPIDocument.Parameter] {
        [
            .init(
                name: "f", required: false,
                description: "The answer's format; default: HTML when Accept asks for it and not for JSON, else JSON.",
                schema: .choice(formats), example: nil),
            language("Language of titles and problems", default: "en", example: "es"),
        ]
    }

    /// `crs` or `bbox-crs`: CRS84 (the default), Web Mercator or ETRS89 / UTM 30N.
    static func crs(_ what: String, name: String = "crs") -> OpenAPIDocument.Parameter {
        .init(
            name: name, required: false, description: "\(what).",
            schema: .choice([
                OGCFeatures.crs84, "http://www.opengis.net/def/crs/EPSG/0/3857",
                "http://www.opengis.net/def/crs/EPSG/0/25830",
            ]), example: nil)
    }

    static let collectionID = OpenAPIDocument.Parameter(
        name: "collectionId", in: "path", required: true, description: "A collection: a layer's name, or incidents.",
        schema: .string, example: "pamplona-sectors")

    public static let ogcLanding = EndpointDescription(
        path: "/ogc", operationId: "ogcLanding", summary: "OGC API - Features: the landing page.",
        parameters: ogcFormat(), answer: "links to the API definition, the conformance classes and the collections",
        mediaTypes: ["application/json", "text/html"], problemStatuses: [400])
    public static let ogcAPI = EndpointDescription(
        path: "/ogc/api", operationId: "ogcAPI", summary: "OGC API - Features: the API definition (this document).",
        parameters: ogcFormat(), answer: "the OpenAPI 3.1 document, or its operations as HTML",
        mediaTypes: [OGCFeatures.openAPI, "text/html"], problemStatuses: [400])
    public static let ogcConformance = EndpointDescription(
        path: "/ogc/conformance", operationId: "ogcConformance",
        summary: "OGC API - Features: the conformance classes implemented.", parameters: ogcFormat(),
        answer: "conformsTo: the classes' URIs", mediaTypes: ["application/json", "text/html"],
        problemStatuses: [400])
    public static let ogcCollections = EndpointDescription(
        path: "/ogc/collections", operationId: "ogcCollections",
        summary: "OGC API - Features: every served layer, and the incidents, as collections.",
        parameters: ogcFormat(), answer: "collections: id, title, description, itemType, extent, links",
        mediaTypes: ["application/json", "text/html"], problemStatuses: [400, 503])
    public static let ogcCollection = EndpointDescription(
        path: "/ogc/collections/{collectionId}", operationId: "ogcCollection",
        summary: "OGC API - Features: one collection.", parameters: [collectionID] + ogcFormat(),
        answer: "id, title, description, itemType, extent, links", mediaTypes: ["application/json", "text/html"])
    public static let ogcItems = EndpointDescription(
        path: "/ogc/collections/{collectionId}/items", operationId: "ogcItems",
        summary:
            "OGC API - Features: a collection's features, filtered, sorted and paged; any queryable property also filters (PROPERTY=VALUE).",
        parameters: [collectionID] + ogcFormat() + [
            .init(
                name: "limit", required: false, description: "Features in the page, 1 to 10000 (default 10).",
                schema: .integer(1...OGCItemsQuery.maxLimit), example: "10"),
            .init(
                name: "offset", required: false, description: "Features skipped before the page (the next link's).",
                schema: .integer(0...Int(Int32.max)), example: "0"),
            .init(
                name: "bbox", required: false,
                description:
                    "Only features whose geometry meets west,south,east,north (degrees, longitude first; west > east crosses the antimeridian).",
                schema: .bbox, example: "-1.66,42.80,-1.62,42.83"),
            .init(
                name: "datetime", required: false,
                description:
                    "An RFC 3339 instant, a date, or an interval start/end (.. open): incidents by the date each was published; layers hold at every instant.",
                schema: .string, example: "2020-01-01T00:00:00Z/.."),
            .init(
                name: "properties", required: false, description: "The properties to answer with, comma-separated.",
                schema: .string, example: "name"),
            .init(
                name: "sortby", required: false,
                description: "Sort keys, comma-separated, each a property with - for descending (nulls last).",
                schema: .string, example: "-name"),
            .init(
                name: "skipGeometry", required: false, description: "Answer without geometries.",
                schema: .choice(["true", "false"]), example: "false"),
            crs("The CRS of the answer's coordinates (Content-Crs says which)"),
            crs("The CRS of bbox's numbers (then minimum x, minimum y, maximum x, maximum y)", name: "bbox-crs"),
        ],
        answer: "a GeoJSON FeatureCollection with numberMatched, numberReturned, timeStamp and links (next when more)",
        mediaTypes: ["application/geo+json", "text/html"])
    public static let ogcItem = EndpointDescription(
        path: "/ogc/collections/{collectionId}/items/{featureId}", operationId: "ogcItem",
        summary: "OGC API - Features: one feature.",
        parameters: [
            collectionID,
            .init(
                name: "featureId", in: "path", required: true, description: "The feature's id in its collection.",
                schema: .string, example: "1"),
            crs("The CRS of the answer's coordinates (Content-Crs says which)"),
        ] + ogcFormat(),
        answer: "a GeoJSON Feature with links", mediaTypes: ["application/geo+json", "text/html"])

    public static let ogcTilesets = EndpointDescription(
        path: "/ogc/collections/{collectionId}/tiles", operationId: "ogcTilesets",
        summary: "OGC API - Tiles: a collection's tilesets (WebMercatorQuad).",
        parameters: [collectionID] + ogcFormat(["json"]), answer: "tilesets: title, dataType, crs, links")
    public static let ogcTileset = EndpointDescription(
        path: "/ogc/collections/{collectionId}/tiles/WebMercatorQuad", operationId: "ogcTileset",
        summary: "OGC API - Tiles: the tileset's metadata, or TileJSON 3.0 with f=tilejson.",
        parameters: [collectionID] + ogcFormat(["json", "tilejson"]),
        answer: "the tileset (tileMatrixSetLimits, layers, links), or TileJSON 3.0")
    public static let ogcTile = EndpointDescription(
        path: "/ogc/collections/{collectionId}/tiles/WebMercatorQuad/{z}/{y}/{x}", operationId: "ogcTile",
        summary:
            "A vector tile (Mapbox Vector Tile 2.1): the collection's features meeting the tile, clipped and simplified below zoom 15; 204 where there are none.",
        parameters: [
            .init(
                name: "collectionId", in: "path", required: true,
                description: "A collection: a layer's name, or incidents.", schema: .string,
                example: "valencia-barrios"),
            .init(
                name: "z", in: "path", required: true, description: "The zoom level, 0 to 22.",
                schema: .integer(OGCTiles.zooms), example: "14"),
            .init(
                name: "y", in: "path", required: true, description: "The row, from the north.",
                schema: .integer(0...(1 << 22) - 1), example: "6234"),
            .init(
                name: "x", in: "path", required: true, description: "The column, from 180 degrees west.",
                schema: .integer(0...(1 << 22) - 1), example: "8174"),
        ],
        answer: "the tile; ETag, If-None-Match, gzip; geoq-tile-dropped when the 500 KB cap left features out",
        mediaTypes: [OGCTiles.mediaType])

    static let ogcEndpoints = [
        ogcLanding, ogcAPI, ogcConformance, ogcCollections, ogcCollection, ogcItems, ogcItem, ogcTilesets,
        ogcTileset, ogcTile,
    ]
}
