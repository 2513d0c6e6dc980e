/// The hooks and events endpoints: webhooks for tracking events, and the events for clients
/// that pull. They answer when the service keeps a tracking store.
extension EndpointDescription {
    /// The kinds of tracking event, as hooks filter them.
    static let eventKinds = ["enter", "exit", "dwell", "parked", "left"]

    public static let hooks = EndpointDescription(
        path: "/v1/hooks", operationId: "hooks", summary: "The webhooks events are POSTed to (geoq hooks list).",
        parameters: [],
        answer: "hooks by id: id, url, layer (absent: every layer), events (absent: every kind), created",
        problemStatuses: [404])

    public static let addHook = EndpointDescription(
        path: "/v1/hooks", method: "post", operationId: "addHook",
        summary: "Add a webhook: each later tracking event it matches is POSTed to url (geoq hooks add).",
        parameters: [],
        requestBody: Body(
            description: "url: an absolute http or https URL; layer: only events of this layer; events: only these "
                + "kinds. Each delivery is a POST of the event JSON with Idempotency-Key \"<hook id>-<event "
                + "sequence>\", retried with exponential backoff and full jitter until a 2xx, else a dead letter.",
            examples: [
                (
                    "application/json",
                    "{\"url\": \"http://127.0.0.1:9/geoq-events\", \"layer\": \"pamplona-sectors\", "
                        + "\"events\": [\"parked\", \"left\"]}"
                )
            ],
            schemas: [
                "application/json": OpenAPIDocument.Schema(
                    type: "object",
                    properties: [
                        "url": .string, "layer": .string,
                        "events": OpenAPIDocument.Schema(type: "array", items: [.choice(eventKinds)], minItems: 1),
                    ], required: ["url"])
            ]),
        answer: "the hook: id, url, layer, events, created", problemStatuses: [400, 404], successStatus: 201)

    public static let deleteHook = EndpointDescription(
        path: "/v1/hooks/{id}", method: "delete", operationId: "deleteHook",
        summary: "Delete a webhook; its undelivered events become dead letters (geoq hooks delete).",
        parameters: [
            .init(
                name: "id", in: "path", required: true, description: "The hook's id, as /v1/hooks lists it.",
                schema: .string(pattern: "^[0-9]+$"), example: "1")
        ],
        answer: "no content", mediaTypes: [], problemStatuses: [404], successStatus: 204)

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
                name: "device", required: false, description: "Only the events of this device (of the caller's tenant).",
                schema: .string, example: "car-1"),
        ],
        answer: "events: sequence, device, layer, kind, event (its JSON); next: the since of the next call",
        problemStatuses: [400, 404])

    static let trackingEndpoints = [hooks, addHook, deleteHook, events]
}
