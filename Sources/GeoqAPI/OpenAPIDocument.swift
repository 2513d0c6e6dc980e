import GeoqIncidents

/// The OpenAPI 3.1 description of the service, served at `/openapi.json`.
///
/// Each endpoint's accepted parameters are read from here (see ``EndpointDescription``), so
/// what the document says and what the endpoints accept cannot drift apart; the server tests
/// call every documented operation with its documented examples.
public struct OpenAPIDocument: Encodable, Sendable {
    public struct Info: Encodable, Sendable {
        public var title: String
        public var version: String
        public var description: String
    }

    /// The operations of one path, one per method.
    public struct PathItem: Encodable, Sendable {
        public var get: Operation?
        public var post: Operation?
        public var delete: Operation?

        /// This item with `operation` as its `method`'s ("get", "post" or "delete").
        func adding(_ operation: Operation, as method: String) -> PathItem {
            var item = self
            switch method {
            case "post": item.post = operation
            case "delete": item.delete = operation
            default: item.get = operation
            }
            return item
        }
    }

    public struct Operation: Encodable, Sendable {
        public var operationId: String
        public var summary: String
        public var parameters: [Parameter]
        public var requestBody: RequestBody?
        public var responses: [String: ResponseObject]
        /// The credentials accepted: a bearer key of the operation's scope (an empty requirement
        /// first when the operation is open by default).
        public var security: [[String: [String]]]?
    }

    /// How a client proves who it is: `Authorization: Bearer KEY` (a key or a device token).
    public struct SecurityScheme: Encodable, Sendable {
        public var type = "http"
        public var scheme = "bearer"
        public var description: String
    }

    public struct Components: Encodable, Sendable {
        public var securitySchemes: [String: SecurityScheme]
    }

    /// The name of the bearer scheme in ``Components``.
    public static let bearerScheme = "bearerKey"

    public struct RequestBody: Encodable, Sendable {
        public var required = true
        public var description: String
        public var content: [String: MediaType]
    }

    public struct Parameter: Encodable, Sendable {
        public var name: String
        public var `in` = "query"
        public var required: Bool
        public var description: String
        public var schema: Schema
        /// A value that makes a valid request (with the other examples).
        public var example: String?
    }

    /// The part of JSON Schema (2020-12) the document uses.
    public struct Schema: Encodable, Sendable {
        public var type: String?
        public var minimum: Double?
        public var maximum: Double?
        /// Bounds the value must not reach (a field of view of 0° or 180° is refused).
        public var exclusiveMinimum: Double?
        public var exclusiveMaximum: Double?
        public var `enum`: [String]?
        public var minLength: Int?
        public var pattern: String?
        public var properties: [String: Schema]?
        public var required: [String]?
        /// The schema of every item (one element; an array, as a struct cannot hold itself).
        public var items: [Schema]?
        public var prefixItems: [Schema]?
        public var minItems: Int?
        public var maxItems: Int?

        public static func number(_ range: ClosedRange<Double>? = nil) -> Schema {
            Schema(type: "number", minimum: range?.lowerBound, maximum: range?.upperBound)
        }
        /// A number strictly between the bounds.
        public static func number(above lower: Double, below upper: Double) -> Schema {
            Schema(type: "number", exclusiveMinimum: lower, exclusiveMaximum: upper)
        }
        public static func integer(_ range: ClosedRange<Int>) -> Schema {
            Schema(type: "integer", minimum: Double(range.lowerBound), maximum: Double(range.upperBound))
        }
        /// A non-empty string (an empty value is refused like a missing one).
        public static let string = Schema(type: "string", minLength: 1)
        public static func string(pattern: String) -> Schema { Schema(type: "string", minLength: 1, pattern: pattern) }
        public static func choice(_ values: [String]) -> Schema { Schema(type: "string", enum: values) }
        public static let object = Schema(type: "object")

        enum CodingKeys: String, CodingKey {
            case type, minimum, maximum, exclusiveMinimum, exclusiveMaximum, `enum`, minLength, pattern, properties,
                required, items, prefixItems, minItems, maxItems
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(type, forKey: .type)
            try c.encodeIfPresent(minimum, forKey: .minimum)
            try c.encodeIfPresent(maximum, forKey: .maximum)
            try c.encodeIfPresent(exclusiveMinimum, forKey: .exclusiveMinimum)
            try c.encodeIfPresent(exclusiveMaximum, forKey: .exclusiveMaximum)
            try c.encodeIfPresent(`enum`, forKey: .enum)
            try c.encodeIfPresent(minLength, forKey: .minLength)
            try c.encodeIfPresent(pattern, forKey: .pattern)
            try c.encodeIfPresent(properties, forKey: .properties)
            try c.encodeIfPresent(required, forKey: .required)
            try c.encodeIfPresent(items?.first, forKey: .items)
            try c.encodeIfPresent(prefixItems, forKey: .prefixItems)
            try c.encodeIfPresent(minItems, forKey: .minItems)
            try c.encodeIfPresent(maxItems, forKey: .maxItems)
        }
    }

    public struct ResponseObject: Encodable, Sendable {
        public var description: String
        public var content: [String: MediaType]
    }

    public struct MediaType: Encodable, Sendable {
        public var schema: Schema
        public var example: String?
    }

    public var openapi = "3.1.0"
    public var info: Info
    public var paths: [String: PathItem]
    public var components = Components(securitySchemes: [
        bearerScheme: SecurityScheme(
            description: "A key made with `geoq keys add` (gqk_...), or a device token from "
                + "POST /v1/devices/{id}/token (gqd_..., fixes of its device only). Each operation names the "
                + "scope it needs; the read endpoints need `read` only when the service runs with --private-reads.")
    ])

    /// The document for `endpoints`.
    public init(endpoints: [EndpointDescription]) {
        info = Info(
            title: "geoq", version: "1",
            description: "Sector lookup, nearest places and city services. Coordinates are WGS84 degrees, "
                + "latitude first (lat, lon). Errors are RFC 9457 problem details.")
        paths = [:]
        for endpoint in endpoints {
            var statuses = endpoint.problemStatuses
            if endpoint.scope != nil { statuses += [401, 403] }
            statuses.append(429)
            var responses: [String: ResponseObject] = [
                String(endpoint.successStatus): ResponseObject(
                    description: endpoint.answer,
                    content: Dictionary(
                        uniqueKeysWithValues: endpoint.mediaTypes.map { ($0, MediaType(schema: .object)) }
                    ))
            ]
            for status in Set(statuses) {
                responses[String(status)] = ResponseObject(
                    description: "a problem (RFC 9457) naming what is wrong",
                    content: [Problem.mediaType: MediaType(schema: .object)])
            }
            let operation = Operation(
                operationId: endpoint.operationId, summary: endpoint.summary, parameters: endpoint.parameters,
                requestBody: endpoint.requestBody.map { body in
                    RequestBody(
                        description: body.description,
                        content: Dictionary(
                            uniqueKeysWithValues: body.examples.map {
                                (
                                    $0.mediaType,
                                    MediaType(schema: body.schemas[$0.mediaType] ?? .string, example: $0.example)
                                )
                            }))
                }, responses: responses,
                security: endpoint.scope.map { [[Self.bearerScheme: [$0]]] }
                    ?? (endpoint.isOpen ? nil : [[:], [Self.bearerScheme: ["read"]]]))
            paths[endpoint.path] = (paths[endpoint.path] ?? PathItem()).adding(operation, as: endpoint.method)
        }
    }

    /// Every endpoint of the service.
    public static let service = OpenAPIDocument(endpoints: EndpointDescription.all)
}

/// One endpoint as the document describes it.
public struct EndpointDescription: Sendable {
    /// What a POST endpoint reads: an example body per media type it accepts.
    public struct Body: Sendable {
        public var description: String
        public var examples: [(mediaType: String, example: String)]
        /// The schema of the body for each media type (a string when not given).
        public var schemas: [String: OpenAPIDocument.Schema] = [:]
    }

    public var path: String
    /// "get", "post" or "delete"; a path may have one endpoint per method.
    public var method = "get"
    public var operationId: String
    public var summary: String
    public var parameters: [OpenAPIDocument.Parameter]
    public var requestBody: Body?
    /// What a 200 answer holds.
    public var answer: String
    public var mediaTypes: [String] = ["application/json"]
    public var problemStatuses: [Int] = [400, 404, 503]
    /// The status of an answer: 200, 201 for what a POST creates, 204 for a DELETE.
    public var successStatus = 200
    /// The scope a bearer key needs (`track`, `events`, `hooks`, `admin`); nil for a read, open
    /// unless the service makes reads private (then `read`).
    public var scope: String?
    /// Open to anyone whatever the service's options (liveness and readiness).
    public var isOpen = false

    /// The names of the parameters, for ``QueryParameters/allowOnly(_:)``.
    public var parameterNames: Set<String> { Set(parameters.map(\.name)) }

    /// `lat` and `lon`, with an example position (Pamplona's centre unless given).
    static func position(_ latitude: String = "42.81", _ longitude: String = "-1.64") -> [OpenAPIDocument.Parameter] {
        [
            .init(
                name: "lat", required: true, description: "Latitude in degrees (WGS84), -90 to 90.",
                schema: .number(-90...90), example: latitude),
            .init(
                name: "lon", required: true, description: "Longitude in degrees (WGS84), -180 to 180.",
                schema: .number(-180...180), example: longitude),
        ]
    }
    /// `city`, `reminder` and `lang`, shared by /v1/tariff and /v1/park.
    static func ticketOptions(reminder: String, lang: String) -> [OpenAPIDocument.Parameter] {
        [
            .init(
                name: "city", required: false, description: "The city whose tariffs apply (default pamplona).",
                schema: .string, example: "pamplona"),
            .init(
                name: "reminder", required: false, description: "Reminders, minutes before the end, comma-separated.",
                schema: .string(pattern: "^[0-9]{1,4}(,[0-9]{1,4})*$"), example: reminder),
            language("Language of the messages", default: "es", example: lang),
        ]
    }

    /// `lang`: es, eu or en; without it the first of them in `Accept-Language`, else `fallback`.
    static func language(_ what: String, default fallback: String, example: String) -> OpenAPIDocument.Parameter {
        .init(
            name: "lang", required: false,
            description: "\(what); default: the Accept-Language header, else \(fallback).",
            schema: .choice(["es", "eu", "en"]), example: example)
    }

    static func within(_ what: String) -> OpenAPIDocument.Parameter {
        .init(
            name: "within", required: false, description: "Only \(what) within this many metres (0 or more).",
            schema: OpenAPIDocument.Schema(type: "number", minimum: 0), example: "2000")
    }

    public static let health = EndpointDescription(
        path: "/healthz", operationId: "health", summary: "The process is up.", parameters: [],
        answer: "{\"status\": \"ok\"}", problemStatuses: [], isOpen: true)
    public static let readiness = EndpointDescription(
        path: "/readyz", operationId: "readiness", summary: "The layers are loaded.", parameters: [],
        answer: "status and number of layers (the store and the last error only to an admin key)",
        problemStatuses: [503], isOpen: true)
    public static let layers = EndpointDescription(
        path: "/v1/layers", operationId: "layers", summary: "Every layer and whether it loaded.", parameters: [],
        answer:
            "layers: name, title, titles (by language), kind, features, approximate, error, attributes (each: name, type, example)",
        problemStatuses: [503])
    public static let layerFeatures = EndpointDescription(
        path: "/v1/layers/{name}", operationId: "layerFeatures",
        summary: "A layer's features as GeoJSON, for a map (ETag, If-None-Match, gzip).",
        parameters: [
            .init(
                name: "name", in: "path", required: true, description: "A layer, as /v1/layers lists it.",
                schema: .string, example: "pamplona-sectors"),
            .init(
                name: "bbox", required: false,
                description: "Only features whose bounding box meets west,south,east,north (degrees, longitude first).",
                schema: .bbox, example: "-1.66,42.80,-1.62,42.83"),
            .init(
                name: "simplify", required: false,
                description: "Douglas-Peucker tolerance in metres (0 to 10000) for lines and polygons.",
                schema: .number(0...10_000), example: "5"),
            language("Language of an approximate layer's note", default: "en", example: "es"),
        ],
        answer: "a FeatureCollection with the layer's name, title, kind, approximate and approximation",
        mediaTypes: ["application/geo+json"])
    public static let sector = EndpointDescription(
        path: "/v1/sector", operationId: "sector",
        summary: "Which feature of a polygon layer contains the point (geoq which-sector).",
        parameters: position() + [
            .init(
                name: "layer", required: false, description: "A polygon layer (default pamplona-sectors).",
                schema: .string, example: "pamplona-sectors"),
            language("Language of an approximate layer's note", default: "en", example: "es"),
            .init(
                name: "at", required: false,
                description:
                    "On a time-zone layer, the instant of the local time: ISO 8601 with an offset (default now).",
                schema: .instant, example: "2026-07-15T12:00:00Z"),
        ],
        answer:
            "the which-sector answer: inside, nearest, swapHint, approximate, approximation (in lang); timeZone on a time-zone layer",
        mediaTypes: ["application/json", "application/geo+json"])
    public static let nearest = EndpointDescription(
        path: "/v1/nearest", operationId: "nearest",
        summary: "The nearest features of a point layer, by geodesic distance (geoq nearest).",
        parameters: position("39.4699", "-0.3763") + [
            .init(name: "layer", required: true, description: "A point layer.", schema: .string, example: "fallas"),
            .init(
                name: "n", required: false, description: "How many features at most (default 10).",
                schema: .integer(1...1000), example: "5"),
            within("features"),
            .init(
                name: "category", required: false,
                description: "Only this category, by code or words; repeatable.", schema: .string,
                example: "Especial"),
            .init(
                name: "order", required: false, description: "distance (default) or category (competition order).",
                schema: .choice(["distance", "category"]), example: "distance"),
        ],
        answer: "hits nearest first: id, name, category, distance, bearing, geo: URI, links",
        mediaTypes: ["application/json", "application/geo+json"])
    public static let services = EndpointDescription(
        path: "/v1/services", operationId: "services",
        summary: "The nearest services of each type (geoq services).",
        parameters: position("39.4699", "-0.3763") + [
            .init(
                name: "type", required: false, description: "Only this service type; repeatable.", schema: .string,
                example: "hospital"),
            .init(
                name: "n", required: false, description: "How many of each type at most (default 3).",
                schema: .integer(1...100), example: "2"),
            within("services"),
        ],
        answer: "groups by service type, each nearest first",
        mediaTypes: ["application/json", "application/geo+json"])

    public static let tariff = EndpointDescription(
        path: "/v1/tariff", operationId: "tariff",
        summary: "Price a parking ticket and tell when it runs out, counting only regulated minutes (geoq tariff).",
        parameters: [
            .init(
                name: "zone", required: true, description: "The zone: blue, orange, red or green (or its name).",
                schema: .string, example: "blue"),
            .init(
                name: "minutes", required: false,
                description: "Regulated minutes to buy at least (the smallest amount is quoted); or give euros.",
                schema: .integer(1...100_000), example: "30"),
            .init(
                name: "euros", required: false,
                description: "Amount to spend, a multiple of 0.05 (1.25 or 1,25); or give minutes.",
                schema: .amount, example: nil),
            .init(
                name: "start", required: false,
                description:
                    "When the ticket is bought: ISO 8601, the city's wall clock without an offset (default now).",
                schema: .wallClock, example: "2026-11-23T13:50"),
        ] + ticketOptions(reminder: "5,10", lang: "en"),
        answer:
            "amount, minutes, start, countingFrom, end, validUntil, maxStay, reminders, pauses (from, until, days with reasons, outsideHours, message), regulation, messages",
        problemStatuses: [400, 404, 422, 503])

    public static let park = EndpointDescription(
        path: "/v1/park", operationId: "park",
        summary: "Can I park here, in which sector and zone, is it regulated now, and what a ticket costs (geoq park).",
        parameters: position("42.8125", "-1.6458") + [
            .init(
                name: "zone", required: false,
                description:
                    "The zone read on the street (blue, orange, red, green); needed without the city's zone lines.",
                schema: .string, example: "blue"),
            .init(
                name: "minutes", required: false, description: "Price a stay of at least this many regulated minutes.",
                schema: .integer(1...100_000), example: "30"),
            .init(
                name: "euros", required: false, description: "Or price this amount (1.25 or 1,25).", schema: .amount,
                example: nil),
            .init(
                name: "at", required: false,
                description: "When: ISO 8601, the city's wall clock without an offset (default now).",
                schema: .wallClock, example: "2026-11-23T13:50"),
        ] + ticketOptions(reminder: "5", lang: "es"),
        answer:
            "sector (approximate or not, approximation in lang), zone, regulation now and next change, ticket quote with its pauses, reminders (as /v1/tariff's), messages",
        mediaTypes: ["application/json", "application/geo+json"], problemStatuses: [400, 404, 422, 500, 503])

    public static let incidents = EndpointDescription(
        path: "/v1/incidents", operationId: "incidents",
        summary: "The city incidents held (geoq incidents): nearest first with lat/lon, else newest first.",
        parameters: position("41.6488", "-0.8891").map { parameter in
            var optional = parameter
            optional.required = false
            optional.description += " Give both lat and lon, or neither."
            return optional
        } + [
            within("incidents (needs lat and lon)"),
            .init(
                name: "type", required: false,
                description: "Only this type, a number 0–5 or its code (traffic-cut, ...); repeatable.",
                schema: .choice(IncidentType.allCases.flatMap { [String($0.rawValue), $0.code] }),
                example: "traffic-cut"),
            .init(
                name: "source", required: false,
                description: "Only this source, its name as the answer lists it "
                    + "(e.g. zaragoza.es/sede/servicio/incidencia?id=1); repeatable.",
                schema: .string, example: nil),
            .init(
                name: "category", required: false,
                description: "Only this category (the entry's own, else the type's name; letter case and "
                    + "accents ignored); repeatable.",
                schema: .string, example: "obras"),
            .init(
                name: "since", required: false,
                description: "Only incidents published since: ISO 8601, Europe/Madrid without an offset.",
                schema: .wallClock, example: "2026-01-01T00:00"),
            .init(
                name: "n", required: false, description: "How many at most (default all).",
                schema: .integer(1...100_000), example: "20"),
        ],
        answer: "held, count, status (how old the data is), refreshedAt, ageSeconds, incidents "
            + "(each with its source and categories)",
        mediaTypes: ["application/json", "application/geo+json"], problemStatuses: [400, 500, 503])

    public static let ar = EndpointDescription(
        path: "/v1/ar", operationId: "ar",
        summary: "Where each feature of a point layer goes on a phone's camera view (geoq ar).",
        parameters: position("39.4699", "-0.3763") + [
            .init(
                name: "heading", required: true,
                description: "Compass heading of the camera, degrees clockwise from north (-360 to 360).",
                schema: .number(-360...360), example: "15"),
            .init(
                name: "heading-ref", required: false, description: "Whether heading is true (default) or magnetic.",
                schema: .choice(["true", "magnetic"]), example: "magnetic"),
            .init(
                name: "declination", required: false,
                description: "Magnetic declination, degrees east positive (true = magnetic + declination); "
                    + "applies to magnetic headings only, as in geoq ar.",
                schema: .number(-180...180), example: "1.2"),
            .init(
                name: "pitch", required: false, description: "Camera pitch, degrees, positive tilted up (default 0).",
                schema: .number(-90...90), example: "-5"),
            .init(
                name: "roll", required: false,
                description: "Camera roll, degrees, positive turned clockwise (default 0).",
                schema: .number(-180...180), example: "0"),
            .init(
                name: "hfov", required: false,
                description: "Horizontal field of view, degrees, between 0 and 180 (default 60).",
                schema: .number(above: 0, below: 180), example: "66"),
            .init(
                name: "vfov", required: false,
                description: "Vertical field of view, degrees (default: from hfov and the screen's aspect).",
                schema: .number(above: 0, below: 180), example: nil),
            .init(
                name: "width", required: false, description: "Screen width in pixels (default 1080).",
                schema: .pixels, example: "1080"),
            .init(
                name: "height", required: false, description: "Screen height in pixels (default 1920).",
                schema: .pixels, example: "1920"),
            .init(
                name: "altitude", required: false, description: "Device altitude in metres (default 0).",
                schema: .number(-500...9000), example: "15"),
            .init(
                name: "layer", required: false, description: "The point layer to label (default fallas).",
                schema: .string, example: "fallas"),
            .init(
                name: "max-distance", required: false,
                description: "Features farther than this many metres are not visible.",
                schema: OpenAPIDocument.Schema(type: "number", minimum: 0), example: "800"),
            .init(
                name: "curvature", required: false,
                description: "Lower features by the earth-curvature drop d²/(2R) (default false).",
                schema: .choice(["true", "false"]), example: "false"),
            .init(
                name: "visible-only", required: false, description: "List only the visible labels (default false).",
                schema: .choice(["true", "false"]), example: "true"),
        ],
        answer: "camera, visibleCount, labels nearest first: distance, bearing, relativeBearing, elevation, x, y, "
            + "visible, scale, stackLevel")

    public static let sectorBatch = EndpointDescription(
        path: "/v1/sector:batch", method: "post", operationId: "sectorBatch",
        summary: "Which feature of a polygon layer contains each of many points (geoq which-sector --batch).",
        parameters: [
            .init(
                name: "layer", required: false, description: "A polygon layer (default pamplona-sectors).",
                schema: .string, example: "pamplona-sectors"),
            language("Language of an approximate layer's note", default: "en", example: "eu"),
        ],
        requestBody: Body(
            description: "Points: NDJSON lines {\"lat\", \"lon\", \"id\"} or CSV lat,lon[,id] (latitude first), "
                + "or a GeoJSON FeatureCollection of Points (longitude first). At most --max-batch points and "
                + "--max-body-bytes bytes; the whole body is checked before the first answer.",
            examples: [
                (
                    "application/x-ndjson",
                    "{\"lat\": 42.81, \"lon\": -1.64, \"id\": \"car-1\"}\n{\"lat\": 42.8125, \"lon\": -1.6458}\n"
                ),
                ("text/csv", "lat,lon,id\n42.81,-1.64,car-1\n"),
                (
                    "application/geo+json",
                    "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"id\": \"car-1\", "
                        + "\"geometry\": {\"type\": \"Point\", \"coordinates\": [-1.64, 42.81]}, \"properties\": {}}]}"
                ),
            ],
            schemas: [
                "application/x-ndjson": .ndjsonPoints, "text/csv": .csvPoints,
                "application/geo+json": .featureCollectionOfPoints(maxFeatures: ServiceLimits().maxBatchPoints),
            ]),
        answer: "NDJSON, one which-sector answer per point in the body's order, with its line or feature and id",
        mediaTypes: ["application/x-ndjson"], problemStatuses: [400, 404, 413, 415, 503])

    public static let metrics = EndpointDescription(
        path: "/metrics", operationId: "metrics", summary: "Request counts and latency histograms per route.",
        parameters: [], answer: "Prometheus text exposition",
        mediaTypes: ["text/plain; version=0.0.4; charset=utf-8"], problemStatuses: [], scope: "admin")
    public static let openAPI = EndpointDescription(
        path: "/openapi.json", operationId: "openapi", summary: "This document.", parameters: [],
        answer: "the OpenAPI 3.1 document", problemStatuses: [])

    public static let all =
        [
            health, readiness, layers, layerFeatures, sector, sectorBatch, nearest, services, ar, tariff, park,
            incidents,
            metrics,
            openAPI,
        ] + trackingEndpoints + pushEndpoints + ogcEndpoints
}
