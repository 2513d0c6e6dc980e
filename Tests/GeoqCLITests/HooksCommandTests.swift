import Foundation
import GeoqLayers
import GeoqPostGIS
import GeoqTestSupport
import Testing

/// `geoq hooks` end to end on a temporary store: add, list (text and JSON), delete, and the
/// refusals with their exit statuses; what the command wrote is read back through the store.
@Suite struct HooksCommandTests {
    struct Store {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-hooks-\(UUID()).gpkg")
        func geoq(_ arguments: [String]) throws -> GeoqBinaryTests.Run {
            try GeoqBinaryTests.run(arguments + ["--store", url.path])
        }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func addListAndDelete() throws {
        let store = Store()
        defer { store.remove() }

        let none = try store.geoq(["hooks"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "No hooks.\n")
        #expect(!FileManager.default.fileExists(atPath: store.url.path), "listing must not create the store")

        let first = try store.geoq(["hooks", "add", "https://93.184.215.14/geoq-events"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.hasPrefix(
                "Added hook 1\tdefault\thttps://93.184.215.14/geoq-events\tlayer: any\tevents: all"))
        let second = try store.geoq([
            "hooks", "add", "http://127.0.0.1:9000/arrivals", "--hook-allow-http", "--hook-allow", "127.0.0.0/8",
            "--layer", "pamplona-sectors", "--event", "parked",
            "--event", "left", "--ordered", "--format", "json",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let added = try Self.json(second.stdout)
        #expect(added["id"] as? Int == 2)
        #expect(added["url"] as? String == "http://127.0.0.1:9000/arrivals")
        #expect(added["layer"] as? String == "pamplona-sectors")
        #expect(added["events"] as? [String] == ["parked", "left"])
        #expect(added["ordered"] as? Bool == true)

        // What the service would deliver to: the store holds exactly these two hooks.
        let held = try TrackingStore(storeFile: store.url).hooks(tenant: nil)
        #expect(held.map(\.id) == [1, 2])
        #expect(held.map(\.layer) == [nil, "pamplona-sectors"])
        #expect(held.map(\.ordered) == [false, true])
        // Each secret shown once, as the store keeps it; a rotation shows the new one.
        #expect(first.stdout.hasSuffix("Its signing secret (shown once): \(held[0].secret)\n"))
        #expect(added["secret"] as? String == held[1].secret)
        let rotated = try store.geoq(["hooks", "rotate", "2", "--overlap", "1h", "--format", "json"])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let after = try #require(try TrackingStore(storeFile: store.url).hooks(tenant: nil).last)
        #expect(try Self.json(rotated.stdout)["secret"] as? String == after.secret)
        #expect(after.secret != held[1].secret && after.previousSecret == held[1].secret)
        #expect(try store.geoq(["hooks", "rotate", "2", "--tenant", "other"]).status == 64)
        #expect(try store.geoq(["hooks", "rotate", "99"]).status == 64)
        #expect(held.map(\.events) == [nil, ["parked", "left"]])

        let text = try store.geoq(["hooks", "list"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[1].hasPrefix(
                "2\tdefault\thttp://127.0.0.1:9000/arrivals\tlayer: pamplona-sectors\tevents: parked,left"
                    + "\tordered by device"))
        // Another tenant's hook: listed by its tenant, not by the default tenant's.
        let foreign = try store.geoq(["hooks", "add", "https://93.184.215.15/h", "--tenant", "other"])
        #expect(foreign.status == 0, "\(foreign.stderr)")
        #expect(
            try TrackingStore(storeFile: store.url).hooks(tenant: "other").map(\.url) == ["https://93.184.215.15/h"]
        )
        let others = try store.geoq(["hooks", "list", "--tenant", "other"])
        #expect(others.stdout.split(separator: "\n").map { $0.split(separator: "\t")[1] } == ["other"])
        #expect(try store.geoq(["hooks", "delete", "3", "--tenant", "default"]).status == 64)
        #expect(try store.geoq(["hooks", "delete", "3", "--tenant", "other"]).status == 0)
        let listed = try Self.json(try store.geoq(["hooks", "list", "--format", "json"]).stdout)
        let hooks = try #require(listed["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["id"] as? Int } == [1, 2])
        #expect(hooks[0]["layer"] == nil && hooks[0]["events"] == nil)
        #expect(hooks.allSatisfy { $0["secret"] == nil })

        let deleted = try store.geoq(["hooks", "delete", "1"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.hasPrefix("Deleted hook 1;"))
        #expect(try TrackingStore(storeFile: store.url).hooks(tenant: nil).map(\.id) == [2])
        // Deleting it again, or an id never given: a bad argument naming the id.
        let again = try store.geoq(["hooks", "delete", "1"])
        #expect(again.status == 64)
        #expect(again.stderr == "geoq: error: no hook with id 1 (see geoq hooks list)\n")
        let unknown = try store.geoq(["hooks", "delete", "99", "--format", "json"])
        #expect(unknown.status == 64)
        let problem = try #require(try Self.json(unknown.stderr)["error"] as? [String: Any])
        #expect(problem["code"] as? String == "unknown-hook")
        #expect(problem["message"] as? String == "no hook with id 99 (see geoq hooks list)")
        // Ids are never reused.
        let third = try store.geoq([
            "hooks", "add", "http://127.0.0.1:9001/", "--hook-allow-http", "--hook-allow", "127.0.0.0/8", "--format",
            "json",
        ])
        #expect(try Self.json(third.stdout)["id"] as? Int == 4)
    }

    /// The same checks as `POST /v1/hooks` (``HookRequest``), each error naming its option; the
    /// store is left without a hook.
    @Test(arguments: [
        (
            ["ftp://example.org/x"],
            "URL: url must be an absolute http, https or redis URL with a host, got \"ftp://example.org/x\""
        ),
        (["parking.example.org/events"], "URL: url must be an absolute http, https or redis URL"),
        (["http:///nohost"], "URL: url must be an absolute http, https or redis URL with a host"),
        (["http://127.0.0.1:9000/", "--layer", "nope"], "--layer: unknown layer \"nope\"; known: "),
        (
            ["http://127.0.0.1:9000/", "--event", "parked", "--event", "arrived"],
            "--event: unknown event \"arrived\"; known: enter, exit, dwell, parked, left"
        ),
    ])
    func refusedHooks(arguments: [String], message: String) throws {
        let store = Store()
        defer { store.remove() }
        let r = try store.geoq(["hooks", "add"] + arguments)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("geoq: error: " + message), "\(r.stderr)")
        if arguments.contains("nope") { #expect(r.stderr.contains("pamplona-sectors")) }
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
        let json = try store.geoq(["hooks", "add"] + arguments + ["--format", "json"])
        #expect(json.status == 64)
        let problem = try #require(try Self.json(json.stderr)["error"] as? [String: Any])
        #expect(problem["code"] as? String == "bad-arguments")
        #expect((problem["message"] as? String)?.hasPrefix(message) == true)
    }

    @Test func aStoreThatIsNotADatabaseIsReportedNotCreated() throws {
        let store = Store()
        defer { store.remove() }
        try Data("not a database, just text\n".utf8).write(to: store.url)
        let r = try store.geoq(["hooks", "list"])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains(store.url.path), "\(r.stderr)")
        let add = try store.geoq([
            "hooks", "add", "http://127.0.0.1:9000/", "--hook-allow-http", "--hook-allow", "127.0.0.0/8",
        ])
        #expect(add.status == 65, "\(add.stderr)")
        #expect(try Data(contentsOf: store.url) == Data("not a database, just text\n".utf8))
    }

    /// The same commands on a PostgreSQL store: what they write is read back through the store,
    /// and a database that refuses the password is named with its own status.
    @Test(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
    func addListAndDeleteInPostgreSQL() throws {
        let address = try #require(TestPostgres.address(schema: "hooks_cli"))
        let none = try GeoqBinaryTests.run(["hooks", "list", "--store", address])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "No hooks.\n")
        let added = try GeoqBinaryTests.run([
            "hooks", "add", "http://127.0.0.1:9000/arrivals", "--hook-allow-http", "--hook-allow", "127.0.0.0/8",
            "--event", "parked", "--store", address, "--format",
            "json",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try Self.json(added.stdout)["id"] as? Int == 1)
        let other = try GeoqBinaryTests.run(["hooks", "add", "https://93.184.215.14/e", "--store", address])
        #expect(other.status == 0, "\(other.stderr)")

        let store = TrackingStore(address: try StoreAddress(parsing: address, sharedBackend: PostGISBackend.self))
        let held = try store.hooks(tenant: nil)
        #expect(held.map(\.id) == [1, 2])
        #expect(held.map(\.url) == ["http://127.0.0.1:9000/arrivals", "https://93.184.215.14/e"])
        #expect(held.map(\.events) == [["parked"], nil])

        let listed = try Self.json(
            try GeoqBinaryTests.run(["hooks", "list", "--store", address, "--format", "json"]).stdout)
        #expect((listed["hooks"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1, 2])
        let deleted = try GeoqBinaryTests.run(["hooks", "delete", "1", "--store", address])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try store.hooks(tenant: nil).map(\.id) == [2])
        let again = try GeoqBinaryTests.run(["hooks", "delete", "1", "--store", address])
        #expect(again.status == 64)
        #expect(again.stderr == "geoq: error: no hook with id 1 (see geoq hooks list)\n")

        // A wrong password: 77, naming the address without the password.
        var wrong = try #require(URLComponents(string: address))
        wrong.password = "not-the-password"
        let refused = try GeoqBinaryTests.run(["hooks", "list", "--store", try #require(wrong.string)])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused the credentials") && !refused.stderr.contains("not-the-password"))
    }

    @Test func helpShowsExamples() throws {
        let r = try GeoqBinaryTests.run(["hooks", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("geoq hooks add http://10.0.0.5:9000/arrivals --hook-allow-http"))
        #expect(r.stdout.contains("geoq hooks rotate 3 --overlap 24h"))
        #expect(r.stdout.contains("SUBCOMMANDS"))
        let add = try GeoqBinaryTests.run(["hooks", "add", "--help"])
        #expect(add.stdout.contains("--event <event>"))
        #expect(add.stdout.contains("Only events of this kind: enter, exit, dwell, parked"))
    }
}
