import Foundation
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Testing

/// The tracks' log of a GeoPackage: tracks committed to it reach the tracks' table at a fold,
/// each device's latest; everything that reads or changes the table folds it first; a fold
/// planned before another connection folded the log writes nothing. The table is read with
/// sqlite3, geoq's code having no part in the reading.
@Suite struct TrackLogTests {
    let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("geoq-track-log-\(UUID().uuidString)").appendingPathComponent("geoq.gpkg")

    func tables() throws -> TrackingTables { try TrackingStore(storeFile: file).connection() }

    func row(_ device: String, _ state: String, open: Bool = false) -> TrackRow {
        TrackRow(tenant: "acme", device: device, layer: "pamplona-sectors", state: Array(state.utf8), open: open)
    }

    /// `sql`'s rows as sqlite3 prints them (`|` between columns).
    func sqlite(_ sql: String) throws -> [String] {
        try ExternalTool.run("/usr/bin/sqlite3", [file.path, sql]).output.split(separator: "\n").map(String.init)
    }

    var table: [String] {
        get throws { try sqlite("SELECT device, CAST(state AS TEXT), open FROM geoq_tracks ORDER BY device") }
    }

    @Test func aFoldWritesEachDevicesLatestTrackAndEmptiesTheLog() throws {
        let writer = try tables()
        try writer.commitLogged(batches: [[row("car-1", "a1"), row("car-2", "b1", open: true)]], events: [])
        try writer.commitLogged(batches: [[row("car-1", "a2", open: true)]], events: [])
        #expect(try table == [])
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["2"])
        // A listing from another connection folds first.
        let listed = try tables().tracks(tenant: "acme")
        #expect(listed.map(\.device) == ["car-1", "car-2"])
        #expect(listed.map { String(decoding: $0.state, as: UTF8.self) } == ["a2", "b1"])
        #expect(try table == ["car-1|a2|1", "car-2|b1|1"])
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["0"])
    }

    @Test func startCountsAndErasureSeeLoggedTracks() throws {
        let writer = try tables()
        try writer.commitLogged(batches: [[row("car-1", "a1", open: true), row("car-2", "b1")]], events: [])
        #expect(try tables().deviceCounts() == ["acme": 2])
        try writer.commitLogged(batches: [[row("car-3", "c1", open: true)]], events: [])
        #expect(try tables().startingTracks(activeSince: .distantFuture).map(\.device).sorted() == ["car-1", "car-3"])
        try writer.commitLogged(batches: [[row("car-1", "a2")]], events: [])
        let erased = try tables().erase(tenant: "acme", device: "car-1")
        #expect(erased.tracks == 1)
        #expect(try table == ["car-2|b1|0", "car-3|c1|1"])
        #expect(try tables().deviceCount(tenant: "acme") == 2)
    }

    @Test func aDirectCommitIsNotOverwrittenByAnOlderLoggedTrack() throws {
        try tables().commitLogged(batches: [[row("car-1", "logged")]], events: [])
        try tables().commit(tracks: [row("car-1", "direct")], events: [])
        #expect(try tables().tracks(tenant: "acme").map { String(decoding: $0.state, as: UTF8.self) } == ["direct"])
        #expect(try table == ["car-1|direct|0"])
    }

    @Test func aPlanIsWrittenInSlicesAndCutsOnlyWhatItFolded() throws {
        let writer = try tables()
        try writer.commitLogged(batches: [[row("car-3", "c1"), row("car-1", "a1"), row("car-2", "b1")]], events: [])
        let plan = try writer.planFold()
        #expect(plan.tracks.map(\.row.device) == ["car-1", "car-2", "car-3"])
        // A commit after the plan: its row stays in the log.
        try writer.commitLogged(batches: [[row("car-1", "a2")]], events: [])
        let left = try #require(try writer.applyFold(plan, count: 2))
        #expect(left.applied == 2)
        #expect(try table == ["car-1|a1|0", "car-2|b1|0"])
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["2"], "nothing cut before the last slice")
        #expect(try writer.applyFold(left, count: 2) == nil)
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["1"])
        #expect(
            try tables().tracks(tenant: "acme").map { String(decoding: $0.state, as: UTF8.self) } == ["a2", "b1", "c1"])
    }

    @Test func aGroupCommitCarriesTheFoldsNextSliceAndItsEnd() throws {
        let writer = try tables()
        try writer.commitLogged(batches: [[row("car-2", "b1"), row("car-1", "a1"), row("car-3", "c1")]], events: [])
        let plan = try writer.planFold()
        let first = try writer.commitLogged(
            batches: [[row("car-1", "a2")]], events: [], continuing: plan, foldCount: 2)
        let left = try #require(first.fold)
        #expect(left.applied == 2)
        #expect(try table == ["car-1|a1|0", "car-2|b1|0"], "the plan's first two, beside the commit's own log row")
        let second = try writer.commitLogged(
            batches: [[row("car-3", "c2")]], events: [], continuing: left, foldCount: 2)
        #expect(second.fold == nil)
        #expect(try table == ["car-1|a1|0", "car-2|b1|0", "car-3|c1|0"])
        // The folded log row is cut, the two commits' own rows (logged after the plan) are not.
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["2"])
        #expect(
            try tables().tracks(tenant: "acme").map { String(decoding: $0.state, as: UTF8.self) } == ["a2", "b1", "c2"])
    }

    @Test func aGroupCommitThatFailsLeavesTheFoldWhereItWas() throws {
        let writer = try tables()
        try writer.commitLogged(batches: [[row("car-1", "a1"), row("car-2", "b1")]], events: [])
        let plan = try writer.planFold()
        // The fold's last step, cutting the log, fails after its tracks were written.
        _ = try sqlite("CREATE TRIGGER kept BEFORE DELETE ON geoq_track_log BEGIN SELECT RAISE(ABORT, 'kept'); END")
        #expect(throws: StoreError.self) {
            try writer.commitLogged(batches: [[row("car-3", "c1")]], events: [], continuing: plan, foldCount: 2)
        }
        #expect(try table == [], "the slice was rolled back with the commit")
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["1"], "and the commit's own log row")
        // The same plan is carried by the next commit, once the log can be cut.
        _ = try sqlite("DROP TRIGGER kept")
        let again = try writer.commitLogged(
            batches: [[row("car-3", "c1")]], events: [], continuing: plan, foldCount: 2)
        #expect(again.fold == nil)
        #expect(try table == ["car-1|a1|0", "car-2|b1|0"])
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["1"])
    }

    @Test func aPlanOvertakenByAnotherConnectionsFoldWritesNothing() throws {
        let writer = try tables()
        try writer.commitLogged(batches: [[row("car-1", "a1")]], events: [])
        let plan = try writer.planFold()
        try writer.commitLogged(batches: [[row("car-1", "a2")]], events: [])
        try tables().foldTrackLog()
        #expect(try table == ["car-1|a2|0"])
        #expect(try writer.applyFold(plan, count: 10) == nil)
        #expect(try table == ["car-1|a2|0"], "the older track did not land over the newer")
    }

    @Test func aMalformedLogRowIsAnErrorNamingTheTable() throws {
        try tables().commitLogged(batches: [[row("car-1", "a1")]], events: [])
        _ = try sqlite("UPDATE geoq_track_log SET records = X'0000000000000000FF'")
        #expect {
            try tables().foldTrackLog()
        } throws: { error in
            "\(error)".contains("geoq_track_log")
        }
        // Nothing was half-written: the row waits for a repair.
        #expect(try sqlite("SELECT count(*) FROM geoq_track_log") == ["1"])
    }
}
