import Foundation
import GeoqLayers
import GeoqTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Nothing lost: `geoq serve` killed with SIGKILL while its webhook is down and events wait in the
/// outbox, then started again on the same store, delivers every event (a repeat only with the
/// same Idempotency-Key) and goes on with each device's track as it was.
@Suite(.serialized) struct ServeKillTests {
    /// `geoq serve` on `port` over `store`, started and waited for until it answers /readyz.
    static func serve(port: Int, store: URL, more: [String] = []) throws -> Process {
        let log = store.deletingLastPathComponent().appendingPathComponent("serve-\(UUID()).log")
        // The webhook's receiver is a local one: plain http on loopback, which the service must be told it may reach.
        let process = try launch(
            ["serve", "--port", "\(port)", "--store", store.path, "--hook-allow-http", "--hook-allow", "127.0.0.0/8"]
                + more,
            log: log)
        for _ in 0..<240 {
            if (try? curl(["http://127.0.0.1:\(port)/readyz"]))?.contains("ready") == true { return process }
            Thread.sleep(forTimeInterval: 0.25)
        }
        stop(process)
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw CocoaError(
            .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "geoq serve did not get ready: \(said)"])
    }

    /// `geoq` with `arguments` started (not waited for), its standard error written to `log`.
    static func launch(_ arguments: [String], log: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = GeoqBinaryTests.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["GEOQ_DATA_DIR"] = TestData.directory.path
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        return process
    }

    /// A new folder of the test's own in the temporary directory (the caller removes it).
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-kill-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Stops a child for good. SIGKILL: the children of the test process start with SIGTERM
    /// blocked, so `terminate()` would leave them running (and holding the test's output).
    static func stop(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        awaitDeath(process)
    }

    /// Waits until `process`, sent SIGKILL, is dead (gone or a zombie), 30 s at most.
    /// Foundation's `waitUntilExit` can wait forever for a child that died while the test was
    /// starting other processes (its exit notice is lost); the kernel's view is read instead.
    static func awaitDeath(_ process: Process) {
        for _ in 0..<3000 {
            guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
                let state = stat.split(separator: ")").last?.split(separator: " ").first
            else { return }
            if state == "Z" { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// curl's output for `arguments` (silent; a failed connection is an empty string).
    static func curl(_ arguments: [String]) throws -> String {
        try output(of: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "30"] + arguments)
    }

    /// A key of a tenant with the track and hooks scopes, made by `geoq keys add` in `store`.
    static func key(store: URL) throws -> String {
        let arguments = [
            "keys", "add", "--tenant", "fleet", "--scope", "track", "--scope", "hooks", "--store", store.path,
        ]
        return try output(of: GeoqBinaryTests.binary, arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What `executable` with `arguments` writes on standard output (its standard error dropped).
    static func output(of executable: URL, _ arguments: [String]) throws -> String {
        try ExternalTool.run(executable, arguments, standardError: .dropped).stdout
    }

    static func post(_ url: String, _ body: String, key: String) throws -> [String: Any] {
        let text = try curl([
            "-X", "POST", "-H", "Content-Type: application/json", "-H", "Authorization: Bearer \(key)",
            "--data-binary", body, url,
        ])
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// A webhook receiver on `port` (Python's http.server) that appends each delivery's
    /// Idempotency-Key and body to `log` and answers 200.
    static func receiver(port: Int, log: URL) throws -> Process {
        let script = """
            import http.server, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                    with open(sys.argv[2], 'a') as f:
                        f.write(self.headers.get('Idempotency-Key', '') + '\\t' + body.decode() + '\\n')
                    self.send_response(200); self.end_headers()
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

    /// 1 Hz fixes as NDJSON from `from` seconds after `base` for `count` seconds: parked with a
    /// metre or two of jitter at `at`, or driving in a straight line `step` degrees per second.
    static func fixes(
        base: TimeInterval, from: Int, count: Int, at start: (Double, Double), step: (Double, Double) = (0, 0)
    ) -> String {
        (0..<count).map { i in
            let t = Date(timeIntervalSince1970: base + Double(from + i))
            let wobble = step == (0, 0) ? Double((i * 7) % 5 - 2) * 0.00001 : 0
            let lat = start.0 + step.0 * Double(i + 1) + wobble
            let lon = start.1 + step.1 * Double(i + 1) - wobble
            return
                #"{"device":"car-1","time":"\#(ISO8601DateFormatter().string(from: t))","lat":\#(lat),"lon":\#(lon),"accuracy":5}"#
        }.joined(separator: "\n")
    }

    /// Eight clients posting to `url` as fast as they are answered, each batch a new device
    /// standing six seconds in Sector 2 (one enter: a run of fixes), for `seconds`; then
    /// `geoq serve` (`server`) is killed with SIGKILL and the clients stop. Returns the devices
    /// whose batch was answered with its fixes accepted and its event.
    static func postUntilKilled(_ server: Process, url: String, key: String, seconds: Double) -> [String] {
        let start = (Date().timeIntervalSince1970 - 120).rounded(.down)
        let acknowledged = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let clients = DispatchGroup()
        for client in 0..<8 {
            clients.enter()
            Thread {
                defer { clients.leave() }
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    n += 1
                    let device = "d-\(client)-\(n)"
                    let body = Self.fixes(base: start, from: 0, count: 6, at: (42.81, -1.64))
                        .replacingOccurrences(of: "car-1", with: device)
                    guard let answer = try? Self.post(url, body, key: key),
                        answer["accepted"] as? Int == 6, (answer["events"] as? [Any])?.count == 1
                    else { continue }
                    acknowledged.withLock { $0.append(device) }
                }
            }.start()
        }
        Thread.sleep(forTimeInterval: seconds)
        kill(server.processIdentifier, SIGKILL)
        stop.store(true, ordering: .relaxed)
        clients.wait()
        awaitDeath(server)
        return acknowledged.withLock { $0 }
    }

    @Test func killedWithEventsUndeliveredNothingIsLost() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("geoq.gpkg")
        let log = folder.appendingPathComponent("deliveries.tsv")
        let (servePort, hookPort) = (try FreePort.next(), try FreePort.next())
        let base = "http://127.0.0.1:\(servePort)"

        let key = try Self.key(store: store)
        // The fixes end a minute ago: the service takes none ahead of its clock or past the retention.
        let start = (Date().timeIntervalSince1970 - 720).rounded(.down)
        var server = try Self.serve(port: servePort, store: store)
        _ = try Self.post("\(base)/v1/hooks", #"{"url":"http://127.0.0.1:\#(hookPort)/hook"}"#, key: key)
        // Ten minutes parked in Sector 2 while the hook's receiver is down.
        let car = (42.81, -1.64)
        let parked = try Self.post("\(base)/v1/fixes", Self.fixes(base: start, from: 0, count: 600, at: car), key: key)
        let first = (parked["events"] as? [[String: Any]])?.map { $0["event"] as? String }
        #expect(first == ["enter", "dwell", "parked"])
        kill(server.processIdentifier, SIGKILL)
        Self.awaitDeath(server)

        let receiver = try Self.receiver(port: hookPort, log: log)
        defer { Self.stop(receiver) }
        server = try Self.serve(port: servePort, store: store)
        defer { Self.stop(server) }
        // The car drives off: the restarted service goes on from the stored track.
        let sector = try #require(
            JSONSerialization.jsonObject(with: Data(try Self.curl(["\(base)/v1/sector?lat=42.81&lon=-1.64"]).utf8))
                as? [String: Any])
        let edge = try #require(
            ((sector["inside"] as? [[String: Any]])?.first)?["nearestEdgePoint"] as? [String: Double])
        // About 10 m/s towards the nearest edge and on, for a minute.
        let (dLat, dLon) = (edge["latitude"]! - car.0, edge["longitude"]! - car.1)
        let scale = 10 / 54.0
        let driven = try Self.post(
            "\(base)/v1/fixes",
            Self.fixes(base: start, from: 600, count: 60, at: car, step: (dLat * scale, dLon * scale)), key: key)
        let then = (driven["events"] as? [[String: Any]]) ?? []
        // The edge is near: the phone's exit (a run of fixes past the margin) comes before the
        // car's departure is judged (20 s of vehicle speed out of the car's radius).
        #expect(then.map { $0["event"] as? String } == ["exit", "left"])
        #expect(then.map { $0["sequence"] as? Int } == [4, 5])

        // Every event reaches the receiver; a repeat carries the same key.
        var deliveries: [(key: String, body: String)] = []
        for _ in 0..<240 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            deliveries = text.split(separator: "\n").map {
                let parts = $0.split(separator: "\t", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
            if Set(deliveries.map(\.key)).count >= 5 { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        let byKey = Dictionary(grouping: deliveries, by: \.key)
        #expect(byKey.count == 5, "\(deliveries.map(\.key))")
        #expect(byKey.values.allSatisfy { Set($0.map(\.body)).count == 1 }, "a key always carries the same event")
        let kinds = byKey.values.compactMap { group -> String? in
            (try? JSONSerialization.jsonObject(with: Data(group[0].body.utf8)) as? [String: Any])?["event"] as? String
        }
        #expect(kinds.sorted() == ["dwell", "enter", "exit", "left", "parked"])
    }

    /// Killed with SIGKILL while eight clients post batches as fast as they are answered: every
    /// batch that was answered is in the store (after the kill, before any restart): its event
    /// (read with sqlite3) and its device's track (the log folded by another process, then read
    /// with sqlite3 as well).
    @Test func killedAmidBatchesEveryAcknowledgedOneIsStored() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("geoq.gpkg")
        let port = try FreePort.next()
        let key = try Self.key(store: store)
        let server = try Self.serve(port: port, store: store)
        let answered = Self.postUntilKilled(
            server, url: "http://127.0.0.1:\(port)/v1/fixes", key: key, seconds: 3)
        #expect(answered.count > 50, "only \(answered.count) batches answered in 3 s")
        func devices(_ table: String) throws -> Set<String> {
            Set(
                try Self.output(
                    of: URL(fileURLWithPath: "/usr/bin/sqlite3"), [store.path, "SELECT device FROM \(table)"]
                ).split(separator: "\n").map(String.init))
        }
        let events = try devices("geoq_events")
        // The tracks as a restarted service reads them: the tracks' log folded into their table
        // (before any restart, by another process).
        let tracks = Set(try TrackingStore(storeFile: store).tracks(tenant: "fleet").map(\.device))
        #expect(try devices("geoq_tracks") == tracks, "after the fold, the table itself holds every track")
        let lost = answered.filter { !tracks.contains($0) || !events.contains($0) }
        #expect(lost.isEmpty, "answered but not stored: \(lost.prefix(10))")
    }

    /// Killed with SIGKILL while eight clients post batches and a Redis stream takes their
    /// events, then started again: every event stored before the kill reaches the stream (at
    /// least once; a repeat carries the same id and body), read back with redis-cli.
    @Test func killedAmidStreamAppendsEveryEventReachesTheStream() throws {
        guard TestRedis.available else { return #expect(!TestPostgres.requiredInCI, "\(TestRedis.missing)") }
        let redis = try TestRedis()
        defer { redis.stop() }
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("geoq.gpkg")
        let port = try FreePort.next()
        let key = try Self.key(store: store)
        var server = try Self.serve(port: port, store: store, more: ["--hook-allow-redis"])
        let hook = try Self.post(
            "http://127.0.0.1:\(port)/v1/hooks", #"{"url":"redis://127.0.0.1:\#(redis.port)?stream=fleet"}"#, key: key)
        let hookID = try #require(hook["id"] as? Int, "\(hook)")
        _ = Self.postUntilKilled(server, url: "http://127.0.0.1:\(port)/v1/fixes", key: key, seconds: 2)

        // What was stored before the kill, read with sqlite3 before any restart.
        let sequences = try Self.output(
            of: URL(fileURLWithPath: "/usr/bin/sqlite3"), [store.path, "SELECT sequence FROM geoq_events"]
        ).split(separator: "\n").map(String.init)
        #expect(sequences.count > 50, "only \(sequences.count) events stored in 2 s")
        let expected = Set(sequences.map { "\(hookID)-\($0)" })
        let before = Set(try redis.entries("fleet").compactMap { $0["id"] })
        #expect(before.count < expected.count, "the kill came after every append: nothing was tested")

        server = try Self.serve(port: port, store: store, more: ["--hook-allow-redis"])
        defer { Self.stop(server) }
        var entries: [[String: String]] = []
        for _ in 0..<240 {
            entries = try redis.entries("fleet")
            if expected.isSubset(of: entries.compactMap { $0["id"] }) { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        let missing = expected.subtracting(entries.compactMap { $0["id"] })
        #expect(missing.isEmpty, "\(missing.count) of \(expected.count) events never reached the stream")
        let byID = Dictionary(grouping: entries, by: { $0["id"] ?? "" })
        #expect(byID.values.allSatisfy { Set($0.map { $0["body"] }).count == 1 }, "an id always carries the same event")
        #expect(byID.keys.allSatisfy(expected.contains), "only stored events reach the stream")
    }
}
