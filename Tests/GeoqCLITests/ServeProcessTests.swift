import Foundation
import GeoqTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `geoq serve` as a process: SIGHUP reloads (the generation in /readyz goes up), SIGTERM
/// stops it cleanly (status 0) after answering a batch that was in flight.
@Suite(.serialized) struct ServeProcessTests {
    struct Reply {
        var status: Int
        var body: [String: Any]
    }

    /// GET `path`, or nil when nothing answers yet.
    static func get(_ port: Int, _ path: String) async -> Reply? {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)"),
            let (data, response) = try? await URLSession.shared.data(from: url),
            let http = response as? HTTPURLResponse
        else { return nil }
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Reply(status: http.statusCode, body: body)
    }

    /// `work`'s outcome, or nil when it has none within `seconds` (it is then cancelled and left).
    static func within<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async throws -> T) async
        -> Result<T, any Error>?
    {
        let first = FirstOfTwo()
        return await withCheckedContinuation { (done: CheckedContinuation<Result<T, any Error>?, Never>) in
            let worker = Task {
                let outcome: Result<T, any Error>
                do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
                if first.take() { done.resume(returning: outcome) }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                if first.take() {
                    worker.cancel()
                    done.resume(returning: nil)
                }
            }
        }
    }

    /// Polls until `done` holds or `seconds` pass.
    static func waitFor(seconds: Double, _ done: () async -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await done() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func sighupReloadsAndSigtermStopsCleanly() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: GeoqBinaryTests.binary.path), "build geoq first")
        // A port unlikely to be taken: from the process id, below Linux's ephemeral range
        // (32768–60999), where the tests' own client connections could hold it, and away from
        // the private PostgreSQL clusters' (25432, 25433).
        let port = 30_000 + Int(getpid() % 2_000)
        let process = Process()
        process.executableURL = GeoqBinaryTests.binary
        process.arguments = ["serve", "--port", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["GEOQ_DATA_DIR"] = TestData.directory.path
        environment["GEOQ_STORE"] = "/nonexistent/geoq-test-store.gpkg"
        process.environment = environment
        process.currentDirectoryURL = TestData.packageRoot
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let ready = try await Self.waitFor(seconds: 120) { await Self.get(port, "/readyz")?.status == 200 }
        try #require(ready, "geoq serve did not become ready on port \(port)")
        #expect(await Self.get(port, "/readyz")?.body["generation"] as? Int == 1)
        let before = try #require(await Self.get(port, "/v1/sector?lat=42.81&lon=-1.64"))
        #expect(before.status == 200)

        // A second service on the same port, or on an address that is not this machine's, says
        // so in words and exits with 70.
        let taken = try GeoqBinaryTests.run(["serve", "--port", String(port)])
        #expect(taken.status == 70)
        #expect(taken.stderr.contains("cannot listen on 127.0.0.1:\(port): the address is in use"), "\(taken.stderr)")
        let unknown = try GeoqBinaryTests.run(["serve", "--host", "999.1.1.1", "--port", String(port)])
        #expect(unknown.status == 70)
        #expect(
            unknown.stderr.contains("999.1.1.1 is neither an IP address nor a known host name"), "\(unknown.stderr)")

        kill(process.processIdentifier, SIGHUP)
        let reloaded = try await Self.waitFor(seconds: 120) {
            await Self.get(port, "/readyz")?.body["generation"] as? Int == 2
        }
        #expect(reloaded, "no reload after SIGHUP")
        // The new snapshot answers the same question the same way.
        let after = try #require(await Self.get(port, "/v1/sector?lat=42.81&lon=-1.64"))
        #expect(after.status == 200)
        #expect((after.body["inside"] as? [[String: Any]])?.first?["id"] as? String == "2")

        // SIGTERM while a batch of 10,000 points is being answered: the batch still completes.
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/sector:batch")!)
        request.httpMethod = "POST"
        request.setValue("text/csv", forHTTPHeaderField: "Content-Type")
        let body = (0..<10_000).map { "\(42.79 + Double($0) * 0.000_002),-1.64,p\($0)" }.joined(separator: "\n")
        let inFlight = Task { [request] in try await URLSession.shared.upload(for: request, from: Data(body.utf8)) }
        try await Task.sleep(for: .milliseconds(20))
        kill(process.processIdentifier, SIGTERM)
        // Foundation's URLSession has been seen to wait for ever on a connection the server had
        // closed: the answer is awaited for a minute at most, so that the run fails instead.
        let answered = await Self.within(seconds: 60) { try await inFlight.value }
        let (answers, response) = try #require(try answered?.get(), "no answer to the batch within 60 s of SIGTERM")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let lines = String(decoding: answers, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 10_000 && lines.last?.contains("\"id\":\"p9999\"") == true)

        let stopped = try await Self.waitFor(seconds: 30) { !process.isRunning }
        #expect(stopped, "geoq serve still runs 30 s after SIGTERM")
        if stopped {
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        }
        let log = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        #expect(log.contains("reloaded") && log.contains("SIGHUP"), "\(log)")
    }
}

/// Which of two racers came first: `take()` is true once, for the first.
final class FirstOfTwo: Sendable {
    private let taken = Mutex(false)

    func take() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
