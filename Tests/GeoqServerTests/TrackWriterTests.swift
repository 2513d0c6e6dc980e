import Dispatch
import Foundation
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Testing

@testable import GeoqServer

/// The GeoPackage's writer of tracks and events: batches that wait together share one
/// transaction, a device's last track of a group is the one kept, an erasure comes after the
/// writes handed over before it, and a failed commit fails every batch of it and every batch
/// applied on top of them, never some of one.
@Suite struct TrackWriterTests {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-writer-\(UUID()).gpkg")
    let store: TrackingStore
    /// Held while a test gathers a group, then let go.
    let queue = DispatchQueue(label: "test.track-writer")
    let writer: TrackWriter

    init() {
        store = TrackingStore(storeFile: file)
        writer = TrackWriter(store: store, queue: queue)
    }

    func track(_ device: String, _ state: String, tenant: String = "acme") -> TrackRow {
        TrackRow(tenant: tenant, device: device, layer: "squares", state: Array(state.utf8))
    }

    func event(_ device: String, body: String = #"{"event":"enter"}"#) -> StoredEvent {
        StoredEvent(tenant: "acme", device: device, layer: "squares", kind: "enter", body: Data(body.utf8))
    }

    /// Hands `writes` over in order while the writer's queue is held, and lets it go once all
    /// of them wait; returns each write's outcome, in the order given.
    typealias Write = (tracks: [TrackRow], events: [StoredEvent], failuresSeen: Int)

    func gathered(_ writes: [Write]) async -> [Result<Void, any Error>] {
        // Held once the queue has finished what it runs (the last drain may still be looking
        // for more jobs: it would take the first write at once, and `waiting` never grow).
        queue.sync {}
        queue.suspend()
        var tasks: [Task<Result<Void, any Error>, Never>] = []
        // One after another: each waits before the next is handed over, so the order is known.
        for (i, write) in writes.enumerated() {
            tasks.append(
                Task { [writer] in
                    do {
                        try await writer.write(
                            tracks: write.tracks, events: write.events, failuresSeen: write.failuresSeen)
                        return .success(())
                    } catch {
                        return .failure(error)
                    }
                })
            while writer.waiting < i + 1 { try? await Task.sleep(for: .milliseconds(1)) }
        }
        queue.resume()
        var outcomes: [Result<Void, any Error>] = []
        for task in tasks { outcomes.append(await task.value) }
        return outcomes
    }

    func stored() throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try store.tracks(tenant: nil) { out[row.device] = String(decoding: row.state, as: UTF8.self) }
        return out
    }

    @Test func batchesThatWaitTogetherShareOneCommit() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let writes: [Write] = (0..<40).map { i in ([track("car-\(i % 10)", "s\(i)")], [event("car-\(i % 10)")], 0) }
        let outcomes = await gathered(writes)
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
        #expect(writer.commits == 1)
        // Each device's last track of the group; every event, in the order handed over.
        #expect(try stored() == Dictionary(uniqueKeysWithValues: (30..<40).map { ("car-\($0 % 10)", "s\($0)") }))
        let events = try store.events(tenant: "acme", since: 0, limit: 100)
        #expect(events.map(\.event.device) == writes.map { $0.tracks[0].device })
        // The store took a write-ahead log, and keeps it for every later connection.
        let mode = try GeoPackage.open(at: file.path, create: false).journalMode()
        #expect(mode == "wal")
    }

    @Test func aFailedCommitFailsItsBatchesAndThoseAppliedOnThem() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        // The second batch's event is not JSON: the store refuses the whole transaction.
        let outcomes = await gathered([
            ([track("car-1", "a")], [event("car-1")], 0),
            ([track("car-2", "b")], [event("car-2", body: "not json")], 0),
            ([track("car-3", "c")], [], 0),
        ])
        #expect(outcomes.allSatisfy { (try? $0.get()) == nil })
        #expect(writer.failures == 1)
        #expect(try stored().isEmpty)
        // Applied before the failure was known (it saw no failure): refused, never written.
        let late = await gathered([([track("car-1", "d")], [], 0), ([track("car-4", "e")], [], 1)])
        #expect(throws: TrackWriterError.self) { try late[0].get() }
        #expect((try? late[1].get()) != nil)
        #expect(try stored() == ["car-4": "e"])
    }

    @Test func anErasureComesAfterTheWritesBeforeIt() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        queue.suspend()
        let before = Task { [writer] in
            try await writer.write(tracks: [track("car-1", "a")], events: [event("car-1")], failuresSeen: 0)
        }
        while writer.waiting < 1 { try? await Task.sleep(for: .milliseconds(1)) }
        let erasure = Task { [writer] in try await writer.erase(tenant: "acme", device: "car-1") }
        while writer.waiting < 2 { try? await Task.sleep(for: .milliseconds(1)) }
        let after = Task { [writer] in
            try await writer.write(tracks: [track("car-1", "b")], events: [], failuresSeen: 0)
        }
        while writer.waiting < 3 { try? await Task.sleep(for: .milliseconds(1)) }
        queue.resume()
        try await before.value
        let erased = try await erasure.value
        try await after.value
        #expect(erased == Erasure(tracks: 1, events: 1, deliveries: 0))
        #expect(try stored() == ["car-1": "b"])
        #expect(try store.events(tenant: "acme", since: 0, limit: 10).isEmpty)
        #expect(try await writer.deviceCount(tenant: "acme") == 1)
    }

    /// The table itself, read with sqlite3 (no fold first).
    func table() throws -> [String: String] {
        let text = try ExternalTool.run(
            "/usr/bin/sqlite3", [file.path, "SELECT device, CAST(state AS TEXT) FROM geoq_tracks"])
        var rows: [String: String] = [:]
        for line in text.output.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
            rows[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return rows
    }

    /// `foldShare` 0: the fold goes along no commit once it has begun, and is finished by the
    /// slices written while nothing waits.
    @Test(arguments: [0.25, 0])
    func theLogIsFoldedInSlicesBetweenCommitsAndWholeOnRequest(foldShare: Double) async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        // A fold as soon as anything is logged, two tracks a slice.
        let writer = TrackWriter(store: store, foldInterval: .zero, foldSlice: 2, foldShare: foldShare)
        for round in 0..<3 {
            try await writer.write(
                tracks: (0..<5).map { track("car-\($0)", "r\(round)") }, events: [], failuresSeen: 0)
        }
        // Slices follow the commits until the plans are written (a plan is sorted off the
        // writer's queue, then written two tracks at a time, without waiting for more writes).
        for _ in 0..<400 where try table() != Dictionary(uniqueKeysWithValues: (0..<5).map { ("car-\($0)", "r2") }) {
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(try table() == Dictionary(uniqueKeysWithValues: (0..<5).map { ("car-\($0)", "r2") }))
        // A fold on request, after the writes handed over before it: the table holds them at once.
        let slow = TrackWriter(store: store, foldInterval: .seconds(3600))
        try await slow.write(tracks: [track("car-1", "last")], events: [], failuresSeen: 0)
        #expect(try table()["car-1"] == "r2")
        try await slow.fold()
        #expect(try table()["car-1"] == "last")
    }
}
