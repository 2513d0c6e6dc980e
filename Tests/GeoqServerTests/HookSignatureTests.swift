import Foundation
import GeoqHooks
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// Deliveries signed as the Standard Webhooks specification says, checked by its reference
/// library (PyPI `standardwebhooks`, in the Python `tools/python-env` makes): a hook's own
/// secret, both secrets during a rotation's overlap, and a receiver that refuses a tampered body,
/// another hook's secret, a stale timestamp and a replayed message.
@Suite(.serialized) struct HookSignatureTests {
    /// The Python with the reference verifier: GEOQ_TEST_PYTHON (tools/test sets it), else the
    /// project's .build-venv when it has the library.
    static let python: String? = {
        if let given = ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"] { return given }
        let local = FileManager.default.currentDirectoryPath + "/.build-venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: local),
            (try? ExternalTool.run(local, ["-c", "import standardwebhooks"]))?.status == 0
        else { return nil }
        return local
    }()

    /// One delivery as the receiver got it.
    struct Received: Sendable {
        var headers: [String: String]
        var body: Data
    }

    final class Receiver: Sendable {
        let received = Mutex<[Received]>([])

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("/hook") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.canonicalName] = field.value }
                self.received.withLock { $0.append(Received(headers: headers, body: Data(buffer: body))) }
                return Response(status: .noContent)
            }
            return router
        }

        var count: Int { received.withLock { $0.count } }
    }

    /// The reference verifier, as a receiver would run it: each case is a secret, the headers and
    /// the body; it answers "ok" or the library's reason, and refuses a message id seen before.
    static let verifier = """
        import json, sys
        from standardwebhooks.webhooks import Webhook, WebhookVerificationError
        seen = set()
        for case in json.load(open(sys.argv[1])):
            try:
                Webhook(case["secret"]).verify(case["body"].encode(), case["headers"])
                if case.get("dedupe"):
                    if case["headers"]["webhook-id"] in seen:
                        raise WebhookVerificationError("replayed message")
                    seen.add(case["headers"]["webhook-id"])
                print("ok")
            except WebhookVerificationError as error:
                print("refused: " + str(error))
        """

    /// What the verifier says of each case.
    static func verify(_ cases: [[String: Any]]) throws -> [String] {
        let python = try #require(python)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-signatures-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("verify.py")
        let input = folder.appendingPathComponent("cases.json")
        try Data(verifier.utf8).write(to: script)
        try JSONSerialization.data(withJSONObject: cases).write(to: input)
        let (status, output) = try ExternalTool.run(python, [script.path, input.path])
        #expect(status == 0, "\(output)")
        return output.split(separator: "\n").map(String.init)
    }

    static func `case`(_ secret: String, _ delivery: Received, body: Data? = nil, dedupe: Bool = false) -> [String: Any]
    {
        let headers = delivery.headers.filter { $0.key.hasPrefix("webhook-") }
        return [
            "secret": secret, "headers": headers, "body": String(decoding: body ?? delivery.body, as: UTF8.self),
            "dedupe": dedupe,
        ]
    }

    func event(_ kind: String) -> StoredEvent {
        StoredEvent(
            tenant: defaultTenant, device: "car-1", layer: "pamplona-sectors", kind: kind,
            body: Data(#"{"device":"car-1","event":"\#(kind)"}"#.utf8))
    }

    @Test(
        .enabled(
            if: python != nil, "the Standard Webhooks verifier is not installed (tools/python-env standardwebhooks)"))
    func deliveriesVerifyWithTheReferenceLibraryThroughARotation() async throws {
        let receiver = Receiver()
        let store = TrackingStore(
            storeFile: FileManager.default.temporaryDirectory.appendingPathComponent("geoq-signed-\(UUID()).gpkg"))
        try await Application(router: receiver.router).test(.live) { client in
            let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/hook")
            let other = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:1/never", events: ["left"])
            #expect(hook.secret.hasPrefix("whsec_"))
            #expect(Data(base64Encoded: String(hook.secret.dropFirst(6)))?.count == 32)
            #expect(hook.secret != other.secret)
            let delivery = HookDelivery(
                store: store,
                options: DeliveryOptions(destinations: .loopbackReceivers, sweepInterval: .milliseconds(100)))
            let task = Task { await delivery.run() }
            defer { task.cancel() }
            func deliver(_ kind: String, count: Int) async throws {
                try store.commit(tracks: [], events: [event(kind)])
                delivery.wake()
                for _ in 0..<200 where receiver.count < count { try await Task.sleep(for: .milliseconds(50)) }
                #expect(receiver.count == count)
            }
            try await deliver("enter", count: 1)
            let rotated = try #require(try store.rotateHookSecret(tenant: nil, id: hook.id, overlap: .seconds(3_600)))
            #expect(rotated.secret != hook.secret && rotated.previousSecret == hook.secret)
            try await deliver("parked", count: 2)
            let retired = try #require(try store.rotateHookSecret(tenant: nil, id: hook.id, overlap: .zero))
            try await deliver("left", count: 3)
            task.cancel()
            await task.value

            let got = receiver.received.withLock { $0 }
            #expect(got[0].headers["webhook-id"] == "\(hook.id)-1")
            #expect(got[0].headers["webhook-signature"]?.split(separator: " ").count == 1)
            #expect(got[1].headers["webhook-signature"]?.split(separator: " ").count == 2)
            #expect(got[2].headers["webhook-signature"]?.split(separator: " ").count == 1)
            let verdicts = try Self.verify([
                Self.case(hook.secret, got[0]),
                Self.case(other.secret, got[0]),
                Self.case(hook.secret, got[0], body: Data(#"{"device":"car-2","event":"enter"}"#.utf8)),
                // During the overlap both secrets verify; after it, only the newest.
                Self.case(rotated.secret, got[1]), Self.case(hook.secret, got[1]),
                Self.case(retired.secret, got[2]), Self.case(rotated.secret, got[2]),
                // A receiver that remembers message ids refuses the same one again.
                Self.case(hook.secret, got[0], dedupe: true), Self.case(hook.secret, got[0], dedupe: true),
            ])
            #expect(verdicts.count == 9)
            #expect(Array(verdicts.prefix(2)) == ["ok", "refused: No matching signature found"])
            #expect(verdicts[2] == "refused: No matching signature found")
            #expect(Array(verdicts[3...5]) == ["ok", "ok", "ok"])
            #expect(verdicts[6] == "refused: No matching signature found")
            #expect(Array(verdicts[7...8]) == ["ok", "refused: replayed message"])
        }
    }

    @Test(
        .enabled(
            if: python != nil, "the Standard Webhooks verifier is not installed (tools/python-env standardwebhooks)"))
    func aStaleTimestampIsRefused() throws {
        let secret = Hook.newSecret()
        let body = Data(#"{"event":"parked"}"#.utf8)
        func signed(_ age: TimeInterval) -> Received {
            Received(
                headers: Dictionary(
                    uniqueKeysWithValues: WebhookSignature.headers(
                        id: "7-42", timestamp: Date() - age, body: body, secrets: [secret])),
                body: body)
        }
        let verdicts = try Self.verify([Self.case(secret, signed(0)), Self.case(secret, signed(600))])
        #expect(verdicts == ["ok", "refused: Message timestamp too old"])
    }
}
