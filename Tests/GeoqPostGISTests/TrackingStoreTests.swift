import Foundation
import GeoqLayers
import GeoqPostGIS
import GeoqStore
import GeoqTestSupport
import Testing

/// The tracking tables: one transaction for tracks, events and outbox rows, the hooks' filters,
/// and a reopened store carrying on where it was. Each case runs on a GeoPackage and, when the
/// test cluster is there, on PostgreSQL (a schema of its own per case).
@Suite struct TrackingStoreTests {
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case geoPackage, postgreSQL
        var testDescription: String { rawValue }

        /// The backends to run: PostgreSQL only when the test cluster is named.
        static var available: [Backend] { TestPostgres.available ? allCases : [.geoPackage] }
    }

    let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("geoq-tracking-\(UUID().uuidString)").appendingPathComponent("geoq.gpkg")
    let database = TestPostgres.address(schema: "tracking")

    /// The store of this case on `backend`; a second call gives the same store reopened.
    func store(_ backend: Backend) throws -> TrackingStore {
        switch backend {
        case .geoPackage: return TrackingStore(storeFile: file)
        case .postgreSQL:
            return TrackingStore(
                address: try StoreAddress(parsing: try #require(database), sharedBackend: PostGISBackend.self))
        }
    }

    func event(_ kind: String, device: String = "car-1", layer: String = "pamplona-sectors") -> StoredEvent {
        StoredEvent(
            tenant: defaultTenant, device: device, layer: layer, kind: kind,
            body: Data(#"{"event":"\#(kind)","device":"\#(device)"}"#.utf8))
    }

    /// The tables as a store written before tenants existed had them, filled with the database's
    /// own client (sqlite3, psql).
    func writeStoreFromBeforeTenants(_ backend: Backend) throws {
        let body = #"{"event":"enter","device":"car-1"}"#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        switch backend {
        case .geoPackage:
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = try GeoPackage.open(at: file.path, create: true)
            process.arguments = [
                "sqlite3", file.path,
                """
                CREATE TABLE geoq_tracks (device TEXT NOT NULL, layer TEXT NOT NULL, state BLOB NOT NULL,
                  updated REAL NOT NULL, PRIMARY KEY (device, layer));
                CREATE TABLE geoq_events (sequence INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL,
                  layer TEXT NOT NULL, kind TEXT NOT NULL, created REAL NOT NULL,
                  body BLOB NOT NULL CHECK (json_valid(body)));
                CREATE TABLE geoq_hooks (id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, layer TEXT,
                  events TEXT, created REAL NOT NULL);
                INSERT INTO geoq_tracks VALUES ('car-1', 'pamplona-sectors', '{}', 1795420800);
                INSERT INTO geoq_events (device, layer, kind, created, body)
                  VALUES ('car-1', 'pamplona-sectors', 'enter', 1795420800, '\(body)');
                INSERT INTO geoq_hooks (url, created) VALUES ('http://127.0.0.1:9/h', 1795420800);
                """,
            ]
        case .postgreSQL:
            let parts = try #require(database).components(separatedBy: "schema=")
            let (address, schema) = (String(parts[0].dropLast()), parts[1])
            process.arguments = [
                "psql", address, "-v", "ON_ERROR_STOP=1", "-qc",
                """
                CREATE SCHEMA \(schema);
                CREATE TABLE \(schema).geoq_tracks (device text NOT NULL, layer text NOT NULL, state json,
                  updated timestamptz NOT NULL, PRIMARY KEY (device, layer));
                CREATE TABLE \(schema).geoq_events (sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                  device text NOT NULL, layer text NOT NULL, kind text NOT NULL, created timestamptz NOT NULL,
                  body json NOT NULL);
                CREATE TABLE \(schema).geoq_hooks (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                  url text NOT NULL, layer text, events text[], created timestamptz NOT NULL);
                INSERT INTO \(schema).geoq_tracks VALUES ('car-1', 'pamplona-sectors', '{}', now());
                INSERT INTO \(schema).geoq_events (device, layer, kind, created, body)
                  VALUES ('car-1', 'pamplona-sectors', 'enter', now(), '\(body)');
                INSERT INTO \(schema).geoq_hooks (url, created) VALUES ('http://127.0.0.1:9/h', now());
                """,
            ]
        }
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// A store written before tenants existed opens with its tracks, events and hooks in the
    /// `default` tenant, nothing lost; the same device id in another tenant is another device.
    @Test(arguments: Backend.available) func aStoreFromBeforeTenantsOpensInTheDefaultTenant(_ backend: Backend)
        throws
    {
        try writeStoreFromBeforeTenants(backend)
        let store = try store(backend)
        #expect(try store.tracks(tenant: nil).map { "\($0.tenant) \($0.device)" } == ["default car-1"])
        // Written before stays were marked: taken as open, so that the next sweep looks at it.
        #expect(try store.tracks(tenant: nil).map(\.open) == [true])
        let events = try store.events(tenant: "default", since: 0, limit: 10)
        #expect(events.map(\.event.kind) == ["enter"] && events.first?.event.tenant == "default")
        #expect(try store.hooks(tenant: "default").map(\.url) == ["http://127.0.0.1:9/h"])
        #expect(try store.hooks(tenant: "acme").isEmpty)
        // A hook made before deliveries were signed gets a secret of its own, kept from then on.
        let secret = try #require(try store.hooks(tenant: "default").first?.secret)
        #expect(secret.hasPrefix("whsec_") && Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
        #expect(try self.store(backend).hooks(tenant: "default").first?.secret == secret)
        try store.commit(
            tracks: [TrackRow(tenant: "acme", device: "car-1", layer: "pamplona-sectors", state: Array("{}".utf8))],
            events: [])
        #expect(try store.tracks(tenant: nil).map(\.tenant).sorted() == ["acme", "default"])
        // Opened again: nothing moves twice.
        #expect(try self.store(backend).tracks(tenant: "default").count == 1)
    }

    /// A sweep is handed the open stays only (tracks in a feature), not every device ever seen;
    /// a service starting on a GeoPackage reads every layer of the devices with an open stay or
    /// heard from lately, and each tenant's device count.
    @Test(arguments: Backend.available) func sweepsAndStartsReadOpenStays(_ backend: Backend) throws {
        let store = try store(backend)
        let now = Date()
        func row(_ tenant: String, _ device: String, _ layer: String, open: Bool) -> TrackRow {
            TrackRow(tenant: tenant, device: device, layer: layer, state: Array("\(device)@\(layer)".utf8), open: open)
        }
        let old = [
            row("acme", "parked", "a", open: true), row("acme", "parked", "b", open: false),
            row("acme", "gone", "a", open: false), row("other", "gone", "a", open: false),
        ]
        try store.commit(tracks: old, events: [], now: now - 7_200)
        try store.commit(tracks: [row("acme", "driving", "a", open: false)], events: [], now: now)
        var swept: [String] = []
        try store.sweepLocked(now: now) { rows in
            swept = rows.map { "\($0.tenant) \($0.device) \($0.layer)" }
            return ([], [])
        }
        #expect(swept == ["acme parked a"])
        // Closed again by a later write.
        try store.commit(tracks: [row("acme", "parked", "a", open: false)], events: [], now: now - 7_200)
        try store.sweepLocked(now: now) { rows in
            #expect(rows.isEmpty)
            return ([], [])
        }
        #expect(try store.tracks(tenant: "acme", device: "parked").map(\.open) == [false, false])
        guard backend == .geoPackage else { return }
        try store.commit(tracks: [row("acme", "parked", "a", open: true)], events: [], now: now - 7_200)
        let starting = try store.startingTracks(activeSince: now - 900)
        #expect(
            Set(starting.map { "\($0.device) \($0.layer) \($0.open)" }) == [
                "parked a true", "parked b false", "driving a false",
            ])
        #expect(try store.deviceCounts() == ["acme": 3, "other": 1])
    }

    /// Devices read back at their next fix: their rows on every layer, of their tenant only, the
    /// same as the general query gives; many at once, across the statements they are read in.
    @Test func devicesTracksOfOneTenant() throws {
        let store = try store(.geoPackage)
        let rows = [
            ("acme", "car-1", "a"), ("acme", "car-1", "b"), ("acme", "car-2", "a"), ("other", "car-1", "a"),
        ].map { TrackRow(tenant: $0.0, device: $0.1, layer: $0.2, state: Array("{\"at\":\"\($0.2)\"}".utf8)) }
        try store.commit(tracks: rows, events: [])
        let found = try store.connection().deviceTracks(tenant: "acme", devices: ["car-1", "car-3"])
        #expect(found == ["car-1": [rows[0], rows[1]]])
        #expect(found["car-1"] == (try store.tracks(tenant: "acme", device: "car-1")))
        let many = (0..<1_200).map { "fleet-\($0)" }
        try store.commit(
            tracks: many.enumerated().filter { $0.offset % 3 != 0 }.map {
                TrackRow(tenant: "acme", device: $0.element, layer: "a", state: Array("\($0.offset)".utf8))
            }, events: [])
        let read = try store.connection().deviceTracks(tenant: "acme", devices: many)
        #expect(read.count == 800)
        for device in many {
            #expect(read[device] ?? [] == (try store.tracks(tenant: "acme", device: device)), "\(device)")
        }
    }

    /// A hook made with an idempotency key comes back, not twice, when the key comes again;
    /// another tenant's same key is its own; a disabled hook gets no more deliveries.
    @Test(arguments: Backend.available) func hooksByIdempotencyKeyAndDisabled(_ backend: Backend) throws {
        let store = try store(backend)
        let first = try store.addHook(
            tenant: "acme", url: "http://127.0.0.1:9/h", layer: nil, events: nil, idempotencyKey: "k1")
        let again = try store.addHook(
            tenant: "acme", url: "http://127.0.0.1:9/h", layer: nil, events: nil, idempotencyKey: "k1")
        let theirs = try store.addHook(
            tenant: "other", url: "http://127.0.0.1:9/h", layer: nil, events: nil, idempotencyKey: "k1")
        #expect(!first.replayed && again.replayed && again.hook.id == first.hook.id)
        #expect(again.hook.secret == first.hook.secret && again.hook.idempotencyKey == "k1")
        #expect(!theirs.replayed && theirs.hook.id != first.hook.id)
        #expect(try store.hooks(tenant: nil).count == 2)
        try store.disableHook(id: first.hook.id, reason: "gone")
        try store.commit(
            tracks: [],
            events: [
                StoredEvent(
                    tenant: "acme", device: "car-1", layer: "pamplona-sectors", kind: "enter",
                    body: Data("{}".utf8))
            ])
        #expect(try store.outbox(hook: first.hook.id).isEmpty)
        #expect(try store.hooks(tenant: "acme").first?.disabled != nil)
    }

    @Test(arguments: Backend.available) func aFailingCommitLeavesNothing(_ backend: Backend) throws {
        let store = try store(backend)
        let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/h")
        let bad = StoredEvent(
            tenant: defaultTenant, device: "car-1", layer: "pamplona-sectors", kind: "exit", body: Data("not json".utf8)
        )
        let error = #expect(throws: (any Error).self) {
            try store.commit(
                tracks: [
                    TrackRow(tenant: defaultTenant, device: "car-1", layer: "pamplona-sectors", state: Array("{}".utf8))
                ], events: [event("enter"), bad])
        }
        switch backend {
        case .geoPackage: #expect(error is StoreError)
        // 22P02: invalid text representation (the body is not JSON).
        case .postgreSQL: #expect(String(describing: error).contains("SQLSTATE 22P02"), "\(String(describing: error))")
        }
        #expect(try store.tracks(tenant: nil).isEmpty)
        #expect(try store.events(tenant: nil, since: 0, limit: 10).isEmpty)
        #expect(try store.outbox(hook: hook.id).isEmpty)
        #expect(try store.stats().pending == 0)
    }

    /// A batch is handed its devices' tracks in their order (nil for a device with none) and
    /// writes back, in the same order, only the tracks it returns (nil leaves one as it is).
    @Test(arguments: Backend.available) func aBatchHasItsDevicesTracksInTheirOrder(_ backend: Backend) throws {
        let store = try store(backend)
        let layer = "pamplona-sectors"
        try store.commit(
            tracks: [
                TrackRow(tenant: defaultTenant, device: "car-1", layer: layer, state: Array("a".utf8)),
                TrackRow(tenant: defaultTenant, device: "car-3", layer: layer, state: Array("c".utf8)),
            ], events: [])
        var handed: [String?] = []
        let sequences = try store.advanceLocked(
            tenant: defaultTenant, layer: layer, devices: ["car-2", "car-3", "car-1"]
        ) { tracks in
            handed = tracks.map { $0.map { String(decoding: $0.state, as: UTF8.self) } }
            return (
                [
                    StoredTrack(state: Array("b".utf8), open: true), nil,
                    StoredTrack(state: Array("a2".utf8), open: false),
                ],
                [event("enter", device: "car-2")]
            )
        }
        #expect(handed == [nil, "c", "a"])
        #expect(sequences.count == 1)
        let written = try store.tracks(tenant: defaultTenant).map {
            "\($0.device) \(String(decoding: $0.state, as: UTF8.self)) \($0.open)"
        }
        #expect(written == ["car-1 a2 false", "car-2 b true", "car-3 c false"])
        #expect(try store.events(tenant: defaultTenant, since: 0, limit: 10).map(\.event.device) == ["car-2"])
    }

    @Test(arguments: Backend.available) func eventsAndOutboxRowsAgree(_ backend: Backend) throws {
        let store = try store(backend)
        let all = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/all")
        let sequences = try store.commit(
            tracks: [
                TrackRow(
                    tenant: defaultTenant, device: "car-1", layer: "pamplona-sectors",
                    state: Array(#"{"visit":"v1"}"#.utf8))
            ],
            events: [event("enter"), event("dwell")])
        #expect(sequences == [1, 2])
        let events = try store.events(tenant: nil, since: 0, limit: 10)
        #expect(events.map(\.sequence) == [1, 2])
        #expect(events.map(\.event.kind) == ["enter", "dwell"])
        let outbox = try store.outbox(hook: all.id)
        #expect(outbox.map(\.sequence) == [1, 2])
        #expect(outbox.map(\.idempotencyKey) == ["\(all.id)-1", "\(all.id)-2"])
        #expect(outbox.map(\.body) == events.map(\.event.body))
        #expect(
            try store.tracks(tenant: defaultTenant, device: "car-1").map(\.state) == [Array(#"{"visit":"v1"}"#.utf8)])
        #expect(try store.events(tenant: nil, since: 1, limit: 10).map(\.sequence) == [2])
        #expect(try store.events(tenant: nil, since: 0, limit: 1).map(\.sequence) == [1])
    }

    @Test(arguments: Backend.available) func hooksGetOnlyTheirLayerAndKinds(_ backend: Backend) throws {
        let store = try store(backend)
        let parked = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/p", events: ["parked", "left"])
        let valencia = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/v", layer: "valencia-sections")
        let both = try store.addHook(
            tenant: defaultTenant, url: "http://127.0.0.1:9/b", layer: "pamplona-sectors", events: ["enter"])
        try store.commit(
            tracks: [],
            events: [
                event("enter"), event("parked"), event("enter", layer: "valencia-sections"),
                event("left", layer: "valencia-sections"),
            ])
        #expect(try store.outbox(hook: parked.id).map(\.sequence) == [2, 4])
        #expect(try store.outbox(hook: valencia.id).map(\.sequence) == [3, 4])
        #expect(try store.outbox(hook: both.id).map(\.sequence) == [1])
        #expect(try store.stats().pending == 5)
    }

    @Test(arguments: Backend.available) func deletingAHookBuriesItsPendingDeliveries(_ backend: Backend) throws {
        let store = try store(backend)
        let hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/h")
        try store.commit(tracks: [], events: [event("enter")])
        #expect(try store.deleteHook(tenant: nil, id: hook.id))
        #expect(try store.deleteHook(tenant: nil, id: hook.id) == false)
        #expect(try store.hooks(tenant: nil).isEmpty)
        let rows = try store.outbox(hook: hook.id)
        #expect(rows.map(\.state) == [.dead])
        #expect(rows.first?.lastError == "hook deleted")
        // Ids are never reused, so neither are idempotency keys.
        #expect(try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/h").id == hook.id + 1)
    }

    /// An ordered hook gets each device's events in order: while a device's earlier delivery
    /// waits for its retry, its later ones are not due (nor is the hook, nor its next due time),
    /// and another device's go on; a hook that is not ordered gets the later ones meanwhile.
    @Test(arguments: Backend.available) func anOrderedHookHoldsADevicesLaterEventsBehindItsEarlierOne(
        _ backend: Backend
    ) throws {
        let store = try store(backend)
        let committed = Date(timeIntervalSince1970: 1_750_000_000)
        let ordered = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/ordered", ordered: true)
        let plain = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/plain")
        #expect(try store.hooks(tenant: nil).map(\.ordered) == [true, false])
        try store.commit(
            tracks: [],
            events: [
                event("parked", device: "car-1"), event("left", device: "car-1"), event("enter", device: "car-2"),
            ],
            now: committed)
        // Two replicas claiming at once on PostgreSQL: one device's delivery in flight at a
        // time (the first claim takes each device's first event; the second finds the rest
        // held behind them). On a GeoPackage, one process, a claim is the due list.
        if backend == .postgreSQL {
            let claimed = try store.claim(hook: ordered.id, now: committed, lease: .seconds(30), limit: 10)
            #expect(claimed.map(\.sequence) == [1, 3])
            #expect(try store.claim(hook: ordered.id, now: committed, lease: .seconds(30), limit: 10).isEmpty)
            // The lease runs out unanswered: claimed again, the held one still held.
            let afterLease = committed.addingTimeInterval(31)
            #expect(
                try store.claim(hook: ordered.id, now: afterLease, lease: .seconds(30), limit: 10).map(\.sequence)
                    == [1, 3])
            for entry in try store.outbox(hook: ordered.id) where entry.sequence != 2 {
                try store.markFailed(entry.id, attempts: 0, nextAttempt: committed, error: "lease run out")
            }
        }
        let retry = committed.addingTimeInterval(60)
        for hook in [ordered, plain] {
            let first = try #require(try store.due(hook: hook.id, now: committed, limit: 10).first)
            #expect(first.sequence == 1)
            try store.markFailed(first.id, attempts: 1, nextAttempt: retry, error: "HTTP status 503")
        }
        // car-1's `left` waits behind its `parked`; car-2 goes on.
        #expect(try store.due(hook: ordered.id, now: committed, limit: 10).map(\.sequence) == [3])
        #expect(try store.due(hook: plain.id, now: committed, limit: 10).map(\.sequence) == [2, 3])
        let car2 = try #require(try store.due(hook: ordered.id, now: committed, limit: 10).first)
        try store.markDelivered(car2.id, attempts: 1)
        // Nothing of the ordered hook is due until the retry: not the hook, not its next time.
        #expect(try store.due(hook: ordered.id, now: committed, limit: 10).isEmpty)
        #expect(try store.dueHooks(now: committed, limit: 10).map(\.id) == [plain.id])
        #expect(try store.nextDue(hook: ordered.id) == retry)
        // At the retry, the `parked` alone; once it is delivered, the `left`.
        let atRetry = try store.due(hook: ordered.id, now: retry, limit: 10)
        #expect(atRetry.map(\.sequence) == [1])
        try store.markDelivered(atRetry[0].id, attempts: 2)
        #expect(try store.due(hook: ordered.id, now: retry, limit: 10).map(\.sequence) == [2])
    }

    @Test(arguments: Backend.available) func aReopenedStoreStillHasItsPendingDeliveriesDue(_ backend: Backend) throws {
        let committed = Date(timeIntervalSince1970: 1_750_000_000)
        let hook: Hook
        do {
            let store = try store(backend)
            hook = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:9/h")
            try store.commit(tracks: [], events: [event("enter"), event("exit")], now: committed)
            let first = try #require(try store.due(hook: hook.id, now: committed, limit: 10).first)
            try store.markFailed(
                first.id, attempts: 1, nextAttempt: committed.addingTimeInterval(60), error: "HTTP status 503")
        }
        let reopened = try store(backend)
        #expect(try reopened.due(hook: hook.id, now: committed, limit: 10).map(\.sequence) == [2])
        let later = try reopened.due(hook: hook.id, now: committed.addingTimeInterval(60), limit: 10)
        #expect(later.map(\.sequence) == [1, 2])
        #expect(later.map(\.attempts) == [1, 0])
        #expect(later.first?.lastError == "HTTP status 503")
        #expect(try reopened.nextDue(hook: hook.id) == committed)
        try reopened.markDelivered(later[1].id, attempts: 1)
        try reopened.markDead(later[0].id, attempts: 2, error: "HTTP status 500")
        let stats = try reopened.stats()
        #expect(stats.pending == 0 && stats.delivered == 1 && stats.dead == 1 && stats.oldestPending == nil)
        #expect(try reopened.nextDue(hook: hook.id) == nil)
    }
}
