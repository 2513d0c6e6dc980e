import Crypto
import Foundation
import GeoqAPI
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqParking
import GeoqPush
import GeoqSchedule
import GeoqStore
import GeoqTariffs
import Hummingbird

/// Web Push, the phone's reminders and news:
///
/// - `GET /v1/push/key` (open: a public key, which every browser needs to subscribe): the
///   service's VAPID public key, as `applicationServerKey` takes it.
/// - `POST /v1/push/subscriptions` (scope `track`, or a device token for its own device): a
///   browser's `PushSubscription` for a device, with its topics; `GET` lists the caller's live
///   ones (a device token: its device's), `DELETE /v1/push/subscriptions/{id}` ends one.
/// - `POST /v1/park` (scope `track`, or a device token for its own device): a ticket bought. It
///   answers what `GET /v1/park` answers for the same query, and puts each of the ticket's
///   reminders in the push outbox for every live subscription of `device`, due at the
///   reminder's time; the same ticket posted again schedules nothing more.
///
/// Each within the caller's tenant: another tenant's subscription is as unknown as one never made.
enum PushRoutes {
    static func register(on router: Router<ServiceRequestContext>, tracking: Tracking, state: ServiceState) {
        router.get("/v1/push/key") { _, _ -> Response in
            let push = try setUp(tracking)
            return try HookRoutes.json(["publicKey": try push.keys.current()?.key.publicKey ?? ""])
        }
        router.post("/v1/push/subscriptions") { request, context -> Response in
            let principal = try context.principal(holding: .track)
            let push = try setUp(tracking)
            let body = try await request.body.collect(upTo: 16_384)
            guard let asked = try? JSONDecoder().decode(PushSubscriptionRequest.self, from: Data(buffer: body)) else {
                throw HookRoutes.badRequest(
                    "the body must be a JSON object {\"subscription\": PushSubscription, \"device\", \"topics\"?}")
            }
            if let problem = asked.problem() { throw HookRoutes.badRequest("\(problem.field): \(problem.message)") }
            let device = try device(asked.device, of: principal, maxLength: tracking.limits.maxDeviceIDLength)
            let tables = try push.store.pushTables()
            let endpoint = asked.subscription?.endpoint ?? ""
            let held = try tables.pushSubscriptions(tenant: principal.tenant, device: device)
            if held.count >= maxPerDevice, !held.contains(where: { $0.endpoint == endpoint }) {
                throw Problem.overLimit(
                    "subscription",
                    LocalizedText(
                        es: "el dispositivo ya tiene el máximo de \(maxPerDevice) suscripciones",
                        eu: "gailuak \(maxPerDevice) harpidetzako muga du jada",
                        en: "the device has the most subscriptions allowed (\(maxPerDevice))"))
            }
            // A tenant keeps at most as many live subscriptions as it may have devices.
            let most = tracking.limits.maxDevicesPerTenant
            if !held.contains(where: { $0.endpoint == endpoint }),
                try tables.pushSubscriptionCount(tenant: principal.tenant) >= most
            {
                throw Problem.overLimit(
                    "subscription",
                    LocalizedText(
                        es: "la organización ya tiene el máximo de \(most) suscripciones",
                        eu: "erakundeak \(most) harpidetzako muga du jada",
                        en: "the tenant has the most subscriptions allowed (\(most))"))
            }
            let row = try tables.putPushSubscription(
                tenant: principal.tenant, device: device, endpoint: endpoint,
                p256dh: asked.subscription?.keys?.p256dh ?? "", auth: asked.subscription?.keys?.auth ?? "",
                topics: Array(Set(asked.topics ?? [])).sorted(), now: tracking.now())
            return try HookRoutes.json(subscriptionObject(row), status: .created)
        }
        router.get("/v1/push/subscriptions") { _, context -> Response in
            let principal = try context.principal(holding: .track)
            let push = try setUp(tracking)
            let rows = try push.store.pushTables().pushSubscriptions(tenant: principal.tenant, device: principal.device)
            return try HookRoutes.json(["subscriptions": rows.map(subscriptionObject)])
        }
        router.delete("/v1/push/subscriptions/:id") { _, context -> Response in
            let principal = try context.principal(holding: .track)
            let push = try setUp(tracking)
            let text = context.parameters.get("id") ?? ""
            guard let id = Int64(text),
                try push.store.pushTables().endPushSubscription(
                    tenant: principal.tenant, device: principal.device, id: id, reason: "deleted by its owner",
                    now: tracking.now())
            else { throw Problem.unknown("subscription", id: text) }
            return Response(status: .noContent)
        }
        router.post("/v1/park") { request, context -> Response in
            let principal = try context.principal(holding: .track)
            let push = try setUp(tracking)
            guard let data = state.data else { throw Problem.notReady("the layers are still loading") }
            var query = EndpointRequest(request).parameters
            let device = try device(
                try query.value("device"), of: principal, maxLength: tracking.limits.maxDeviceIDLength)
            query = QueryParameters(query.pairs.filter { $0.name != "device" })
            guard try query.value("minutes") != nil || query.value("euros") != nil else {
                throw Problem.missing("minutes", "a ticket bought needs minutes= or euros=")
            }
            let now = tracking.now()
            let answer = try ParkEndpoint.answer(
                query, data: data, acceptLanguage: request.headers[.acceptLanguage], now: now)
            let scheduled = try schedule(answer, device: device, tenant: principal.tenant, push: push)
            var object =
                try JSONSerialization.jsonObject(with: Responses.encode(answer) ?? Data()) as? [String: Any] ?? [:]
            object["push"] = [
                "ticket": scheduled.ticket, "device": device, "subscriptions": scheduled.subscriptions,
                "messages": scheduled.messages,
            ]
            return try HookRoutes.json(object, status: .created)
        }
    }

    /// At most this many live subscriptions per device (a browser that subscribes again at the
    /// same endpoint replaces its own).
    static let maxPerDevice = 10

    /// The service's push once its store has a key, or the problem saying it is not set up.
    static func setUp(_ tracking: Tracking) throws -> WebPush {
        guard let push = tracking.push, try push.keys.current() != nil else {
            throw Problem(
                type: "/problems/push-not-set-up", title: "Push is not set up", status: 503,
                detail: "this service's store has no VAPID key: run `geoq push keys` on it")
        }
        return push
    }

    /// The device a request is about: a device token's own (another is refused), else the
    /// `device` given, which a key must give.
    static func device(_ given: String?, of principal: Principal, maxLength: Int) throws -> String {
        if let own = principal.device {
            if let given, given != own { throw Problem.otherDevice(own) }
            return own
        }
        guard let given, !given.isEmpty else { throw Problem.missing("device", "device is required with a key") }
        guard given.utf8.count <= maxLength else {
            throw Problem.invalid("device", "device must be at most \(maxLength) bytes")
        }
        return given
    }

    static func subscriptionObject(_ row: PushSubscriptionRow) -> [String: Any] {
        [
            "id": row.id, "device": row.device, "endpoint": row.endpoint, "topics": row.topics,
            "created": ISO8601DateFormatter().string(from: row.created),
        ]
    }

    /// Puts the reminders of `answer`'s ticket in the outbox for `device`'s subscriptions.
    static func schedule(_ answer: ParkAnswer, device: String, tenant: String, push: WebPush) throws -> (
        ticket: String, subscriptions: Int, messages: Int
    ) {
        guard let ticket = answer.ticket else { return ("", 0, 0) }
        // The same ticket (device, start, end, place) has the same id: posted twice, scheduled once.
        let identity = [tenant, device, ticket.start, ticket.end, answer.zone?.id ?? "", answer.city].joined(
            separator: "\u{1F}")
        let id = SHA256.hash(data: Data(identity.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        let tables = try push.store.pushTables()
        let subscriptions = try tables.pushSubscriptions(tenant: tenant, device: device)
        let language = Language(rawValue: answer.language) ?? .es
        let dates = ISO8601DateFormatter()
        var messages: [PushMessageRow] = []
        for reminder in answer.reminders {
            guard let due = dates.date(from: reminder.at) else { continue }
            let payload = PushPayload(
                title: Messages.reminderAlarm(minutesBefore: reminder.minutesBefore, language),
                body: [answer.zone?.name, answer.sector.name, ticket.end].compactMap { $0 }.joined(separator: " · "),
                url: "/?lat=\(answer.query.latitude)&lon=\(answer.query.longitude)"
                    + (answer.zone.map { "&zone=\($0.id)" } ?? "") + "&ticket=\(id)&lang=\(answer.language)",
                tag: "ticket-\(id)")
            for subscription in subscriptions {
                messages.append(
                    PushMessageRow(
                        subscription: subscription.id,
                        idempotencyKey: "ticket-\(id)-\(reminder.minutesBefore)-\(subscription.id)", body: payload.json,
                        topic: "t\(id)r\(reminder.minutesBefore)", due: due.addingTimeInterval(-push.clockOffset)))
            }
        }
        let added = try tables.enqueuePush(messages)
        if added > 0 { push.delivery.wake() }
        return (id, subscriptions.count, messages.count)
    }
}

/// The service's Web Push: its store, the delivery of the push outbox and the key browsers
/// subscribe with (read from the store when first needed).
public struct WebPush: Sendable {
    public let store: TrackingStore
    public let delivery: PushDelivery
    public let keys: PushKeySource
    /// Seconds the service's clock is ahead of the system's (an injected clock, for tests): a
    /// reminder computed on the service's clock falls due this much earlier on the system's.
    public let clockOffset: TimeInterval

    public init(store: TrackingStore, delivery: PushDelivery, keys: PushKeySource, clockOffset: TimeInterval = 0) {
        self.store = store
        self.delivery = delivery
        self.keys = keys
        self.clockOffset = clockOffset
    }
}
