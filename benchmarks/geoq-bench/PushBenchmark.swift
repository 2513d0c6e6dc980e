import Crypto
import Foundation
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqPush
import GeoqStore

/// Web Push deliveries from the outbox: the same number of messages as the webhook rows, one
/// per subscription of 1,000 browsers, each encrypted for its browser (a new key pair, ECDH,
/// HKDF and AES-GCM per message) and signed (an ES256 VAPID token per message), POSTed by one
/// `PushDelivery` over a GeoPackage to the same receiver in this process. The peer, in the same
/// run, is the webhook delivery of as many events to 1,000 hooks: what the cryptography costs
/// on top of the same client, rules and outbox.
enum PushBenchmark {
    static func run(options: BenchmarkOptions, progress: Progress) throws {
        let messages = options.smoke ? 200 : 10_000
        let subscribers = options.smoke ? 100 : 1_000
        let receiver = try HookBenchmark.Receiver()
        defer { receiver.stop() }
        progress.note("push: \(messages) messages to \(subscribers) subscriptions")
        let (pushSeconds, pushCPU) = try measure(messages: messages, subscribers: subscribers, port: receiver.port)
        progress.note("push: the peer, \(messages) webhook events to \(subscribers) hooks")
        let (hookSeconds, hookCPU) = try HookBenchmark.measure(
            hooks: subscribers, events: messages, port: receiver.port)
        print("| delivery | messages | seconds | deliveries/s | CPU ms per delivery |")
        print("|---|---:|---:|---:|---:|")
        for (name, seconds, cpu) in [
            ("Web Push (\(subscribers) subscriptions)", pushSeconds, pushCPU),
            ("webhooks (\(subscribers) hooks), peer", hookSeconds, hookCPU),
        ] {
            print(
                "| \(name) | \(messages) | \(String(format: "%.2f", seconds)) | "
                    + "\(String(format: "%.0f", Double(messages) / seconds)) | "
                    + "\(String(format: "%.3f", cpu * 1000 / Double(messages))) |")
        }
        print("| push / webhooks | | | \(String(format: "%.2f", hookSeconds / pushSeconds)) | |")
        print()
    }

    /// Seconds until every message is delivered, and the process's CPU seconds meanwhile.
    static func measure(messages: Int, subscribers: Int, port: Int) throws -> (Double, Double) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-bench-push-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = TrackingStore(storeFile: folder.appendingPathComponent("geoq.gpkg"))
        let tables = try store.pushTables()
        let auth = Base64URL.encode(Data(repeating: 7, count: 16))
        let rows = try (0..<subscribers).map { n in
            try tables.putPushSubscription(
                tenant: "t", device: "car-\(n)", endpoint: "http://127.0.0.1:\(port)/push/\(n)",
                p256dh: Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation), auth: auth,
                topics: ["news"], now: Date())
        }
        let payload = PushPayload(
            title: "El tique de aparcamiento termina en 10 min", body: "Zona azul · Sector 2 — Ensanches",
            url: "/?lat=42.81&lon=-1.64&ticket=0123456789abcdef", tag: "ticket-0123456789abcdef"
        ).json
        try tables.enqueuePush(
            (0..<messages).map { n in
                PushMessageRow(
                    subscription: rows[n % subscribers].id, idempotencyKey: "m\(n)", body: payload, topic: nil,
                    due: Date())
            })
        let options = DeliveryOptions(
            destinations: DestinationRules(allowHTTP: true, allowed: [AddressRange("127.0.0.0/8")!]),
            sweepInterval: .milliseconds(200))
        let delivery = PushDelivery(store: store, key: VAPIDKey(), contact: "mailto:ops@geoq.example", options: options)
        let cpuBefore = HookBenchmark.processCPUSeconds()
        let start = ContinuousClock.now
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            await delivery.run()
            done.signal()
        }
        while delivery.metrics.count(.delivered) < messages { Thread.sleep(forTimeInterval: 0.01) }
        let elapsed = ContinuousClock.now - start
        let cpu = HookBenchmark.processCPUSeconds() - cpuBefore
        task.cancel()
        done.wait()
        return (GeoqBench.nanoseconds(elapsed) / 1e9, cpu)
    }
}
