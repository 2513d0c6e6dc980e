import Foundation
import GeoqAPI
import GeoqHooks
import GeoqLayers
import GeoqSchedule
import GeoqStore
import Hummingbird

/// `POST/GET /v1/hooks`, `POST /v1/hooks/{id}/rotate`, `DELETE /v1/hooks/{id}` (scope `hooks`) and `GET /v1/events?since=`
/// (scope `events`), over the tracking store, each within the caller's tenant: another
/// tenant's hook is as unknown as one never made. Routed through Hummingbird (they read or
/// write the store, not the snapshot).
enum HookRoutes {
    static func register(on router: Router<ServiceRequestContext>, tracking: Tracking, state: ServiceState) {
        let store = tracking.store
        router.post("/v1/hooks") { request, context -> Response in
            let tenant = try context.principal(holding: .hooks).tenant
            let body = try await request.body.collect(upTo: 65_536)
            guard let asked = try? JSONDecoder().decode(HookRequest.self, from: Data(buffer: body)) else {
                throw badRequest("the body must be a JSON object {\"url\", \"layer\"?, \"events\"?, \"ordered\"?}")
            }
            let layers = Set(state.data?.layers.map(\.name) ?? [])
            if let problem = asked.problem(layers: layers) { throw badRequest("\(problem.field): \(problem.message)") }
            let key = request.headers[.init("Idempotency-Key")!]
            if let key, !(1...255).contains(key.utf8.count) {
                throw badRequest("Idempotency-Key must be 1 to 255 characters")
            }
            let existing = try store.hooks(tenant: tenant)
            // A retry of a request that made a hook gets it back, whatever changed since (the cap).
            if let key, let earlier = existing.first(where: { $0.idempotencyKey == key }) {
                return try replay(earlier, of: asked)
            }
            let most = tracking.limits.maxHooksPerTenant
            if existing.count >= most {
                throw Problem.overLimit(
                    "url",
                    LocalizedText(
                        es: "la organización ya tiene el máximo de \(most) webhooks",
                        eu: "erakundeak \(most) webhook-eko muga du jada",
                        en: "the tenant has the most hooks allowed (\(most))"))
            }
            switch await tracking.delivery.destination(of: asked.url) {
            case .reachable: break
            case .refused(let rule): throw destinationRefused(rule)
            case .unresolved(let why): throw destinationRefused(why)
            }
            let hook: Hook
            if let key {
                let added = try store.addHook(
                    tenant: tenant, url: asked.url, layer: asked.layer, events: asked.events, idempotencyKey: key,
                    ordered: asked.ordered ?? false)
                // Two retries at once: the one that lost the race answers as a replay.
                if added.replayed { return try replay(added.hook, of: asked) }
                hook = added.hook
            } else {
                hook = try store.addHook(
                    tenant: tenant, url: asked.url, layer: asked.layer, events: asked.events,
                    ordered: asked.ordered ?? false)
            }
            tracking.delivery.wake()
            // The secret is shown here and at a rotation only (and to a retry of the request that
            // made it, which may never have seen the first answer): listing never shows it.
            var object = hookObject(hook)
            object["secret"] = hook.secret
            return try json(object, status: .created)
        }
        router.post("/v1/hooks/:id/rotate") { request, context -> Response in
            let tenant = try context.principal(holding: .hooks).tenant
            let text = context.parameters.get("id") ?? ""
            let query = EndpointRequest(request).parameters
            try query.allowOnly(EndpointDescription.rotateHookSecret.parameterNames)
            let overlap = try query.integer("overlap", default: 86_400, in: 0...(7 * 86_400))
            guard let id = Int64(text),
                let hook = try store.rotateHookSecret(tenant: tenant, id: id, overlap: .seconds(overlap))
            else { throw Problem.unknown("hook", id: text) }
            return try json([
                "id": hook.id, "secret": hook.secret,
                "previousSecretExpires": ISO8601DateFormatter().string(from: hook.previousSecretExpires ?? Date()),
            ])
        }
        router.get("/v1/hooks") { _, context -> Response in
            try json(["hooks": try store.hooks(tenant: try context.principal(holding: .hooks).tenant).map(hookObject)])
        }
        router.delete("/v1/hooks/:id") { _, context -> Response in
            let tenant = try context.principal(holding: .hooks).tenant
            let text = context.parameters.get("id") ?? ""
            guard let id = Int64(text), try store.deleteHook(tenant: tenant, id: id) else {
                throw Problem.unknown("hook", id: text)
            }
            return Response(status: .noContent)
        }
        router.get("/v1/events") { request, context -> Response in
            let tenant = try context.principal(holding: .events).tenant
            // Read as the document describes it: each error names its parameter.
            let query = EndpointRequest(request).parameters
            try query.allowOnly(EndpointDescription.events.parameterNames)
            let since = Int64(try query.integer("since", default: 0, in: 0...Int.max))
            let limit = try query.integer("limit", default: 100, in: 1...1000)
            let device = try query.value("device")
            if device?.isEmpty == true { throw Problem.invalid("device", "device must name a device (1 to 128 bytes)") }
            let records = try store.events(tenant: tenant, device: device, since: since, limit: limit)
            let events: [[String: Any]] = records.map { record in
                [
                    "sequence": record.sequence, "device": record.event.device, "layer": record.event.layer,
                    "kind": record.event.kind,
                    "event": (try? JSONSerialization.jsonObject(with: record.event.body)) ?? NSNull(),
                ]
            }
            return try json(["events": events, "next": records.last?.sequence ?? since])
        }
    }

    /// The answer to a retry of the request that made `hook` (its secret included: the first
    /// answer may never have arrived), or 422 when the key came with another request.
    static func replay(_ hook: Hook, of asked: HookRequest) throws -> Response {
        guard hook.url == asked.url, hook.layer == asked.layer, hook.events == asked.events,
            hook.ordered == (asked.ordered ?? false)
        else {
            throw Problem(
                type: "/problems/idempotency-key-reused", title: "Idempotency-Key reused", status: 422,
                detail: "this Idempotency-Key made hook \(hook.id) for another request; use a new key")
        }
        var object = hookObject(hook)
        object["secret"] = hook.secret
        var response = try json(object, status: .ok)
        response.headers[.init("Idempotent-Replayed")!] = "true"
        return response
    }

    static func hookObject(_ hook: Hook) -> [String: Any] {
        var object: [String: Any] = [
            "id": hook.id, "url": hook.url, "created": ISO8601DateFormatter().string(from: hook.created),
        ]
        if let layer = hook.layer { object["layer"] = layer }
        if let events = hook.events { object["events"] = events }
        if let disabled = hook.disabled { object["disabled"] = ISO8601DateFormatter().string(from: disabled) }
        object["ordered"] = hook.ordered
        return object
    }

    /// A receiver the operator's rules do not let hooks reach (422): the rule, in the detail.
    static func destinationRefused(_ rule: String) -> Problem {
        Problem(
            type: "/problems/hook-destination-refused", title: "Hook destination refused", status: 422,
            detail: "url: \(rule)")
    }

    static func badRequest(_ detail: String) -> Problem {
        Problem(type: "/problems/bad-hook-request", title: "Bad request", status: 400, detail: detail)
    }

    static func json(_ object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Responses.body(data, status: status, contentType: "application/json").response
    }
}
