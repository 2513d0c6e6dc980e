/// The Web Push endpoints: the key browsers subscribe with, the subscriptions of a tenant's
/// devices, and the tickets bought whose reminders they get. They answer when the service keeps
/// a VAPID key in its store (`geoq push keys`); otherwise 503 says so.
extension EndpointDescription {
    public static let pushKey = EndpointDescription(
        path: "/v1/push/key", operationId: "pushKey",
        summary: "The service's VAPID public key, which a browser passes as applicationServerKey to subscribe.",
        parameters: [], answer: "publicKey: the uncompressed P-256 point, base64url (RFC 8292)",
        problemStatuses: [503], isOpen: true)

    static let subscriptionID = OpenAPIDocument.Parameter(
        name: "id", in: "path", required: true, description: "The subscription's id, as the list gives it.",
        schema: .string(pattern: "^[0-9]+$"), example: "1")

    public static let addPushSubscription = EndpointDescription(
        path: "/v1/push/subscriptions", method: "post", operationId: "addPushSubscription",
        summary: "Keep a browser's push subscription for a device: its ticket reminders and its topics' news reach it.",
        parameters: [],
        requestBody: Body(
            description: "subscription: the browser's PushSubscription as toJSON() gives it (endpoint, an http(s) URL "
                + "of its push service, reached only where the operator's destination rules allow; expirationTime; "
                + "keys.p256dh, an uncompressed P-256 point, and keys.auth, 16 bytes, both base64url). device: the "
                + "device it belongs to (a device token's own when left out; another is refused). topics: up to 16 "
                + "names of 1 to 32 letters, digits, - or _ (geoq push send --topic). The same endpoint posted again "
                + "replaces its device, keys and topics; at most 10 per device.",
            examples: [
                (
                    "application/json",
                    "{\"subscription\": {\"endpoint\": \"https://fcm.googleapis.com/fcm/send/c1:APA91b\", "
                        + "\"expirationTime\": null, \"keys\": {\"p256dh\": \"BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_"
                        + "0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM\", \"auth\": \"tBHItJI5svbpez7KI4CCXg\"}}, "
                        + "\"device\": \"car-1\", \"topics\": [\"news\"]}"
                )
            ],
            schemas: [
                "application/json": OpenAPIDocument.Schema(
                    type: "object",
                    properties: [
                        "subscription": OpenAPIDocument.Schema(type: "object"), "device": .string,
                        "topics": OpenAPIDocument.Schema(type: "array", items: [.string]),
                    ], required: ["subscription"])
            ]),
        answer: "the subscription: id, device, endpoint, topics, created", problemStatuses: [400, 403, 415, 422, 503],
        successStatus: 201, scope: "track")

    public static let pushSubscriptions = EndpointDescription(
        path: "/v1/push/subscriptions", operationId: "pushSubscriptions",
        summary: "The live push subscriptions of the caller's tenant (a device token: of its device).",
        parameters: [], answer: "subscriptions: id, device, endpoint, topics, created", problemStatuses: [503],
        scope: "track")

    public static let deletePushSubscription = EndpointDescription(
        path: "/v1/push/subscriptions/{id}", method: "delete", operationId: "deletePushSubscription",
        summary: "End a push subscription; its messages not yet sent are dropped.", parameters: [subscriptionID],
        answer: "no content", mediaTypes: [], problemStatuses: [404, 503], successStatus: 204, scope: "track")

    public static let buyTicket = EndpointDescription(
        path: "/v1/park", method: "post", operationId: "buyTicket",
        summary: "A ticket bought: the park answer for it, and its reminders sent to the device's push subscriptions.",
        parameters: park.parameters + [
            .init(
                name: "device", required: false,
                description: "The device whose subscriptions get the reminders (a device token's own when left out).",
                schema: .string, example: "car-1")
        ],
        answer: "what GET /v1/park answers for the same query, and push: ticket (its id: posted again, nothing more is "
            + "scheduled), device, subscriptions, messages (reminders times subscriptions)",
        problemStatuses: [400, 403, 404, 422, 503], successStatus: 201, scope: "track")

    static let pushEndpoints = [pushKey, addPushSubscription, pushSubscriptions, deletePushSubscription, buyTicket]
}
