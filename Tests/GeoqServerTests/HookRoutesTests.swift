import Foundation
import GeoqLayers
import GeoqServer
import GeoqStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The hooks and events endpoints over a tracking store of their own, each call made as the
/// tenant's key, as a stranger (no key), as a key without the scope, and as another tenant.
@Suite struct HookRoutesTests {
    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func hooksAreAddedListedAndDeletedAndEventsPulledInOrder() async throws {
        let fixture = TrackingFixture()
        let store = fixture.store
        let acme = try fixture.key("acme", [.hooks, .events])
        let other = try fixture.key("other", [.hooks, .events])
        let trackOnly = try fixture.key("acme", [.track])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        try await app.test(.router) { client in
            let body = ByteBuffer(string: #"{"url":"http://127.0.0.1:9/h","events":["parked","left"]}"#)
            // A stranger, a key without the scope: nothing is made.
            try await client.execute(
                uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(nil, TrackingFixture.json), body: body
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
            try await client.execute(
                uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(trackOnly, TrackingFixture.json),
                body: body
            ) { #expect($0.status == .forbidden) }
            #expect(try store.hooks(tenant: nil).isEmpty)

            try await client.execute(
                uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(acme, TrackingFixture.json), body: body
            ) { response in
                #expect(response.status == .created)
                let object = try Self.object(response)
                #expect(object["id"] as? Int == 1)
                #expect(object["events"] as? [String] == ["parked", "left"])
                // The signing secret, shown this once: the one the store signs with.
                #expect(object["secret"] as? String == (try store.hooks(tenant: "acme").first?.secret))
            }
            #expect(try store.hooks(tenant: "acme").map(\.id) == [1])
            for bad in [#"{"url":"ftp://x/h"}"#, #"{"url":"http://x/h","events":["arrive"]}"#, "nope"] {
                try await client.execute(
                    uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(acme, TrackingFixture.json),
                    body: ByteBuffer(string: bad)
                ) { #expect($0.status == .badRequest) }
            }
            try await client.execute(uri: "/v1/hooks", method: .get, headers: TrackingFixture.bearer(acme)) {
                response in
                let hooks = try Self.object(response)["hooks"] as? [[String: Any]]
                #expect(hooks?.map { $0["url"] as? String } == ["http://127.0.0.1:9/h"])
                #expect(hooks?.first?["secret"] == nil)
            }
            // A rotation: a stranger, a key without the scope and another tenant get nothing;
            // the owner gets the new secret, the old one signing beside it for the overlap asked.
            let before = try #require(try store.hooks(tenant: "acme").first?.secret)
            for (credential, status) in [
                (nil, HTTPResponse.Status.unauthorized), (trackOnly, .forbidden), (other, .notFound),
            ] {
                try await client.execute(
                    uri: "/v1/hooks/1/rotate", method: .post, headers: TrackingFixture.bearer(credential)
                ) { #expect($0.status == status) }
            }
            #expect(try store.hooks(tenant: "acme").first?.secret == before)
            try await client.execute(
                uri: "/v1/hooks/1/rotate?overlap=600", method: .post, headers: TrackingFixture.bearer(acme)
            ) { response in
                #expect(response.status == .ok)
                let object = try Self.object(response)
                let hook = try #require(try store.hooks(tenant: "acme").first)
                #expect(object["secret"] as? String == hook.secret && hook.secret != before)
                #expect(hook.previousSecret == before)
                let expires = try #require(hook.previousSecretExpires)
                #expect(abs(expires.timeIntervalSinceNow - 600) < 30)
            }
            try await client.execute(
                uri: "/v1/hooks/1/rotate?overlap=9999999", method: .post, headers: TrackingFixture.bearer(acme)
            ) { #expect($0.status == .badRequest) }
            // Another tenant sees none of it, and cannot delete it (as if it did not exist).
            try await client.execute(uri: "/v1/hooks", method: .get, headers: TrackingFixture.bearer(other)) {
                let hooks = try Self.object($0)["hooks"] as? [Any]
                #expect(hooks?.isEmpty == true)
            }
            try await client.execute(uri: "/v1/hooks", method: .get) { #expect($0.status == .unauthorized) }

            try store.commit(
                tracks: [],
                events: ["enter", "parked", "left"].map {
                    StoredEvent(
                        tenant: "acme", device: "car-1", layer: "pamplona-sectors", kind: $0,
                        body: Data(#"{"event":"\#($0)"}"#.utf8))
                } + [
                    StoredEvent(
                        tenant: "other", device: "car-1", layer: "pamplona-sectors", kind: "enter",
                        body: Data(#"{"event":"enter"}"#.utf8))
                ])
            try await client.execute(
                uri: "/v1/events?since=1&limit=1", method: .get, headers: TrackingFixture.bearer(acme)
            ) { response in
                let object = try Self.object(response)
                let events = try #require(object["events"] as? [[String: Any]])
                #expect(events.map { $0["sequence"] as? Int } == [2])
                #expect((events.first?["event"] as? [String: Any])?["event"] as? String == "parked")
                #expect(object["next"] as? Int == 2)
            }
            // The same device id in the other tenant is another device: its one event only.
            try await client.execute(
                uri: "/v1/events?device=car-1", method: .get, headers: TrackingFixture.bearer(other)
            ) { response in
                let events = try #require(try Self.object(response)["events"] as? [[String: Any]])
                #expect(events.map { $0["sequence"] as? Int } == [4])
            }
            try await client.execute(uri: "/v1/events", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/events", method: .get, headers: TrackingFixture.bearer(trackOnly)) {
                #expect($0.status == .forbidden)
            }
            // The hook gets its tenant's events only.
            #expect(try store.outbox(hook: 1).map(\.sequence) == [2, 3])

            try await client.execute(uri: "/v1/hooks/1", method: .delete, headers: TrackingFixture.bearer(other)) {
                response in
                #expect(response.status == .notFound)
                // The same answer as for a hook that never existed.
                let detail = try Self.object(response)["detail"] as? String
                #expect(detail == "no hook with id \"1\"")
            }
            try await client.execute(uri: "/v1/hooks/7", method: .delete, headers: TrackingFixture.bearer(acme)) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/v1/hooks/1", method: .delete, headers: TrackingFixture.bearer(acme)) {
                #expect($0.status == .noContent)
            }
            #expect(try store.hooks(tenant: nil).isEmpty)
            #expect(try store.outbox(hook: 1).map(\.state) == [.dead, .dead])
        }
    }

    @Test func aTenantHasAtMostItsHooks() async throws {
        let fixture = TrackingFixture(limits: TrackingLimits(maxHooksPerTenant: 2))
        let acme = try fixture.key("acme", [.hooks])
        let other = try fixture.key("other", [.hooks])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        try await app.test(.router) { client in
            for (key, expected) in [
                (acme, HTTPResponse.Status.created), (acme, .created), (acme, .unprocessableContent), (other, .created),
            ] {
                try await client.execute(
                    uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(key, TrackingFixture.json),
                    body: ByteBuffer(string: #"{"url":"http://127.0.0.1:9/h"}"#)
                ) { response in
                    #expect(response.status == expected)
                    if expected == .unprocessableContent {
                        let type = try Self.object(response)["type"] as? String
                        #expect(type == "/problems/over-limit")
                    }
                }
            }
        }
        #expect(try fixture.store.hooks(tenant: "acme").count == 2)
    }
}

/// `POST /v1/hooks` with an Idempotency-Key: a client's retry gets the one hook made (its secret
/// too), the key reused for another request is refused, and another tenant's same key is its own.
@Suite struct HookIdempotencyTests {
    @Test func aRetryWithTheSameKeyMakesOneHook() async throws {
        let fixture = TrackingFixture(limits: TrackingLimits(maxHooksPerTenant: 1))
        let acme = try fixture.key("acme", [.hooks])
        let other = try fixture.key("other", [.hooks])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        try await app.test(.router) { client in
            func post(_ credential: String, _ body: String, key: String) async throws -> (Int, [String: Any], String?) {
                var headers = TrackingFixture.bearer(credential, TrackingFixture.json)
                headers[HTTPField.Name("Idempotency-Key")!] = key
                return try await client.execute(
                    uri: "/v1/hooks", method: .post, headers: headers, body: ByteBuffer(string: body)
                ) { response in
                    let object =
                        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
                    return (Int(response.status.code), object, response.headers[HTTPField.Name("Idempotent-Replayed")!])
                }
            }
            let body = #"{"url":"http://127.0.0.1:9/h"}"#
            let first = try await post(acme, body, key: "retry-1")
            #expect(first.0 == 201 && first.2 == nil)
            // The retry, after the tenant reached its cap of one hook: the same hook, not a refusal.
            let again = try await post(acme, body, key: "retry-1")
            #expect(again.0 == 200 && again.2 == "true")
            #expect(again.1["id"] as? Int == first.1["id"] as? Int)
            #expect(again.1["secret"] as? String == first.1["secret"] as? String)
            #expect(try fixture.store.hooks(tenant: "acme").count == 1)
            #expect(first.1["ordered"] as? Bool == false)
            // The same key with another body: refused, nothing made (asking for order is another body).
            let reused = try await post(acme, #"{"url":"http://127.0.0.1:9/other"}"#, key: "retry-1")
            #expect(reused.0 == 422 && reused.1["type"] as? String == "/problems/idempotency-key-reused")
            let reordered = try await post(acme, #"{"url":"http://127.0.0.1:9/h","ordered":true}"#, key: "retry-1")
            #expect(reordered.0 == 422)
            // Another tenant's same key is its own request; this one asks for each device's order.
            let theirs = try await post(other, #"{"url":"http://127.0.0.1:9/h","ordered":true}"#, key: "retry-1")
            #expect(theirs.0 == 201 && theirs.1["id"] as? Int != first.1["id"] as? Int)
            #expect(theirs.1["ordered"] as? Bool == true)
            #expect(try fixture.store.hooks(tenant: "other").map(\.ordered) == [true])
            #expect(try fixture.store.hooks(tenant: nil).count == 2)
            let tooLong = try await post(acme, body, key: String(repeating: "k", count: 256))
            #expect(tooLong.0 == 400)
        }
    }

    /// Two requests with one key at once through the store: one hook, the other a replay.
    @Test func theStoreDecidesARaceOfTwoRetries() throws {
        let fixture = TrackingFixture()
        let first = try fixture.store.addHook(
            tenant: "acme", url: "http://127.0.0.1:9/h", layer: nil, events: nil, idempotencyKey: "k")
        let second = try fixture.store.addHook(
            tenant: "acme", url: "http://127.0.0.1:9/h", layer: nil, events: nil, idempotencyKey: "k")
        #expect(!first.replayed && second.replayed && second.hook.id == first.hook.id)
        #expect(second.hook.secret == first.hook.secret)
        #expect(try fixture.store.hooks(tenant: "acme").count == 1)
    }
}
