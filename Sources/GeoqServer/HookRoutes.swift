import Foundation
import GeoqAPI
import GeoqHooks
import GeoqLayers
import GeoqStore
import Hummingbird

/// `POST/GET /v1/hooks`, `DELETE /v1/hooks/{id}` and `GET /v1/events?since=`, over the tracking
/// store. Routed through Hummingbird (they read or write the store, not the snapshot).
enum HookRoutes {
    static func register(
        on router: Router<BasicRequestContext>, store: TrackingStore, state: ServiceState, delivery: HookDelivery?
    ) {
        router.post("/v1/hooks") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 65_536)
            guard let asked = try? JSONDecoder().decode(HookRequest.self, from: Data(buffer: body)) else {
                throw badRequest("the body must be a JSON object {\"url\", \"layer\"?, \"events\"?}")
            }
            let layers = Set(state.data?.layers.map(\.name) ?? [])
            if let problem = asked.problem(layers: layers) { throw badRequest("\(problem.field): \(problem.message)") }
            let hook = try store.addHook(url: asked.url, layer: asked.layer, events: asked.events)
            delivery?.wake()
            return try json(hookObject(hook), status: .created)
        }
        router.get("/v1/hooks") { _, _ -> Response in
            try json(["hooks": try store.hooks().map(hookObject)])
        }
        router.delete("/v1/hooks/:id") { _, context -> Response in
            let text = context.parameters.get("id") ?? ""
            guard let id = Int64(text), try store.deleteHook(id: id) else {
                throw Problem(
                    type: "/problems/unknown-hook", title: "Unknown hook", status: 404,
                    detail: "no hook with id \"\(text)\"")
            }
            return Response(status: .noContent)
        }
        router.get("/v1/events") { request, _ -> Response in
            // Read as the document describes it: each error names its parameter.
            let query = EndpointRequest(request).parameters
            try query.allowOnly(EndpointDescription.events.parameterNames)
            let since = Int64(try query.integer("since", default: 0, in: 0...Int.max))
            let limit = try query.integer("limit", default: 100, in: 1...1000)
            let records = try store.events(since: since, limit: limit)
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

    static func hookObject(_ hook: Hook) -> [String: Any] {
        var object: [String: Any] = [
            "id": hook.id, "url": hook.url, "created": ISO8601DateFormatter().string(from: hook.created),
        ]
        if let layer = hook.layer { object["layer"] = layer }
        if let events = hook.events { object["events"] = events }
        return object
    }

    static func badRequest(_ detail: String) -> Problem {
        Problem(type: "/problems/bad-hook-request", title: "Bad request", status: 400, detail: detail)
    }

    static func json(_ object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Responses.body(data, status: status, contentType: "application/json").response
    }
}
