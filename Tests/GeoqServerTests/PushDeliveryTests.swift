import Crypto
import Foundation
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqPostGIS
import GeoqPush
import GeoqStore
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The push outbox sent to a push service stand-in on loopback: each message encrypted so that
/// the reference decrypter (`http_ece`) reads it with the browser's keys, signed so that the
/// reference verifier (`py_vapid`) accepts it for the push service's origin; a reminder not
/// before its time; 404 and 410 end the subscription; a refused destination sends nothing.
@Suite(.serialized) struct PushDeliveryTests {
    /// What the stand-in received: each request's path, headers, body and when it came.
    struct Received: Sendable {
        var path: String
        var headers: [String: String]
        var body: Data
        var at: Date
    }

    /// A push service: `/push/ok/...` answers 201 Created, `/push/gone/...` 410 Gone,
    /// `/push/unknown/...` 404, `/push/busy/...` 503 twice with Retry-After: 0, then 201.
    final class PushService: Sendable {
        let received = Mutex<[Received]>([])

        func requests(_ prefix: String) -> [Received] { received.withLock { $0.filter { $0.path.hasPrefix(prefix) } } }

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("/push/**") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 16)
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.canonicalName] = field.value }
                let path = request.uri.path
                let count = self.received.withLock { r in
                    r.append(Received(path: path, headers: headers, body: Data(buffer: body), at: Date()))
                    return r.filter { $0.path == path }.count
                }
                if path.hasPrefix("/push/gone") { return Response(status: .gone) }
                if path.hasPrefix("/push/unknown") { return Response(status: .notFound) }
                if path.hasPrefix("/push/busy"), count <= 2 {
                    return Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
                }
                return Response(status: .created)
            }
            return router
        }
    }

    /// A browser's subscription keys, made as a browser makes them.
    struct Browser {
        let privateKey = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        var p256dh: String { Base64URL.encode(privateKey.publicKey.x963Representation) }
    }

    static let fast = DeliveryOptions(
        destinations: .loopbackReceivers, timeout: .seconds(5), backoffBase: .milliseconds(20),
        backoffCap: .milliseconds(100), maxAttempts: 5, sweepInterval: .milliseconds(200))

    func temporaryStore(_ backend: AccessTests.Backend = .geoPackage) throws -> TrackingStore {
        try AccessTests.Store(backend).tracking
    }

    func subscribe(_ store: TrackingStore, _ browser: Browser, endpoint: String, device: String = "car-1") throws
        -> PushSubscriptionRow
    {
        try store.pushTables().putPushSubscription(
            tenant: "acme", device: device, endpoint: endpoint, p256dh: browser.p256dh,
            auth: Base64URL.encode(browser.auth), topics: ["news"], now: Date())
    }

    func message(_ subscription: PushSubscriptionRow, _ key: String, due: Date = Date(), topic: String? = nil)
        -> PushMessageRow
    {
        let payload = PushPayload(title: "Ticket", body: "ends in 10 min", url: "/?ticket=\(key)", tag: key)
        return PushMessageRow(
            subscription: subscription.id, idempotencyKey: key, body: payload.json, topic: topic, due: due)
    }

    /// Waits (without a time assertion) until `done` holds or 20 s pass.
    func eventually(_ done: () throws -> Bool) async throws {
        for _ in 0..<400 where try !done() { try await Task.sleep(for: .milliseconds(50)) }
    }

    func running(_ delivery: PushDelivery, _ body: () async throws -> Void) async throws {
        let task = Task { await delivery.run() }
        defer { task.cancel() }
        try await body()
        task.cancel()
        await task.value
    }

    @Test(arguments: AccessTests.Backend.available)
    func aMessageArrivesEncryptedForTheBrowserAndSignedForThePushService(_ backend: AccessTests.Backend) async throws {
        let service = PushService()
        let store = try temporaryStore(backend)
        let key = VAPIDKey()
        let browser = Browser()
        try await Application(router: service.router).test(.live) { client in
            let origin = "http://127.0.0.1:\(client.port!)"
            let subscription = try subscribe(store, browser, endpoint: "\(origin)/push/ok/abc")
            let delivery = PushDelivery(store: store, key: key, contact: "mailto:ops@geoq.example", options: Self.fast)
            try await running(delivery) {
                try store.pushTables().enqueuePush([message(subscription, "ticket-1-10", topic: "t1r10")])
                delivery.wake()
                try await eventually { try store.pushTables().pushStats().delivered == 1 }
            }
            let got = try #require(service.requests("/push/ok").first)
            #expect(service.requests("/push/ok").count == 1)
            #expect(got.headers["content-encoding"] == "aes128gcm")
            #expect(got.headers["ttl"].flatMap(Int.init).map { $0 > 0 } == true)
            #expect(got.headers["topic"] == "t1r10")
            let plain = try WebPushReference.decrypt([
                .init(body: got.body, privateKey: browser.privateKey.rawRepresentation, auth: browser.auth)
            ])
            let payload = try JSONDecoder().decode(PushPayload.self, from: try #require(plain.first ?? nil))
            #expect(
                payload
                    == PushPayload(
                        title: "Ticket", body: "ends in 10 min", url: "/?ticket=ticket-1-10", tag: "ticket-1-10"))
            let verified = try WebPushReference.verify([try #require(got.headers["authorization"])])
            #expect(verified.first?.verified == true)
            #expect(verified.first?.claims["aud"] as? String == origin)
            #expect(verified.first?.claims["sub"] as? String == "mailto:ops@geoq.example")
            #expect(delivery.metrics.count(.delivered) == 1)
        }
    }

    @Test func aReminderIsSentAtItsTimeNotBefore() async throws {
        let service = PushService()
        let store = try temporaryStore()
        try await Application(router: service.router).test(.live) { client in
            let subscription = try subscribe(store, Browser(), endpoint: "http://127.0.0.1:\(client.port!)/push/ok/r")
            let delivery = PushDelivery(store: store, key: VAPIDKey(), contact: nil, options: Self.fast)
            let due = Date().addingTimeInterval(2)
            try await running(delivery) {
                try store.pushTables().enqueuePush([message(subscription, "ticket-2-5", due: due)])
                delivery.wake()
                try await eventually { try store.pushTables().pushStats().delivered == 1 }
            }
            let got = try #require(service.requests("/push/ok/r").first)
            #expect(got.at >= due)
        }
    }

    @Test(arguments: AccessTests.Backend.available)
    func goneAndUnknownEndTheSubscriptionAndItsPendingMessages(_ backend: AccessTests.Backend) async throws {
        let service = PushService()
        let store = try temporaryStore(backend)
        try await Application(router: service.router).test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            let gone = try subscribe(store, Browser(), endpoint: "\(base)/push/gone/1", device: "car-1")
            let unknown = try subscribe(store, Browser(), endpoint: "\(base)/push/unknown/2", device: "car-2")
            let delivery = PushDelivery(store: store, key: VAPIDKey(), contact: nil, options: Self.fast)
            try await running(delivery) {
                try store.pushTables().enqueuePush([
                    message(gone, "a"), message(unknown, "b"),
                    // Later ones of the same subscriptions: never sent once it has ended.
                    message(gone, "c", due: Date().addingTimeInterval(1)),
                ])
                delivery.wake()
                try await eventually { try store.pushTables().pushStats().dead == 3 }
            }
            #expect(try store.pushTables().pushSubscriptions(tenant: "acme").isEmpty)
            #expect(service.requests("/push/gone").count == 1)
            #expect(service.requests("/push/unknown").count == 1)
            #expect(delivery.metrics.count(.ended) == 2)
        }
    }

    @Test func aBusyPushServiceIsAskedAgainWhenItSays() async throws {
        let service = PushService()
        let store = try temporaryStore()
        try await Application(router: service.router).test(.live) { client in
            let subscription = try subscribe(store, Browser(), endpoint: "http://127.0.0.1:\(client.port!)/push/busy/1")
            let delivery = PushDelivery(store: store, key: VAPIDKey(), contact: nil, options: Self.fast)
            try await running(delivery) {
                try store.pushTables().enqueuePush([message(subscription, "n")])
                delivery.wake()
                try await eventually { try store.pushTables().pushStats().delivered == 1 }
            }
            #expect(service.requests("/push/busy").count == 3)
            #expect(delivery.metrics.count(.retried) == 2)
        }
    }

    @Test func aDestinationTheRulesRefuseGetsNothing() async throws {
        let service = PushService()
        let store = try temporaryStore()
        try await Application(router: service.router).test(.live) { client in
            let subscription = try subscribe(store, Browser(), endpoint: "http://127.0.0.1:\(client.port!)/push/ok/x")
            // The default rules: https to global addresses only.
            let delivery = PushDelivery(store: store, key: VAPIDKey(), contact: nil, options: DeliveryOptions())
            try await running(delivery) {
                try store.pushTables().enqueuePush([message(subscription, "refused")])
                delivery.wake()
                try await eventually { try store.pushTables().pushStats().dead == 1 }
            }
            #expect(service.requests("/push").isEmpty)
            #expect(try store.pushTables().pushStats().dead == 1)
        }
    }

    @Test(arguments: AccessTests.Backend.available)
    func theSameMessageScheduledTwiceIsOne(_ backend: AccessTests.Backend) throws {
        let store = try temporaryStore(backend)
        let subscription = try subscribe(store, Browser(), endpoint: "https://push.example.net/1")
        #expect(try store.pushTables().enqueuePush([message(subscription, "ticket-9-10")]) == 1)
        #expect(try store.pushTables().enqueuePush([message(subscription, "ticket-9-10")]) == 0)
        #expect(try store.pushTables().pushStats().pending == 1)
        #expect(try store.pushTables().pushSubscriptionCount(tenant: "acme") == 1)
        #expect(try store.pushTables().pushSubscriptionCount(tenant: "other") == 0)
    }

    /// Two replicas on one PostgreSQL store, each with its own delivery: every message is
    /// claimed by one of them and sent once.
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
    func twoReplicasSendEachMessageOnce() async throws {
        let service = PushService()
        let address = try #require(TestPostgres.address(schema: "push"))
        let shared = try StoreAddress(parsing: address, sharedBackend: PostGISBackend.self)
        let (one, two) = (TrackingStore(address: shared), TrackingStore(address: shared))
        try await Application(router: service.router).test(.live) { client in
            let subscriptions = try (0..<5).map { n in
                try subscribe(
                    one, Browser(), endpoint: "http://127.0.0.1:\(client.port!)/push/ok/\(n)", device: "car-\(n)")
            }
            let key = VAPIDKey()
            let deliveries = [one, two].map {
                PushDelivery(store: $0, key: key, contact: nil, options: Self.fast)
            }
            let tasks = deliveries.map { delivery in Task { await delivery.run() } }
            defer { for task in tasks { task.cancel() } }
            try one.pushTables().enqueuePush(
                (0..<50).map { n in message(subscriptions[n % 5], "m\(n)", topic: "m\(n)") })
            for delivery in deliveries { delivery.wake() }
            try await eventually { try one.pushTables().pushStats().delivered == 50 }
            for task in tasks { task.cancel() }
            let topics = service.requests("/push/ok").compactMap { $0.headers["topic"] }
            #expect(topics.count == 50)
            #expect(Set(topics) == Set((0..<50).map { "m\($0)" }))
            #expect(deliveries.map { $0.metrics.count(.delivered) }.reduce(0, +) == 50)
        }
    }
}
