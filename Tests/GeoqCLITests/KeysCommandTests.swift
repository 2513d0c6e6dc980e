import Foundation
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Testing

/// `geoq keys` and `geoq devices erase` end to end on a temporary store: a key is printed once
/// and stored only as its SHA-256 (read back with sqlite3 and sha256sum), listed without its
/// text, revoked; an erasure removes the device of one tenant only.
@Suite struct KeysCommandTests {
    typealias Store = HooksCommandTests.Store

    /// `command` run with `input` on standard input; its standard output.
    static func shell(_ command: [String], input: String = "") throws -> String {
        try ExternalTool.run(URL(fileURLWithPath: "/usr/bin/env"), command, input: input).stdout
    }

    @Test func aKeyIsShownOnceAndStoredAsItsHash() throws {
        let store = Store()
        defer { store.remove() }
        let made = try store.geoq(["keys", "add", "--tenant", "acme", "--scope", "track", "--scope", "events"])
        #expect(made.status == 0, "\(made.stderr)")
        let key = String(made.stdout.split(separator: "\n")[0])
        #expect(key.hasPrefix("gqk_") && key.count == 4 + 12 + 1 + 43)
        // The key alone on standard output (for KEY=$(geoq keys add ...)); the note on standard error.
        #expect(made.stdout == key + "\n" && made.stderr.contains("shown once"))
        let id = String(key.dropFirst(4).prefix(12))

        // The file holds the SHA-256 of the key, and nowhere the key itself.
        let stored = try Self.shell(["sqlite3", store.url.path, "SELECT id, tenant, scopes, hash FROM geoq_keys"])
        let digest = try Self.shell(["sha256sum"], input: key).split(separator: " ")[0]
        #expect(stored.split(separator: "|").map(String.init) == [id, "acme", "track,events", "\(digest)\n"])
        let bytes = try Data(contentsOf: store.url)
        #expect(bytes.range(of: Data(key.dropFirst(17).utf8)) == nil)

        let listed = try store.geoq(["keys", "list", "--format", "json"])
        #expect(!listed.stdout.contains(key) && !listed.stdout.contains(String(digest)))
        let keys = try #require(try HooksCommandTests.json(listed.stdout)["keys"] as? [[String: Any]])
        #expect(keys.map { $0["id"] as? String } == [id] && keys[0]["scopes"] as? [String] == ["track", "events"])

        #expect(try store.geoq(["keys", "revoke", id]).status == 0)
        #expect(try TrackingStore(storeFile: store.url).keys().first?.revoked != nil)
        // Revoked once: a second revocation names the id as unknown.
        let again = try store.geoq(["keys", "revoke", id])
        #expect(again.status == 64 && again.stderr.contains(id))
    }

    @Test func jsonShowsTheKeyAndItsExpiry() throws {
        let store = Store()
        defer { store.remove() }
        let before = Date()
        let made = try store.geoq([
            "keys", "add", "--tenant", "acme", "--scope", "read", "--expires", "90d", "--rate", "20", "--format",
            "json",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let object = try HooksCommandTests.json(made.stdout)
        let key = try #require(object["key"] as? String)
        #expect(String(key.dropFirst(4).prefix(12)) == object["id"] as? String)
        #expect(object["rate"] as? Double == 20)
        let expiry = try #require(object["expires"] as? String)
        let expires = try #require(ISO8601DateFormatter().date(from: expiry))
        #expect(abs(expires.timeIntervalSince(before) - 90 * 86_400) < 60)
    }

    @Test(arguments: [
        (["--tenant", "acme"], "--scope: name at least one scope"),
        (["--tenant", "acme", "--scope", "everything"], "--scope: "),
        (["--tenant", "acme", "--scope", "read", "--expires", "yesterday"], "--expires: "),
        (["--tenant", "acme", "--scope", "read", "--rate", "0"], "--rate: "),
    ])
    func badKeysAreRefusedNamingTheOption(arguments: [String], message: String) throws {
        let store = Store()
        defer { store.remove() }
        let run = try store.geoq(["keys", "add"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("geoq: error: \(message)"), "\(run.stderr)")
        let exists = FileManager.default.fileExists(atPath: store.url.path)
        #expect(try !exists || TrackingStore(storeFile: store.url).keys().isEmpty)
    }

    @Test func erasingADeviceRemovesItsRowsInOneTenantOnly() throws {
        let store = Store()
        defer { store.remove() }
        let tracking = TrackingStore(storeFile: store.url)
        _ = try tracking.addHook(tenant: "acme", url: "http://127.0.0.1:9/h")
        for tenant in ["acme", "other"] {
            try tracking.commit(
                tracks: [TrackRow(tenant: tenant, device: "car-1", layer: "pamplona-sectors", state: Array("{}".utf8))],
                events: [
                    StoredEvent(
                        tenant: tenant, device: "car-1", layer: "pamplona-sectors", kind: "enter",
                        body: Data(#"{"device":"car-1","secret-place":"here"}"#.utf8))
                ])
        }
        let erased = try store.geoq(["devices", "erase", "car-1", "--tenant", "acme", "--format", "json"])
        #expect(erased.status == 0, "\(erased.stderr)")
        let counts = try HooksCommandTests.json(erased.stdout)
        #expect(counts["tracks"] as? Int == 1 && counts["events"] as? Int == 1 && counts["deliveries"] as? Int == 1)
        let left = try Self.shell([
            "sqlite3", store.url.path,
            "SELECT tenant FROM geoq_tracks UNION ALL SELECT tenant FROM geoq_events UNION ALL "
                + "SELECT 'outbox' FROM geoq_outbox",
        ])
        #expect(left == "other\nother\n")
        // secure_delete: the erased event's bytes are gone from the file, not only unlinked.
        let bytes = try Data(contentsOf: store.url)
        var occurrences = 0
        var from = bytes.startIndex
        while let found = bytes.range(of: Data("secret-place".utf8), in: from..<bytes.endIndex) {
            occurrences += 1
            from = found.upperBound
        }
        #expect(occurrences == 1)
    }
}
