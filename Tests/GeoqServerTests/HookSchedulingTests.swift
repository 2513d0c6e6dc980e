import Foundation
import GeoqHooks
import GeoqLayers
import GeoqStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// The scheduler's answers to what receivers say: 410 Gone disables the hook, 429 and 503 with
/// Retry-After are waited for, a hook's pending deliveries are capped (the oldest given up and
/// counted), and many hooks are served by one scheduler, each in order.
@Suite struct HookSchedulingTests {
    final class Receiver: Sendable {
        let seen = Mutex<[String: Int]>([:])

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("/gone") { _, _ in
                self.count("/gone")
                return Response(status: .gone)
            }
            router.post("/busy") { _, _ in
                self.count("/busy")
                return Response(status: .tooManyRequests, headers: [.retryAfter: "120"])
            }
            router.post("/down") { _, _ in
                self.count("/down")
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "Wed, 21 Oct 2099 07:28:00 GMT"])
            }
            router.post("/ok/:n") { request, _ in
                self.count(request.uri.path)
                return Response(status: .ok)
            }
            return router
        }

        func count(_ path: String) { seen.withLock { $0[path, default: 0] += 1 } }
        func requests(_ path: String) -> Int { seen.withLock { $0[path] ?? 0 } }
        var total: Int { seen.withLock { $0.values.reduce(0, +) } }
    }

    func temporaryStore() -> TrackingStore {
        TrackingStore(
            storeFile: FileManager.default.temporaryDirectory
                .appendingPathComponent("geoq-scheduling-\(UUID().uuidString)/geoq.gpkg"))
    }

    func event(_ kind: String, tenant: String = defaultTenant) -> StoredEvent {
        StoredEvent(
            tenant: tenant, device: "car-1", layer: "pamplona-sectors", kind: kind,
            body: Data(#"{"event":"\#(kind)"}"#.utf8))
    }

    /// Runs `delivery` until `done` holds (20 s at most).
    func running(_ delivery: HookDelivery, until done: () throws -> Bool) async throws {
        let task = Task { await delivery.run() }
        delivery.wake()
        for _ in 0..<400 where try !done() { try await Task.sleep(for: .milliseconds(50)) }
        task.cancel()
        await task.value
    }

    static let options = DeliveryOptions(
        destinations: .loopbackReceivers, timeout: .seconds(5), backoffBase: .milliseconds(10),
        backoffCap: .seconds(3_600), maxAttempts: 5, sweepInterval: .milliseconds(100))

    @Test func goneDisablesTheHookAndRetryAfterIsWaitedFor() async throws {
        let receiver = Receiver()
        let store = temporaryStore()
        try await Application(router: receiver.router).test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            let gone = try store.addHook(tenant: defaultTenant, url: "\(base)/gone")
            let busy = try store.addHook(tenant: defaultTenant, url: "\(base)/busy")
            let down = try store.addHook(tenant: defaultTenant, url: "\(base)/down")
            try store.commit(tracks: [], events: [event("enter"), event("parked")])
            let delivery = HookDelivery(store: store, options: Self.options)
            let started = Date()
            try await running(delivery) {
                let downTried = try store.outbox(hook: down.id).first?.attempts == 1
                return receiver.requests("/gone") == 1 && receiver.requests("/busy") == 1
                    && receiver.requests("/down") == 1 && downTried
            }
            // 410: the hook is off, both its deliveries dead, and a later event not queued for it.
            let off = try #require(try store.hooks(tenant: nil).first { $0.id == gone.id })
            #expect(off.disabled != nil)
            #expect(try store.outbox(hook: gone.id).map(\.state) == [.dead, .dead])
            #expect(try store.outbox(hook: gone.id).first?.lastError?.contains("410") == true)
            try store.commit(tracks: [], events: [event("left")])
            #expect(try store.outbox(hook: gone.id).count == 2)
            #expect(try store.outbox(hook: busy.id).count == 3)
            // 429 with Retry-After: 120 s: the next try no sooner, and nothing else sent to it meanwhile.
            let waiting = try #require(try store.outbox(hook: busy.id).first)
            #expect(waiting.state == .pending && waiting.attempts == 1)
            #expect(waiting.nextAttempt.timeIntervalSince(started) >= 119)
            #expect(try store.outbox(hook: busy.id).dropFirst().allSatisfy { $0.attempts == 0 })
            // 503 with a date 73 years ahead: waited for as long as the cap allows (an hour).
            let capped = try #require(try store.outbox(hook: down.id).first)
            #expect(abs(capped.nextAttempt.timeIntervalSince(started) - 3_600) < 30)
            #expect(receiver.requests("/busy") == 1 && receiver.requests("/down") == 1)
        }
    }

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_795_424_400)  // Mon, 23 Nov 2026 09:00:00 GMT
        #expect(WebhookClient.retryAfter("120", now: now) == 120)
        #expect(WebhookClient.retryAfter("Mon, 23 Nov 2026 09:01:30 GMT", now: now) == 90)
        #expect(WebhookClient.retryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now: now) == 0)
        #expect(WebhookClient.retryAfter("soon", now: now) == nil)
        #expect(WebhookClient.retryAfter(nil, now: now) == nil)
    }

    @Test func aHooksPendingDeliveriesAreCappedOldestFirst() async throws {
        let store = temporaryStore()
        // A receiver that never answers: nothing listens on port 9 of loopback.
        let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/h")
        try store.commit(tracks: [], events: (1...8).map { _ in event("dwell") })
        var options = Self.options
        options.maxPendingPerHook = 3
        options.backoffBase = .seconds(600)
        let delivery = HookDelivery(store: store, options: options)
        try await running(delivery) { delivery.metrics.count(.dropped) > 0 }
        let rows = try store.outbox(hook: hook.id)
        #expect(rows.filter { $0.state == .pending }.map(\.sequence) == [6, 7, 8])
        #expect(rows.prefix(5).allSatisfy { $0.state == .dead && $0.lastError?.hasPrefix("given up unsent") == true })
        #expect(delivery.metrics.count(.dropped) == 5)
    }

    @Test func manyHooksAreServedEachInOrder() async throws {
        let receiver = Receiver()
        let store = temporaryStore()
        try await Application(router: receiver.router).test(.live) { client in
            // Two hundred tenants with a hook each, three events each.
            let hooks = try (0..<200).map {
                try store.addHook(tenant: "t\($0)", url: "http://127.0.0.1:\(client.port!)/ok/\($0)")
            }
            try store.commit(
                tracks: [],
                events: (0..<200).flatMap { n in ["enter", "dwell", "parked"].map { event($0, tenant: "t\(n)") } })
            var options = Self.options
            options.concurrency = 16
            let delivery = HookDelivery(store: store, options: options)
            try await running(delivery) { receiver.total >= 600 }
            #expect(receiver.total == 600)
            for hook in hooks {
                let rows = try store.outbox(hook: hook.id)
                #expect(rows.map(\.state) == [.delivered, .delivered, .delivered])
                #expect(rows.allSatisfy { $0.attempts == 1 })
            }
        }
    }
}
