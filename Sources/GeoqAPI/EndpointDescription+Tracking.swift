/// The hooks and events endpoints: webhooks for tracking events, and the events for clients
/// that pull. They answer when the service keeps a tracking store.
extension EndpointDescription {
    /// The kinds of tracking event, as hooks filter them.
    public static let eventKinds = ["enter", "exit", "dwell", "parked", "left"]

    public static let hooks = EndpointDescription(
        path: "/v1/hooks", operationId: "hooks", summary: "The webhooks events are POSTed to (geoq hooks list).",
        parameters: [],
        answer: "the caller's tenant's hooks by id: id, url, layer (absent: every layer), events (absent: every kind), "
            + "created",
        problemStatuses: [404], scope: "hooks")

    public static let addHook = EndpointDescription(
        path: "/v1/hooks", method: "post", operationId: "addHook",
        summary: "Add a webhook: each later tracking event it matches is POSTed to url (geoq hooks add).",
        parameters: [],
        requestBody: Body(
            description: "url: an https URL (http only where the operator allows it) whose host resolves to "
                + "global addresses only: loopback, private, link-local, CGNAT, unique-local and the other special "
                + "ranges are refused (422) unless the operator allows them, here and again before each delivery; "
                + "or, where the operator allows Redis, redis://HOST[:PORT]?stream=NAME[&maxlen=N]: each event "
                + "appended to that stream (XADD) with fields id (the idempotency key) and body (the event JSON). "
                + "layer: only events of this layer; events: only these kinds; ordered: each device's events in "
                + "order (none sent while an earlier one of the same device is pending). Each delivery is a POST of the "
                + "event JSON with Idempotency-Key \"<hook id>-<event sequence>\", retried with exponential backoff "
                + "and full jitter until a 2xx, else a dead letter; a redirect is a failed try, never followed. "
                + "Send an Idempotency-Key header (1 to 255 characters) to retry safely: the same key answers the "
                + "hook it made (200, Idempotent-Replayed: true), or 422 when it came with another body.",
            examples: [
                (
                    "application/json",
                    "{\"url\": \"https://receiver.example.org/geoq-events\", \"layer\": \"pamplona-sectors\", "
                        + "\"events\": [\"parked\", \"left\"], \"ordered\": true}"
                )
            ],
            schemas: [
                "application/json": OpenAPIDocument.Schema(
                    type: "object",
                    properties: [
                        "url": .string, "layer": .string,
                        "events": OpenAPIDocument.Schema(type: "array", items: [.choice(eventKinds)], minItems: 1),
                        "ordered": OpenAPIDocument.Schema(type: "boolean"),
                    ], required: ["url"])
            ]),
        answer:
            "the hook: id, url, layer, events, ordered, created, and secret (whsec_..., shown this once): each delivery "
            + "carries webhook-id, webhook-timestamp and webhook-signature as the Standard Webhooks specification says",
        problemStatuses: [400, 404, 415, 422], successStatus: 201,
        scope: "hooks")

    public static let rotateHookSecret = EndpointDescription(
        path: "/v1/hooks/{id}/rotate", method: "post", operationId: "rotateHookSecret",
        summary: "Give a webhook a new signing secret (geoq hooks rotate); the old one signs beside it for a while.",
        parameters: [
            .init(
                name: "id", in: "path", required: true, description: "The hook's id, as /v1/hooks lists it.",
                schema: .string(pattern: "^[0-9]+$"), example: "1"),
            .init(
                name: "overlap", required: false,
                description: "Seconds the previous secret goes on signing beside the new one (default 86400, "
                    + "at most 604800): each delivery carries both signatures meanwhile.",
                schema: .integer(0...604_800), example: "3600"),
        ],
        answer: "id, secret (the new one, shown this once), previousSecretExpires", problemStatuses: [400, 404],
        scope: "hooks")

    public static let deleteHook = EndpointDescription(
        path: "/v1/hooks/{id}", method: "delete", operationId: "deleteHook",
        summary: "Delete a webhook; its undelivered events become dead letters (geoq hooks delete).",
        parameters: [
            .init(
                name: "id", in: "path", required: true, description: "The hook's id, as /v1/hooks lists it.",
                schema: .string(pattern: "^[0-9]+$"), example: "1")
        ],
        answer: "no content", mediaTypes: [], problemStatuses: [404], successStatus: 204, scope: "hooks")

    public static let events = EndpointDescription(
        path: "/v1/events", operationId: "events",
        summary: "The caller's tenant's tracking events after a sequence, oldest first, for clients that pull.",
        parameters: [
            .init(
                name: "since", required: false,
                description: "Only events after this global sequence (default 0: from the first).",
                schema: OpenAPIDocument.Schema(type: "integer", minimum: 0), example: "0"),
            .init(
                name: "limit", required: false, description: "How many at most (default 100).",
                schema: .integer(1...1000), example: "100"),
            .init(
                name: "device", required: false,
                description: "Only the events of this device (of the caller's tenant).",
                schema: .string, example: "car-1"),
        ],
        answer: "events: sequence, device, layer, kind, event (its JSON); next: the since of the next call",
        problemStatuses: [400, 404], scope: "events")

    public static let eventStream = EndpointDescription(
        path: "/v1/events/stream", operationId: "eventStream",
        summary: "The caller's tenant's tracking events as they happen, as Server-Sent Events (text/event-stream): "
            + "each with its global sequence as id, its kind as event and its JSON as data.",
        parameters: [
            .init(
                name: "since", required: false,
                description: "Start after this global sequence (default: with the next event). A reconnecting "
                    + "client's Last-Event-ID header takes its place.",
                schema: OpenAPIDocument.Schema(type: "integer", minimum: 0), example: "0"),
            .init(
                name: "device", required: false, description: "Only the events of this device.", schema: .string,
                example: "car-1"),
            .init(
                name: "layer", required: false, description: "Only the events on this layer.", schema: .string,
                example: "pamplona-sectors"),
            .init(
                name: "kind", required: false, description: "Only events of these kinds (repeatable).",
                schema: .choice(eventKinds), example: "parked"),
        ],
        answer: "a stream of events (id: sequence, event: kind, data: the event's JSON), a comment every 15 s",
        mediaTypes: ["text/event-stream"], problemStatuses: [400], scope: "events")

    public static let fixes = EndpointDescription(
        path: "/v1/fixes", method: "post", operationId: "fixes",
        summary:
            "Device fixes through the geofence engine, into the caller's tenant (a device token: its device only).",
        parameters: [
            .init(
                name: "layer", required: false,
                description: "The layer to track on (default: the first polygon layer): a polygon layer, or a point "
                    + "layer with a radius.",
                schema: .string, example: "fallas"),
            .init(
                name: "radius", required: false,
                description: "For a point layer (and only then, where it is required): each fence is a circle of this "
                    + "many metres around a point, geodesic (a feature's own radius property wins).",
                schema: .number(1...50_000), example: "100"),
        ],
        requestBody: Body(
            description: "Fixes {device, time (RFC 3339), lat, lon, accuracy?, speed?}: a JSON array, one object, or "
                + "NDJSON. A fix dated more than --max-future ahead or older than --retain-tracks is refused and "
                + "named in errors; the rest of the batch goes on.",
            examples: [
                (
                    "application/json",
                    "[{\"device\": \"car-1\", \"time\": \"2026-11-23T09:00:00+01:00\", \"lat\": 42.81, "
                        + "\"lon\": -1.64, \"accuracy\": 5}]"
                ),
                (
                    "application/x-ndjson",
                    "{\"device\": \"car-2\", \"time\": \"2026-11-23T09:00:00+01:00\", \"lat\": 42.81, \"lon\": -1.64}"
                ),
            ]),
        answer: "accepted, ignored (older or repeated), errors (each bad fix by line or index), events",
        problemStatuses: [400, 403, 404, 413, 415, 422, 503], scope: "track")

    public static let deviceToken = EndpointDescription(
        path: "/v1/devices/{id}/token", method: "post", operationId: "deviceToken",
        summary: "A short-lived token that posts the fixes of this one device of the caller's tenant.",
        parameters: [
            .init(
                name: "id", in: "path", required: true, description: "The device's id (1 to 128 bytes).",
                schema: .string, example: "car-1")
        ],
        requestBody: Body(
            description: "ttl: the token's life in seconds, at most 86400 (default 3600); the body may be left out.",
            examples: [("application/json", "{\"ttl\": 900}")],
            schemas: [
                "application/json": OpenAPIDocument.Schema(
                    type: "object", properties: ["ttl": .number(1...86_400)], required: [])
            ]),
        answer: "token (send it as Authorization: Bearer TOKEN), device, expires", problemStatuses: [400, 415, 422],
        successStatus: 201, scope: "track")

    public static let eraseDevice = EndpointDescription(
        path: "/v1/devices/{id}", method: "delete", operationId: "eraseDevice",
        summary: "Erase a device of the caller's tenant: its tracks, events and deliveries, in one transaction.",
        parameters: [
            .init(
                name: "id", in: "path", required: true, description: "The device's id.", schema: .string,
                example: "car-1")
        ],
        answer: "how many tracks, events and deliveries were removed", problemStatuses: [422], scope: "admin")

    static let trackingEndpoints = [
        hooks, addHook, rotateHookSecret, deleteHook, events, eventStream, fixes, deviceToken, eraseDevice,
    ]
}
