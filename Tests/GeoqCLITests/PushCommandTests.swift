import Foundation
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Testing

/// `geoq push` on a temporary store: the VAPID key made once and kept (the same public key
/// every time, read back from the store's settings), replaced only with --new; news queued for
/// the subscribers of a topic in one tenant only; bad arguments refused with 64, naming them.
@Suite struct PushCommandTests {
    typealias Store = HooksCommandTests.Store

    @Test func theKeyIsMadeOnceAndKept() throws {
        let store = Store()
        defer { store.remove() }
        let made = try store.geoq(["push", "keys", "--contact", "mailto:ops@geoq.example", "--format", "json"])
        #expect(made.status == 0, "\(made.stderr)")
        let first = try HooksCommandTests.json(made.stdout)
        #expect(first["made"] as? Bool == true)
        let key = try #require(first["publicKey"] as? String)
        let again = try store.geoq(["push", "keys"])
        #expect(again.status == 0 && again.stdout == key + "\n")
        // The store keeps the private key (32 bytes) and the contact among its settings.
        let tables = try TrackingStore(storeFile: store.url).pushTables()
        #expect(try tables.storedSetting("push.vapid-key")?.count == 32)
        #expect(try tables.storedSetting("push.contact") == Data("mailto:ops@geoq.example".utf8))
        let replaced = try store.geoq(["push", "keys", "--new"])
        #expect(replaced.status == 0 && replaced.stdout != key + "\n")
    }

    @Test func newsGoToTheTopicsSubscribersOfOneTenant() throws {
        let store = Store()
        defer { store.remove() }
        let refused = try store.geoq(["push", "send", "--topic", "news", "hola"])
        #expect(refused.status == 64 && refused.stderr.contains("geoq push keys"), "\(refused.stderr)")
        #expect(try store.geoq(["push", "keys"]).status == 0)
        let tables = try TrackingStore(storeFile: store.url).pushTables()
        for (tenant, device, topics) in [
            ("acme", "car-1", ["news"]), ("acme", "car-2", ["tickets"]), ("other", "car-3", ["news"]),
        ] {
            _ = try tables.putPushSubscription(
                tenant: tenant, device: device, endpoint: "https://push.example.net/\(device)", p256dh: "x", auth: "y",
                topics: topics, now: Date())
        }
        let sent = try store.geoq([
            "push", "send", "--topic", "news", "--tenant", "acme", "--format", "json", "Estafeta cerrada",
        ])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try HooksCommandTests.json(sent.stdout)["queued"] as? Int == 1)
        let due = try tables.claimPush(now: Date(), lease: .seconds(60), limit: 10)
        #expect(due.map(\.subscription.device) == ["car-1"])
        let payload = try #require(try JSONSerialization.jsonObject(with: due[0].body) as? [String: String])
        #expect(payload["body"] == "Estafeta cerrada" && payload["url"] == "/")
    }

    @Test func badArgumentsAreRefusedNamingThem() throws {
        let store = Store()
        defer { store.remove() }
        for (arguments, named) in [
            (["push", "keys", "--contact", "ops@geoq.example"], "--contact"),
            (["push", "send", "--topic", "bad topic", "x"], "--topic"),
            (["push", "send", "--topic", "news", "--url", "https://elsewhere.example/", "x"], "--url"),
            (["push", "send", "--topic", "news", String(repeating: "x", count: 5000)], "bytes"),
        ] {
            if arguments[1] == "send" { _ = try store.geoq(["push", "keys"]) }
            let run = try store.geoq(arguments)
            #expect(run.status == 64 && run.stderr.contains(named), "\(arguments.prefix(4)): \(run.stderr)")
        }
    }
}
