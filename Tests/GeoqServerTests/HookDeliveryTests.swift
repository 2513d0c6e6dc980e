import Foundation
import GeoqHooks
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Webhook delivery against a receiver on loopback: retries keep the idempotency key, a slow
/// endpoint holds up no other, an endpoint that refuses ends in the dead letters, and a new
/// engine on the same store delivers what the stopped one left pending, and an endpoint that is
/// down for a while gets the event once it is back.
@Suite struct HookDeliveryTests {
    /// What the receiver was sent, by path: each request's idempotency key and body.
    final class Receiver: Sendable {
        let received = Mutex<[String: [(key: String, body: String)]]>([:])
        /// Requests to `/flaky` answered 503 before it accepts.
        let flakyFailures: Int

        init(flakyFailures: Int = 3) { self.flakyFailures = flakyFailures }

        func requests(_ path: String) -> [(key: String, body: String)] { received.withLock { $0[path] ?? [] } }

        var router: Router<BasicRequestContext> {
            let router = Router()
            for path in ["/ok", "/flaky", "/slow"] {
                router.post(RouterPath(path)) { request, _ -> Response in
                    let body = try await request.body.collect(upTo: 1 << 20)
                    let count = self.received.withLock { r in
                        r[path, default: []].append(
                            (request.headers[.init("Idempotency-Key")!] ?? "", String(buffer: body)))
                        return r[path]!.count
                    }
                    if path == "/slow" { try await Task.sleep(for: .seconds(3)) }
                    if path == "/flaky" && count <= self.flakyFailures { return Response(status: .serviceUnavailable) }
                    return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "ok")))
                }
            }
            return router
        }
    }

    static let fast = DeliveryOptions(
        destinations: .loopbackReceivers, timeout: .seconds(5), backoffBase: .milliseconds(20),
        backoffCap: .milliseconds(100), maxAttempts: 5,
        sweepInterval: .milliseconds(200))

    func temporaryStore() -> TrackingStore {
        TrackingStore(
            storeFile: FileManager.default.temporaryDirectory
                .appendingPathComponent("geoq-hooks-\(UUID().uuidString)/geoq.gpkg"))
    }

    func event(_ kind: String, device: String = "car-1") -> StoredEvent {
        StoredEvent(
            tenant: defaultTenant, device: device, layer: "pamplona-sectors", kind: kind,
            body: Data(#"{"device":"\#(device)","event":"\#(kind)"}"#.utf8))
    }

    /// Waits (without a time assertion) until `done` holds or 20 s pass.
    func eventually(_ done: () throws -> Bool) async throws {
        for _ in 0..<400 where try !done() { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// Runs `delivery` while `body` runs, then stops it.
    func running(_ delivery: HookDelivery, _ body: () async throws -> Void) async throws {
        let task = Task { await delivery.run() }
        defer { task.cancel() }
        try await body()
        task.cancel()
        await task.value
    }

    @Test func aFlakyEndpointGetsTheEventOnTheFourthTryWithTheSameKey() async throws {
        let receiver = Receiver()
        let store = temporaryStore()
        try await Application(router: receiver.router).test(.live) { client in
            let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/flaky")
            let delivery = HookDelivery(store: store, options: Self.fast)
            try await running(delivery) {
                try store.commit(tracks: [], events: [event("parked")])
                delivery.wake()
                try await eventually { try store.outbox(hook: hook.id).first?.state == .delivered }
            }
            let row = try #require(try store.outbox(hook: hook.id).first)
            #expect(row.state == .delivered)
            #expect(row.attempts == 4)
            let requests = receiver.requests("/flaky")
            #expect(requests.count == 4)
            #expect(Set(requests.map(\.key)) == ["\(hook.id)-1"])
            #expect(requests.last?.body == #"{"device":"car-1","event":"parked"}"#)
            #expect(delivery.metrics.count(.retried) == 3)
            #expect(delivery.metrics.count(.delivered) == 1)
        }
    }

    @Test func aSlowEndpointDelaysNoOther() async throws {
        let receiver = Receiver()
        let store = temporaryStore()
        try await Application(router: receiver.router).test(.live) { client in
            let slow = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/slow")
            let ok = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/ok")
            let options = DeliveryOptions(
                destinations: .loopbackReceivers, timeout: .seconds(1), backoffBase: .seconds(30),
                backoffCap: .seconds(60), maxAttempts: 5,
                sweepInterval: .milliseconds(200))
            let delivery = HookDelivery(store: store, options: options)
            try await running(delivery) {
                for kind in ["enter", "dwell", "parked"] {
                    try store.commit(tracks: [], events: [event(kind)])
                    delivery.wake()
                }
                try await eventually { try store.outbox(hook: ok.id).allSatisfy { $0.state == .delivered } }
                // The slow endpoint's first event timed out and waits for its retry; the others
                // went on to /ok meanwhile.
                try await eventually { try store.outbox(hook: slow.id).first?.attempts == 1 }
            }
            #expect(try store.outbox(hook: ok.id).map(\.state) == [.delivered, .delivered, .delivered])
            // At least once: on a loaded machine an answer can miss the 1 s timeout and be sent
            // again, always under its own key.
            #expect(Set(receiver.requests("/ok").map(\.key)) == ["\(ok.id)-1", "\(ok.id)-2", "\(ok.id)-3"])
            let slowRows = try store.outbox(hook: slow.id)
            #expect(slowRows.allSatisfy { $0.state == .pending })
            #expect(slowRows.first?.lastError?.contains("no answer within") == true)
        }
    }

    @Test func anEndpointThatRefusesEndsInTheDeadLetters() async throws {
        let store = temporaryStore()
        // Port 1 on loopback: nothing listens there, the connection is refused.
        let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:1/down")
        let delivery = HookDelivery(store: store, options: Self.fast)
        try await running(delivery) {
            try store.commit(tracks: [], events: [event("enter")])
            delivery.wake()
            try await eventually { try store.outbox(hook: hook.id).first?.state == .dead }
        }
        let row = try #require(try store.outbox(hook: hook.id).first)
        #expect(row.state == .dead)
        #expect(row.attempts == Self.fast.maxAttempts)
        #expect(delivery.metrics.count(.retried) == Self.fast.maxAttempts - 1)
        #expect(delivery.metrics.count(.dead) == 1)
        let exposition = delivery.metrics.exposition(store: store)
        #expect(exposition.contains("geoq_hook_deliveries_total{result=\"dead\"} 1"))
        #expect(exposition.contains("geoq_hook_lag_seconds 0"))
    }

    @Test func aNewEngineDeliversWhatAStoppedOneLeftPending() async throws {
        let receiver = Receiver()
        let store = temporaryStore()
        try await Application(router: receiver.router).test(.live) { client in
            let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/ok")
            // Committed while no engine runs (as after a crash between commit and delivery).
            try store.commit(tracks: [], events: [event("enter"), event("dwell"), event("parked")])
            #expect(try store.stats().pending == 3)
            #expect(HookMetrics().exposition(store: store).contains("geoq_hook_lag_seconds 0\n") == false)
            let delivery = HookDelivery(store: store, options: Self.fast)
            try await running(delivery) {
                try await eventually { try store.stats().pending == 0 }
            }
            #expect(try store.outbox(hook: hook.id).map(\.state) == [.delivered, .delivered, .delivered])
            #expect(receiver.requests("/ok").map(\.key) == ["\(hook.id)-1", "\(hook.id)-2", "\(hook.id)-3"])
        }
    }

    @Test func anEndpointDownForAWhileGetsTheEventOnceItIsBackWithTheSameKey() async throws {
        let port = try FreePort.next()
        let store = temporaryStore()
        // Retries every 0-150 ms while it is down: many refused tries, well short of the last.
        let options = DeliveryOptions(
            destinations: .loopbackReceivers, timeout: .seconds(5), backoffBase: .milliseconds(50),
            backoffCap: .milliseconds(150), maxAttempts: 1000,
            sweepInterval: .milliseconds(200))
        // Back up, its first answer is a 503 (still warming up), then it accepts.
        let receiver = Receiver(flakyFailures: 1)
        let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(port)/flaky")
        let delivery = HookDelivery(store: store, options: options)
        try await running(delivery) {
            try store.commit(tracks: [], events: [event("parked")])
            delivery.wake()
            // Down: the tries are refused, the event stays pending.
            try await eventually { try (store.outbox(hook: hook.id).first?.attempts ?? 0) >= 10 }
            let down = try #require(try store.outbox(hook: hook.id).first)
            #expect(down.state == .pending)
            #expect(down.attempts >= 10)
            #expect(down.lastError != nil)
            // The receiver comes up on that very port (the test framework would pick another).
            let app = Application(
                router: receiver.router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
            let server = Task { try await app.runService(gracefulShutdownSignals: []) }
            defer { server.cancel() }
            try await eventually { try store.outbox(hook: hook.id).first?.state == .delivered }
            server.cancel()
            _ = await server.result
        }
        let row = try #require(try store.outbox(hook: hook.id).first)
        #expect(row.state == .delivered)
        // Every try the receiver saw carried the same key: the 503 and the accepted one.
        let requests = receiver.requests("/flaky")
        #expect(requests.count == 2)
        #expect(requests.map(\.key) == ["\(hook.id)-1", "\(hook.id)-1"])
        #expect(requests.allSatisfy { $0.body == #"{"device":"car-1","event":"parked"}"# })
        // Every refused try and the 503 were retries; then one delivery, nothing dead.
        #expect(delivery.metrics.count(.retried) == row.attempts - 1)
        #expect(delivery.metrics.count(.delivered) == 1)
        #expect(delivery.metrics.count(.dead) == 0)
    }
}
