import Foundation
import GeoqAPI
import GeoqHooks
import GeoqLayers
import GeoqPostGIS
import GeoqStore
import GeoqTestSupport
import GeoqTracking
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import GeoqServer

/// Replicas sharing one PostgreSQL store: two fix ingests fed the same devices give the events
/// one ingest gives on a GeoPackage, sequences in commit order; two sweeps end each silent stay
/// once; two delivery loops POST each outbox row once, and a row claimed by a replica that died
/// is delivered by the other once its lease runs out.
@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct SharedTrackingTests {
    static let layer = "pamplona-sectors"
    static var data: ServiceData { FixesRouteTests.data }

    /// A fresh schema's store; each call is a replica of its own (its own connections).
    func replicas(_ count: Int) throws -> [TrackingStore] {
        let address = try StoreAddress(
            parsing: try #require(TestPostgres.address(schema: "shared")), sharedBackend: PostGISBackend.self)
        return (0..<count).map { _ in TrackingStore(address: address) }
    }

    /// Six cars, each parked in Sector 2 for a different time and then driving off (the seeded
    /// trace of `FixesRouteTests`), as NDJSON batches of 40 fixes per car.
    static func batches() throws -> [[String]] {
        try (0..<6).map { car in
            let lines = try FixesRouteTests.trace(parkedSeconds: 300 + 90 * car).ndjson
                .replacingOccurrences(of: #""device":"car-1""#, with: #""device":"car-\#(car)""#)
                .split(separator: "\n")
            return stride(from: 0, to: lines.count, by: 40).map {
                lines[$0..<min($0 + 40, lines.count)].joined(separator: "\n")
            }
        }
    }

    /// Each device's events as `kind feature time reason`, in sequence order.
    static func byDevice(_ records: [EventRecord]) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for record in records.sorted(by: { $0.sequence < $1.sequence }) {
            let body = try #require(try JSONSerialization.jsonObject(with: record.event.body) as? [String: Any])
            out[record.event.device, default: []].append(
                [body["event"], body["featureID"], body["time"], body["reason"]].map { "\($0 ?? "-")" }.joined(
                    separator: " "))
        }
        return out
    }

    static func ingest(_ fixes: FixIngest, _ ndjson: String) async throws {
        let batch = FixReader.read(Data(ndjson.utf8))
        #expect(batch.errors.isEmpty)
        _ = try await fixes.ingest(batch, tenant: defaultTenant, layer: layer, data: data)
    }

    @Test func twoReplicasGiveTheEventsOfOneWithSequencesInCommitOrder() async throws {
        let batches = try Self.batches()
        // The reference: one ingest over a GeoPackage, each car's batches in order.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-shared-\(UUID()).gpkg")
        defer { try? FileManager.default.removeItem(at: file) }
        let single = TrackingStore(storeFile: file)
        let one = FixIngest(store: single)
        for car in batches { for batch in car { try await Self.ingest(one, batch) } }
        let expected = try Self.byDevice(try single.events(tenant: nil, since: 0, limit: 10_000))
        #expect(expected.count == 6)
        #expect(expected.values.allSatisfy { $0.map { $0.split(separator: " ")[0] }.contains("parked") })

        // Two replicas: each car's batches alternate between them, and two batches in three are
        // also sent to the other one at once (a retry after a timeout), so that both replicas
        // advance the same devices at the same moment. A reader pulls events as they
        // are committed, as a client of /v1/events would.
        let stores = try replicas(3)
        let ingests = [FixIngest(store: stores[0]), FixIngest(store: stores[1])]
        let writersDone = Mutex(false)
        let done = Task {
            defer { writersDone.withLock { $0 = true } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (car, carBatches) in batches.enumerated() {
                    group.addTask {
                        for (k, batch) in carBatches.enumerated() {
                            let first = ingests[(k + car) % 2]
                            if k % 3 != 1 {
                                async let a: Void = Self.ingest(first, batch)
                                async let b: Void = Self.ingest(ingests[(k + car + 1) % 2], batch)
                                _ = try await (a, b)
                            } else {
                                try await Self.ingest(first, batch)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var pulled: [EventRecord] = []
        while true {
            // Read once more after the writers are done, to see their last commits.
            let finished = writersDone.withLock { $0 }
            pulled += try stores[2].events(tenant: nil, since: pulled.last?.sequence ?? 0, limit: 10_000)
            if finished { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await done.value

        let all = try stores[2].events(tenant: nil, since: 0, limit: 10_000)
        // Nothing committed behind the reader's back: it saw every event.
        #expect(pulled.map(\.sequence) == all.map(\.sequence))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(try Self.byDevice(all) == expected)
        // The tracks agree too: every car ended outside, its last fix the trace's last.
        #expect(try stores[0].tracks(tenant: nil, layer: Self.layer).count == 6)
    }

    /// A store whose tracks an older geoq kept as JSON in a `json` column: the column becomes
    /// `bytea` in place, the JSON track is read on, and the next fix stores the track's record.
    @Test func tracksKeptAsJSONAreReadOn() async throws {
        let address = try #require(TestPostgres.address(schema: "oldtracks"))
        let parts = address.components(separatedBy: "schema=")
        let (server, schema) = (String(parts[0].dropLast()), parts[1])
        func psql(_ sql: String) throws -> String {
            let rows = try TestPostgres.psql(server, sql)
            #expect(rows != nil, "\(sql)")
            return (rows ?? []).joined(separator: "\n")
        }
        let trace = try FixesRouteTests.trace(parkedSeconds: 300).ndjson.split(separator: "\n")
        let fixes = FixReader.read(Data(trace.prefix(30).joined(separator: "\n").utf8)).fixes
        let database = try StoreAddress(parsing: address, sharedBackend: PostGISBackend.self)
        let fencer = try FixIngest(store: TrackingStore(address: database))
            .geofencer(layer: Self.layer, data: Self.data)
        var track: DeviceTrack?
        for fix in fixes.dropLast() { _ = fencer.advance(&track, with: fix) }
        let json = String(decoding: try JSONEncoder().encode(try #require(track)), as: UTF8.self)
        _ = try psql(
            """
            CREATE SCHEMA \(schema);
            CREATE TABLE \(schema).geoq_tracks (
              tenant text NOT NULL DEFAULT 'default', device text NOT NULL, layer text NOT NULL, state json,
              updated timestamptz NOT NULL, PRIMARY KEY (tenant, device, layer));
            INSERT INTO \(schema).geoq_tracks VALUES ('default', 'car-1', '\(Self.layer)', '\(json)', now());
            """)

        let store = TrackingStore(address: database)
        let rows = try store.tracks(tenant: nil)
        #expect(try rows.map { try DeviceTrack(storage: $0.state) } == [track])
        #expect(
            try psql(
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                    + "WHERE attrelid = '\(schema).geoq_tracks'::regclass AND attname = 'state'") == "bytea")
        let last = try #require(fixes.last)
        var expected = track
        _ = fencer.advance(&expected, with: last)
        let ingest = FixIngest(store: store)
        try await Self.ingest(ingest, String(trace[29]))
        #expect(try psql("SELECT get_byte(state, 0) FROM \(schema).geoq_tracks") == "1")
        #expect(try store.tracks(tenant: nil).map { try DeviceTrack(storage: $0.state) } == [expected])
    }

    @Test func twoSweepsAtOnceEndEachSilentStayOnce() async throws {
        let batches = try Self.batches()
        let stores = try replicas(2)
        let ingests = [FixIngest(store: stores[0]), FixIngest(store: stores[1])]
        // Each car's first 40 fixes: inside Sector 2, then silent.
        for (car, carBatches) in batches.enumerated() { try await Self.ingest(ingests[car % 2], carBatches[0]) }
        let entered = try Self.byDevice(try stores[0].events(tenant: nil, since: 0, limit: 1000))
        #expect(entered.count == 6)
        #expect(entered.values.allSatisfy { $0.first?.hasPrefix("enter 2 ") == true })
        let before = try stores[0].events(tenant: nil, since: 0, limit: 1000).last?.sequence ?? 0

        let later = Date(timeIntervalSince1970: 1_795_420_800 + 3600)
        async let a: Void = ingests[0].sweep(data: Self.data, now: later)
        async let b: Void = ingests[1].sweep(data: Self.data, now: later)
        _ = try await (a, b)
        // And once more, as the next round of sweeps would: nothing left to end.
        try await ingests[1].sweep(data: Self.data, now: later.addingTimeInterval(15))

        let ended = try stores[0].events(tenant: nil, since: before, limit: 1000)
        #expect(ended.count == 6)
        #expect(Set(ended.map(\.event.device)) == Set((0..<6).map { "car-\($0)" }))
        let kinds = try Self.byDevice(ended).values.map { $0.map { $0.split(separator: " ")[0] } }
        #expect(kinds.allSatisfy { $0 == ["exit"] })
        #expect(try Self.byDevice(ended).values.allSatisfy { $0.first?.hasSuffix(" silent") == true })
    }

    static func event(_ n: Int) -> StoredEvent {
        StoredEvent(
            tenant: defaultTenant, device: "car-\(n % 7)", layer: layer, kind: "enter",
            body: Data(#"{"device":"car-\#(n % 7)","n":\#(n)}"#.utf8))
    }

    /// Runs `deliveries` while `body` runs, then stops them.
    func running(_ deliveries: [HookDelivery], _ body: () async throws -> Void) async throws {
        let tasks = deliveries.map { delivery in Task { await delivery.run() } }
        defer { for task in tasks { task.cancel() } }
        try await body()
        for task in tasks {
            task.cancel()
            await task.value
        }
    }

    func eventually(_ done: () throws -> Bool) async throws {
        for _ in 0..<1200 where try !done() { try await Task.sleep(for: .milliseconds(50)) }
    }

    @Test func twoDeliveryLoopsPostEachRowOnce() async throws {
        let receiver = HookDeliveryTests.Receiver()
        let stores = try replicas(2)
        try await Application(router: receiver.router).test(.live) { client in
            let hook = try stores[0].addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/ok")
            let options = DeliveryOptions(
                destinations: .loopbackReceivers,
                // A timeout no busy test machine reaches: a POST that timed out would be sent again
                // (at least once), which is not what this test is about.
                timeout: .seconds(60), backoffBase: .milliseconds(20), backoffCap: .milliseconds(100), maxAttempts: 5,
                sweepInterval: .milliseconds(100), lease: .seconds(600))
            let deliveries = stores.map { HookDelivery(store: $0, options: options) }
            try await running(deliveries) {
                for round in 0..<8 {
                    try stores[round % 2].commit(tracks: [], events: (0..<5).map { Self.event(round * 5 + $0) })
                    deliveries[round % 2].wake()
                }
                try await eventually { try stores[1].stats().delivered == 40 }
            }
            let keys = receiver.requests("/ok").map(\.key)
            let sequences = try stores[0].outbox(hook: hook.id).map(\.sequence)
            #expect(sequences.count == 40)
            #expect(keys.sorted() == sequences.map { "\(hook.id)-\($0)" }.sorted())
            #expect(Set(keys).count == keys.count)
            #expect(deliveries.map { $0.metrics.count(.delivered) }.reduce(0, +) == 40)
            #expect(try stores[0].outbox(hook: hook.id).allSatisfy { $0.state == .delivered && $0.attempts == 1 })
        }
    }

    @Test func aClaimWhoseOwnerDiedIsDeliveredByAnotherOnceItsLeaseRunsOut() async throws {
        let receiver = HookDeliveryTests.Receiver()
        let stores = try replicas(2)
        try await Application(router: receiver.router).test(.live) { client in
            let hook = try stores[0].addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(client.port!)/ok")
            try stores[0].commit(tracks: [], events: (0..<3).map(Self.event))
            // A replica claims the three and dies before posting them.
            let now = Date()
            let claimed = try stores[0].claim(hook: hook.id, now: now, lease: .seconds(2), limit: 10)
            #expect(claimed.map(\.sequence) == [1, 2, 3])
            #expect(claimed.allSatisfy { $0.nextAttempt > now })
            // While the lease holds, no one else may take them.
            #expect(try stores[1].claim(hook: hook.id, now: now, lease: .seconds(2), limit: 10).isEmpty)

            let options = DeliveryOptions(
                destinations: .loopbackReceivers, timeout: .seconds(5), backoffBase: .milliseconds(20),
                backoffCap: .milliseconds(100), maxAttempts: 5,
                sweepInterval: .milliseconds(100), lease: .seconds(30))
            let survivor = HookDelivery(store: stores[1], options: options)
            try await running([survivor]) {
                try await eventually { try stores[1].stats().delivered == 3 }
            }
            #expect(receiver.requests("/ok").map(\.key) == ["\(hook.id)-1", "\(hook.id)-2", "\(hook.id)-3"])
            #expect(try stores[1].outbox(hook: hook.id).allSatisfy { $0.state == .delivered && $0.attempts == 1 })
        }
    }
}
