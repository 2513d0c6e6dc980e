import Crypto
import Foundation
import GeoqAccess
import GeoqPush
import GeoqTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Push reminders and news end to end, between real processes on loopback: `geoq push keys`
/// makes the store's VAPID key; a browser's subscription is posted with a track key; a ticket
/// bought with `POST /v1/park` puts its reminder in the outbox; the service is killed with
/// SIGKILL before the reminder is due and started again, and the push service stand-in gets the
/// reminder once, at its time, readable with the browser's keys by the reference decrypter and
/// signed as the reference VAPID verifier accepts; `geoq push send` reaches a topic's
/// subscribers, and a push service that answers 410 ends its subscription.
@Suite(.serialized) struct ServePushTests {
    /// A push service (Python's http.server) on `port` that appends each POST as a JSON line
    /// (path, headers, body in hex, time) to `log`, answering 410 under /gone and 201 elsewhere.
    static func pushService(port: Int, log: URL) throws -> Process {
        let script = """
            import http.server, json, sys, time
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                    with open(sys.argv[2], 'a') as f:
                        f.write(json.dumps({"path": self.path, "headers": dict(self.headers.items()),
                                            "body": body.hex(), "at": time.time()}) + '\\n')
                    self.send_response(410 if self.path.startswith('/gone') else 201)
                    self.send_header('Content-Length', '0'); self.end_headers()
                def log_message(self, *a): pass
            http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, "\(port)", log.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// What the push service received so far.
    static func received(_ log: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func header(_ request: [String: Any], _ name: String) -> String? {
        (request["headers"] as? [String: String])?.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// A browser's subscription for `device` at `endpoint`, as the page posts it.
    static func subscription(_ browser: P256.KeyAgreement.PrivateKey, auth: Data, endpoint: String, device: String)
        -> String
    {
        let p256dh = Base64URL.encode(browser.publicKey.x963Representation)
        return
            #"{"subscription":{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(Base64URL.encode(auth))"}},"device":"\#(device)","topics":["news"]}"#
    }

    static func waitFor(_ seconds: Double, _ done: () -> Bool) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end, !done() { Thread.sleep(forTimeInterval: 0.1) }
    }

    @Test func aReminderArrivesOnceAcrossAKillAndNewsReachTheTopic() throws {
        let folder = try ServeKillTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("geoq.gpkg")
        let pushLog = folder.appendingPathComponent("push.log")
        let keyText = try ServeKillTests.output(
            of: GeoqBinaryTests.binary,
            ["push", "keys", "--contact", "mailto:ops@geoq.example", "--store", store.path, "--format", "json"])
        let keyObject = try #require(try JSONSerialization.jsonObject(with: Data(keyText.utf8)) as? [String: Any])
        let publicKey = try #require(keyObject["publicKey"] as? String)
        let key = try ServeKillTests.key(store: store)
        let (port, pushPort) = (try FreePort.next(), try FreePort.next())
        let service = try Self.pushService(port: pushPort, log: pushLog)
        defer { ServeKillTests.stop(service) }
        let base = "http://127.0.0.1:\(port)"
        let ticket = "lat=42.81&lon=-1.64&zone=blue&minutes=30&reminder=10&at=2026-03-16T10:00"

        // The reminder's time, as the service's tariffs give it for this ticket.
        var server = try ServeKillTests.serve(port: port, store: store)
        let quoted = try #require(
            try JSONSerialization.jsonObject(with: Data(try ServeKillTests.curl(["\(base)/v1/park?\(ticket)"]).utf8))
                as? [String: Any])
        let reminderText = try #require((quoted["reminders"] as? [[String: Any]])?.first?["at"] as? String)
        let reminder = try #require(ISO8601DateFormatter().date(from: reminderText))
        #expect(try ServeKillTests.curl(["\(base)/v1/push/key"]).contains(publicKey))
        ServeKillTests.stop(server)

        // The service's clock set so that the reminder falls due 8 s from now.
        let due = Date().addingTimeInterval(8)
        server = try ServeKillTests.serve(
            port: port, store: store, more: ["--clock-offset=\(reminder.timeIntervalSince(due))"])
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let subscribed = try ServeKillTests.post(
            "\(base)/v1/push/subscriptions",
            Self.subscription(
                browser, auth: auth, endpoint: "http://127.0.0.1:\(pushPort)/push/car-1", device: "car-1"),
            key: key)
        #expect(subscribed["device"] as? String == "car-1", "\(subscribed)")
        // A second browser whose push service has forgotten it.
        _ = try ServeKillTests.post(
            "\(base)/v1/push/subscriptions",
            Self.subscription(
                P256.KeyAgreement.PrivateKey(), auth: auth, endpoint: "http://127.0.0.1:\(pushPort)/gone/car-2",
                device: "car-2"),
            key: key)
        // The ticket bought, twice (a retry): one reminder scheduled.
        let bought = try ServeKillTests.post("\(base)/v1/park?\(ticket)&device=car-1", "", key: key)
        let again = try ServeKillTests.post("\(base)/v1/park?\(ticket)&device=car-1", "", key: key)
        let push = try #require(bought["push"] as? [String: Any], "\(bought)")
        #expect(push["messages"] as? Int == 1)
        #expect((again["push"] as? [String: Any])?["ticket"] as? String == push["ticket"] as? String)
        #expect((bought["reminders"] as? [[String: Any]])?.first?["at"] as? String == reminderText)
        // Killed before the reminder is due; nothing sent yet.
        ServeKillTests.stop(server)
        #expect(Date() < due, "the service took too long to answer; the reminder fell due before the kill")
        #expect(Self.received(pushLog).isEmpty)

        server = try ServeKillTests.serve(port: port, store: store)
        defer { ServeKillTests.stop(server) }
        Self.waitFor(30) { !Self.received(pushLog).isEmpty }
        // Once: nothing more comes after it.
        Thread.sleep(forTimeInterval: 3)
        let reminders = Self.received(pushLog)
        #expect(reminders.count == 1, "\(reminders)")
        let sent = try #require(reminders.first)
        #expect(sent["path"] as? String == "/push/car-1")
        #expect((sent["at"] as? Double ?? 0) >= due.timeIntervalSince1970 - 0.5)
        #expect(Self.header(sent, "Content-Encoding") == "aes128gcm")
        let plain = try WebPushReference.decrypt([
            .init(body: Data(hex: sent["body"] as? String ?? ""), privateKey: browser.rawRepresentation, auth: auth)
        ])
        let payload = try JSONDecoder().decode(PushPayload.self, from: try #require(plain.first ?? nil))
        #expect(payload.title == "El tique de aparcamiento termina en 10 min")
        #expect(payload.url.contains("ticket=\(push["ticket"] as? String ?? "?")"))
        let verified = try WebPushReference.verify([Self.header(sent, "Authorization") ?? ""])
        #expect(verified.first?.verified == true)
        #expect(verified.first?.claims["aud"] as? String == "http://127.0.0.1:\(pushPort)")

        // News to the topic: the live subscription gets it; the forgotten one ends.
        let queued = try ServeKillTests.output(
            of: GeoqBinaryTests.binary,
            ["push", "send", "--topic", "news", "--tenant", "fleet", "--store", store.path, "Estafeta cerrada"])
        #expect(queued.contains("2 subscriber"), "\(queued)")
        Self.waitFor(30) { Self.received(pushLog).count >= 3 }
        let news = Self.received(pushLog).dropFirst()
        #expect(Set(news.compactMap { $0["path"] as? String }) == ["/push/car-1", "/gone/car-2"])
        let delivered = try #require(news.first { $0["path"] as? String == "/push/car-1" })
        let text = try WebPushReference.decrypt([
            .init(
                body: Data(hex: delivered["body"] as? String ?? ""), privateKey: browser.rawRepresentation, auth: auth)
        ])
        #expect(
            try JSONDecoder().decode(PushPayload.self, from: try #require(text.first ?? nil)).body == "Estafeta cerrada"
        )
        Self.waitFor(10) {
            let listed =
                (try? ServeKillTests.curl(["-H", "Authorization: Bearer \(key)", "\(base)/v1/push/subscriptions"]))
                ?? ""
            return !listed.contains("car-2")
        }
        let listed = try ServeKillTests.curl(["-H", "Authorization: Bearer \(key)", "\(base)/v1/push/subscriptions"])
        #expect(listed.contains("car-1") && !listed.contains("car-2"), "\(listed)")
    }
}
