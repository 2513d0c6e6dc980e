import Foundation
import GeoqLayers
import GeoqStore
import GeoqTracking
import Testing

@testable import GeoqServer

/// A service started again on a GeoPackage reads only the devices it needs (open stays, devices
/// heard from lately) and still knows the others: the sweep ends the stay left open, the
/// tenant's cap counts every stored device, and a device not read at the start goes on from
/// its stored track at its next fix.
@Suite struct FixIngestRestartTests {
    static let layer = "pamplona-sectors"

    static func fix(_ device: String, _ time: Date, _ lat: Double, _ lon: Double) -> String {
        #"{"device":"\#(device)","time":"\#(ISO8601DateFormatter().string(from: time))","lat":\#(lat),"lon":\#(lon),"accuracy":10}"#
    }

    /// One fix of `walker-1` at `time`, outside every sector, for the tenant acme.
    static func walkerFix(_ time: Date, to ingest: FixIngest) async throws -> FixIngest.Outcome {
        try await ingest.ingest(
            FixReader.read(Data(fix("walker-1", time, 42.70, -1.90).utf8)), tenant: "acme", layer: layer,
            data: FixesRouteTests.data)
    }

    @Test func aRestartedServiceKnowsEveryStoredDevice() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-restart-\(UUID()).gpkg")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        }
        let limits = TrackingLimits(maxDevicesPerTenant: 3, idleInMemory: .seconds(60))
        let data = FixesRouteTests.data
        let parkedTrace = try FixesRouteTests.trace(parkedSeconds: 300).ndjson.split(separator: "\n").prefix(100)
        let started = try #require(FixReader.read(Data(parkedTrace.joined(separator: "\n").utf8)).fixes.first).time
        let walkers = [
            Self.fix("walker-1", started, 42.70, -1.90), Self.fix("walker-2", started, 42.71, -1.91),
        ].joined(separator: "\n")

        let before = FixIngest(store: TrackingStore(storeFile: file), limits: limits)
        for body in [parkedTrace.joined(separator: "\n"), walkers] {
            let outcome = try await before.ingest(
                FixReader.read(Data(body.utf8)), tenant: "acme", layer: Self.layer, data: data)
            #expect(outcome.errors.isEmpty)
        }
        #expect(try TrackingStore(storeFile: file).tracks(tenant: "acme").map(\.open) == [true, false, false])

        // Started again, hours later: only the open stay is read; the sweep ends it.
        let after = FixIngest(store: TrackingStore(storeFile: file), limits: limits)
        try await after.sweep(data: data, now: started + 7_200)
        let events = try TrackingStore(storeFile: file).events(tenant: "acme", since: 0, limit: 100)
        #expect(events.last?.event.kind == "exit")
        #expect(String(decoding: try #require(events.last).event.body, as: UTF8.self).contains(#""reason":"silent""#))
        // The cap counts the walkers, which were not read.
        await #expect(throws: TrackingLimitError.self) {
            _ = try await after.ingest(
                FixReader.read(Data(Self.fix("walker-3", started + 10, 42.70, -1.90).utf8)), tenant: "acme",
                layer: Self.layer, data: data)
        }
        // A walker goes on from its stored track: a fix older than its last is ignored as such.
        let older = try await Self.walkerFix(started - 10, to: after)
        #expect(older.ignored == 1)
        let next = try await Self.walkerFix(started + 10, to: after)
        #expect(next.accepted == 1 && next.ignored == 0)
    }

    /// A device that left memory before the writer folded its track into the tracks' table is
    /// read back from the writer's unfolded tracks: it goes on from its last fix, with no fold
    /// of the log when it left.
    @Test func aDeviceThatLeftMemoryBeforeItsTrackWasFoldedGoesOnFromIt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "geoq-unfolded-\(UUID().uuidString).gpkg")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        }
        let data = FixesRouteTests.data
        let started = Date(timeIntervalSince1970: 1_780_000_000)
        let ingest = FixIngest(
            store: TrackingStore(storeFile: file), limits: TrackingLimits(idleInMemory: .seconds(60)),
            foldInterval: .seconds(3600))
        let walk = [Self.fix("walker-1", started, 42.70, -1.90), Self.fix("walker-1", started + 5, 42.70, -1.90)]
        _ = try await ingest.ingest(
            FixReader.read(Data(walk.joined(separator: "\n").utf8)), tenant: "acme", layer: Self.layer, data: data)
        // Silent for two hours: it leaves memory at the sweep; its track is still only in the log.
        try await ingest.sweep(data: data, now: started + 7_200)
        #expect(
            try TrackingStore(storeFile: file).connection().deviceTracks(tenant: "acme", devices: ["walker-1"]).isEmpty)
        let older = try await Self.walkerFix(started + 3, to: ingest)
        #expect(older.ignored == 1)
        let next = try await Self.walkerFix(started + 10, to: ingest)
        #expect(next.accepted == 1 && next.ignored == 0)
    }
}
