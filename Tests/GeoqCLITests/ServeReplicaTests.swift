import Foundation
import GeoqTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `geoq serve --store postgresql://...` as a process: a wrong password ends it at once (77), a
/// server that does not answer yet leaves it running but unready (503 naming the failure), and a
/// replica over an imported store answers what the GeoPackage-backed service answers and follows
/// a re-import.
@Suite(.serialized, .enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct ServeReplicaTests {
    /// `geoq serve` over `store` on `port`, not waited for.
    static func start(store: String, port: Int, log: URL) throws -> Process {
        try ServeKillTests.launch(["serve", "--port", "\(port)", "--threads", "1", "--store", store], log: log)
    }

    static func status(_ url: String) throws -> (code: Int, body: String) {
        let out = try ServeKillTests.curl(["-w", "\n%{http_code}", url])
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// Polls `condition` until it holds, sleeping without holding a thread (the test runner's
    /// other tasks go on meanwhile).
    static func waitFor(seconds: Double = 60, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try condition()
    }

    @Test func aRefusedPasswordEndsServeWith77() throws {
        let text = try #require(TestPostgres.address)
        var components = try #require(URLComponents(string: text))
        components.password = "not-it"
        let r = try GeoqBinaryTests.run([
            "serve", "--port", "\(try FreePort.next())", "--store", components.string!,
        ])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("refused the credentials") && !r.stderr.contains("not-it"), "\(r.stderr)")
    }

    @Test func anUnreachableServerLeavesTheReplicaUnreadyAndSayingWhy() async throws {
        let text = try #require(TestPostgres.address)
        var components = try #require(URLComponents(string: text))
        components.port = try FreePort.next()
        let port = try FreePort.next()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("replica-\(UUID()).log")
        let process = try Self.start(store: components.string!, port: port, log: log)
        defer { ServeKillTests.stop(process) }
        var ready: (code: Int, body: String) = (0, "")
        #expect(
            try await Self.waitFor {
                ready = try Self.status("http://127.0.0.1:\(port)/readyz")
                return ready.code != 0
            })
        #expect(ready.code == 503)
        #expect(ready.body.contains("cannot be reached"), "\(ready.body)")
        let query = try Self.status("http://127.0.0.1:\(port)/v1/sector?lat=42.81&lon=-1.64")
        #expect(query.code == 503)
        #expect(process.isRunning)
    }

    @Test func aReplicaAnswersAsTheGeoPackageServiceAndFollowsAReimport() async throws {
        let store = try #require(TestPostgres.address(schema: "replica"))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("replica-\(UUID())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("geoq.gpkg").path
        let sectors = TestData.url("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json").path
        for target in [store, file] {
            let r = try GeoqBinaryTests.run(["import", "--all", "--store", target])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let (replicaPort, filePort) = (try FreePort.next(), try FreePort.next())
        let replica = try Self.start(store: store, port: replicaPort, log: work.appendingPathComponent("r.log"))
        defer { ServeKillTests.stop(replica) }
        let single = try ServeKillTests.serve(port: filePort, store: URL(fileURLWithPath: file))
        defer { ServeKillTests.stop(single) }
        #expect(try await Self.waitFor { try Self.status("http://127.0.0.1:\(replicaPort)/readyz").code == 200 })

        // The same answers, byte for byte but for where the data came from, at real points.
        for (lat, lon, layer) in [
            (42.81, -1.64, "pamplona-sectors"), (42.8169, -1.6432, "pamplona-barrios"),
            (39.4699, -0.3763, "valencia-barrios"), (39.47, -0.38, "valencia-census-sections"),
        ] {
            let query = "/v1/sector?lat=\(lat)&lon=\(lon)&layer=\(layer)"
            let a = try Self.status("http://127.0.0.1:\(replicaPort)\(query)")
            let b = try Self.status("http://127.0.0.1:\(filePort)\(query)")
            #expect(a.code == 200 && a.code == b.code, "\(query)")
            #expect(Self.withoutSource(a.body) == Self.withoutSource(b.body), "\(query)")
        }
        let nearest = "/v1/nearest?lat=39.4699&lon=-0.3763&layer=fallas&n=5"
        #expect(
            Self.withoutSource(try Self.status("http://127.0.0.1:\(replicaPort)\(nearest)").body)
                == Self.withoutSource(try Self.status("http://127.0.0.1:\(filePort)\(nearest)").body))

        // A new layer imported into the shared store reaches the replica without a restart.
        let before = try Self.status("http://127.0.0.1:\(replicaPort)/v1/layers").body
        #expect(!before.contains("\"replica-check\""))
        let r = try GeoqBinaryTests.run([
            "import", sectors, "--layer", "replica-check", "--name-field", "NOMBRE", "--store", store,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            try await Self.waitFor(seconds: 60) {
                try Self.status("http://127.0.0.1:\(replicaPort)/v1/layers").body.contains("\"replica-check\"")
            })
        let answer = try Self.status(
            "http://127.0.0.1:\(replicaPort)/v1/sector?lat=42.8169&lon=-1.6432&layer=replica-check")
        // The same neighbourhood unit as the catalog's pamplona-barrios (the same file) gives.
        #expect(answer.code == 200 && answer.body.contains("\"name\":\"Casco Viejo/Alde Zaharra\""), "\(answer.body)")
    }

    /// An answer without the fields that name the store it came from.
    static func withoutSource(_ body: String) -> String {
        body.replacingOccurrences(of: #""source":"[^"]*""#, with: "", options: .regularExpression)
    }
}
