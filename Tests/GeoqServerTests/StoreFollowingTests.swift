import Foundation
import GeoqAPI
import GeoqPostGIS
import GeoqServer
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// A replica following a PostgreSQL store: an announced change reloads the snapshot, an
/// announcement of the version already held does not, a lost connection leaves the snapshot
/// answering and shows on /readyz and /metrics, and a reconnection catches up with a change
/// made while the link was down.
@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct StoreFollowingTests {
    /// The store's version as the test sets it (what the version query would read).
    final class Version: Sendable {
        let value = Mutex("1")
        func set(_ v: String) { value.withLock { $0 = v } }
        func read() -> String { value.withLock { $0 } }
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    struct Harness {
        let address: PostgresAddress
        let db: PGConnection
        let state: ServiceState
        let version = Version()
        let loads = Counter()
        let reloader: ReloadService

        init() throws {
            address = try PostgresAddress(parsing: try #require(TestPostgres.address(schema: "follow")))
            db = try PGConnection.connect(to: address)
            let (a, b) = try ReloadTests.snapshots()
            let link = StoreLink(store: address.description)
            link.loaded(version: "1", seconds: 0)
            state = ServiceState(a, link: link)
            let (version, loads) = (version, loads)
            reloader = ReloadService(
                state: state, watching: nil,
                following: StoreFollowing(
                    listener: ChangeListener(address: address, initialBackoff: .milliseconds(50)), link: link,
                    version: { version.read() }),
                trapSIGHUP: false, logger: Logger(label: "test")
            ) { [loads] in
                loads.add()
                return b
            }
        }

        func notify(_ version: String) throws {
            try db.query("SELECT pg_notify(\(address.changesChannel), \(version))")
        }
    }

    static func eventually(seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    @Test func anAnnouncedNewVersionReloadsOnceAndTheSameVersionDoesNot() async throws {
        let h = try Harness()
        let reloader = h.reloader
        let task = Task { try await reloader.run() }
        defer { task.cancel() }
        #expect(await Self.eventually { h.state.link?.current.connected == true })
        // Connected at the version held: nothing to catch up.
        #expect(h.loads.count == 0)

        h.version.set("2")
        try h.notify("2")
        #expect(await Self.eventually { h.state.link?.current.loadedVersion == "2" })
        #expect(h.loads.count == 1)
        #expect(h.state.generation == 2)

        // The same version announced again (a burst): no second reload.
        try h.notify("2")
        #expect(await Self.eventually { h.state.link?.current.changes == 2 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(h.loads.count == 1)
    }

    @Test func aLostLinkKeepsTheSnapshotAndTheReconnectionCatchesUp() async throws {
        let h = try Harness()
        let reloader = h.reloader
        let task = Task { try await reloader.run() }
        defer { task.cancel() }
        #expect(await Self.eventually { h.state.link?.current.connected == true })

        // The server ends the listener's connection; a change is committed meanwhile, unheard.
        h.version.set("5")
        try h.db.query(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(h.address.listenerName)
            """)
        // Reconnected (after 50 ms) and caught up with version 5 without any announcement.
        #expect(await Self.eventually { h.state.link?.current.loadedVersion == "5" })
        let status = try #require(h.state.link?.current)
        #expect(status.connected)
        #expect(status.reconnects == 1)
        #expect(h.loads.count == 1)
    }

    @Test func readinessAndMetricsSayWhenTheLinkIsDown() async throws {
        let (a, _) = try ReloadTests.snapshots()
        let link = StoreLink(store: "postgresql://geoq@127.0.0.1:1/geoq")
        link.loaded(version: "3", seconds: 0)
        link.lost("the PostgreSQL server of postgresql://geoq@127.0.0.1:1/geoq cannot be reached: refused")
        let state = ServiceState(a, link: link)
        let metrics = RequestMetrics(more: { link.exposition() })
        let fixture = TrackingFixture()
        let admin = try fixture.key("ops", [.admin])
        let router = Routes.router(state: state, metrics: metrics, tracking: fixture.tracking)
        try await Application(router: router).test(.router) { client in
            // Stale, to anyone; why (the error names the store's address), to an admin only.
            for key in [nil, admin] {
                try await client.execute(uri: "/readyz", method: .get, headers: TrackingFixture.bearer(key)) {
                    response in
                    #expect(response.status == .ok)
                    let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    #expect(body?["status"] as? String == "stale")
                    #expect(body?["storeVersion"] as? String == "3")
                    let storeLink = body?["storeLink"] as? [String: Any]
                    #expect(storeLink?["connected"] as? Bool == false)
                    let error = storeLink?["lastError"] as? String
                    #expect(key == nil ? error == nil : error?.contains("cannot be reached") == true)
                    #expect((body?["store"] != nil) == (key != nil))
                }
            }
            try await client.execute(uri: "/metrics", method: .get, headers: TrackingFixture.bearer(admin)) {
                response in
                let text = String(buffer: response.body)
                #expect(text.contains("geoq_store_connected 0\n"))
                #expect(text.contains("geoq_snapshot_reloads_total{result=\"ok\"} 1\n"))
            }
        }
        // Before any snapshot, a replica that cannot reach its store is not ready, and says why.
        let empty = ServiceState(nil, link: link)
        try await Application(router: Routes.router(state: empty)).test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("cannot be reached"))
            }
        }
    }
}
