import Foundation
import GeoqTestSupport
import Synchronization
import Testing

@testable import GeoqPostGIS

/// The change listener against the private cluster: notifications arrive with their version,
/// a lost connection is reported and followed by a reconnection, and an unreachable server is
/// retried with growing waits.
@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct ChangeListenerTests {
    /// Events as they arrive, for a test to wait on.
    final class Recorder: Sendable {
        let events = Mutex<[ChangeListener.Event]>([])

        func record(_ event: ChangeListener.Event) { events.withLock { $0.append(event) } }

        /// Waits (up to `seconds`) until `predicate` holds for the events so far.
        func wait(seconds: Double = 60, until predicate: ([ChangeListener.Event]) -> Bool) async -> [ChangeListener
            .Event]
        {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < deadline {
                let now = events.withLock { $0 }
                if predicate(now) { return now }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return events.withLock { $0 }
        }
    }

    func address() throws -> PostgresAddress {
        try PostgresAddress(parsing: try #require(TestPostgres.address(schema: "listen")))
    }

    @Test func reportsConnectedThenEachVersion() async throws {
        let address = try address()
        let recorder = Recorder()
        let listener = ChangeListener(address: address)
        let task = Task { await listener.run { recorder.record($0) } }
        defer { task.cancel() }
        _ = await recorder.wait { $0.contains(.connected) }

        let db = try PGConnection.connect(to: address)
        try db.query("SELECT pg_notify(\(address.changesChannel), '41')")
        try db.transaction { try db.query("SELECT pg_notify(\(address.changesChannel), '42')") }
        let events = await recorder.wait { $0.contains(.changed(version: "42")) }
        #expect(events == [.connected, .changed(version: "41"), .changed(version: "42")])
    }

    @Test func aRolledBackChangeIsNotAnnounced() async throws {
        let address = try address()
        let recorder = Recorder()
        let task = Task { await ChangeListener(address: address).run { recorder.record($0) } }
        defer { task.cancel() }
        _ = await recorder.wait { $0.contains(.connected) }
        let db = try PGConnection.connect(to: address)
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try db.transaction {
                try db.query("SELECT pg_notify(\(address.changesChannel), '7')")
                throw Abandon()
            }
        }
        try db.query("SELECT pg_notify(\(address.changesChannel), '8')")
        let events = await recorder.wait { $0.contains(.changed(version: "8")) }
        #expect(events == [.connected, .changed(version: "8")])
    }

    @Test func reconnectsAfterTheServerEndsTheConnection() async throws {
        let address = try address()
        let recorder = Recorder()
        let listener = ChangeListener(address: address, initialBackoff: .milliseconds(50))
        let task = Task { await listener.run { recorder.record($0) } }
        defer { task.cancel() }
        _ = await recorder.wait { $0.contains(.connected) }

        // The listener's backend, found by the application name it gives.
        let db = try PGConnection.connect(to: address)
        let ended = try db.query(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(address.listenerName)
            """)
        #expect(ended.count == 1)
        let events = await recorder.wait { $0.filter { $0 == .connected }.count == 2 }
        #expect(events.count == 3)
        guard events.count == 3, case .disconnected(let error, let wait) = events[1] else {
            Issue.record("expected connected, disconnected, connected; got \(events)")
            return
        }
        #expect(error.isTransient)
        #expect(wait == .milliseconds(50))
        // And it still hears changes.
        try db.query("SELECT pg_notify(\(address.changesChannel), '9')")
        let later = await recorder.wait { $0.contains(.changed(version: "9")) }
        #expect(later.last == .changed(version: "9"))
    }

    @Test func anUnreachableServerIsRetriedWithGrowingWaits() async throws {
        var address = try address()
        address.port = try FreePort.next()
        let recorder = Recorder()
        let listener = ChangeListener(
            address: address, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(80))
        let task = Task { await listener.run { recorder.record($0) } }
        let events = await recorder.wait { $0.count >= 4 }
        task.cancel()
        let waits = events.prefix(4).compactMap { event -> Duration? in
            guard case .disconnected(let error, let wait) = event, case .unreachable = error else { return nil }
            return wait
        }
        #expect(waits == [.milliseconds(20), .milliseconds(40), .milliseconds(80), .milliseconds(80)])
    }
}
