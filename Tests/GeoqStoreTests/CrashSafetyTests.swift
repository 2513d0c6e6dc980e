import Foundation
import GeoqCore
import Testing

@testable import GeoqStore

#if canImport(Glibc)
    import Glibc
#endif

/// A writer killed with SIGKILL in the middle of `replaceLayer` leaves the previous state:
/// SQLite's rollback journal undoes the half-written transaction on the next open.
///
/// The writer is this test binary itself, relaunched on `killWriterChild`: an entry point that
/// is enabled only when `GEOQ_STORE_KILL_WRITER` names a store, so that an ordinary run skips
/// it rather than counting it as a passed test.
@Suite struct CrashSafetyTests {
    static let writerEnvironment = "GEOQ_STORE_KILL_WRITER"
    /// Rows written before the child signals and waits to be killed: enough (about 10 MB) to spill
    /// SQLite's page cache, so the database file itself is half-written when the kill comes.
    static let rowsBeforeKill = 20_000

    /// The store the child writes to, when this process is the child.
    static var writerStore: String? {
        ProcessInfo.processInfo.environment[writerEnvironment].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The child side, not a test: enabled only in the child process.
    @Test(.enabled(if: writerStore != nil, "the writer child of killedWriterLeavesThePreviousLayersIntact"))
    func killWriterChild() throws {
        let path = try #require(Self.writerStore)
        let store = try GeoPackage.open(at: path, create: false)
        store.afterRowInserted = { rows throws(StoreError) in
            guard rows == Self.rowsBeforeKill else { return }
            _ = FileManager.default.createFile(atPath: path + ".started", contents: nil)
            sleep(120)  // hold the transaction open until the parent kills us
        }
        let features = Fixtures.randomPolygons(count: Self.rowsBeforeKill + 1_000, vertices: 30, seed: 99)
        try store.replaceLayer(Fixtures.input("big", features))
        Issue.record("the writer committed: it should have been killed first")
    }

    @Test func killedWriterLeavesThePreviousLayersIntact() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = dir.path("store.gpkg")
        let old = Fixtures.randomPolygons(count: 30, vertices: 6, seed: 5)
        do {
            let store = try GeoPackage.open(at: path, create: true)
            try store.replaceLayer(Fixtures.input("big", old))
            try store.replaceLayer(Fixtures.input("keep", Fixtures.pamplonaLike))
        }
        let infosBefore = try GeoPackage.open(at: path, create: false).layers()
        let sizeBefore = try fileSize(path)

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "killWriterChild"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.writerEnvironment] = path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()

        let deadline = ContinuousClock.now + .seconds(120)
        while !FileManager.default.fileExists(atPath: path + ".started") && child.isRunning
            && ContinuousClock.now < deadline
        {
            usleep(50_000)
        }
        let started = FileManager.default.fileExists(atPath: path + ".started")
        let hotJournal = FileManager.default.fileExists(atPath: path + "-journal")
        let sizeDuring = try fileSize(path)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        try #require(started, "the writer never reached row \(Self.rowsBeforeKill)")
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(hotJournal, "no rollback journal: the kill did not land inside the transaction")
        #expect(sizeDuring > sizeBefore, "the database file was not written before the kill")

        let store = try GeoPackage.open(at: path, create: false)
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.layers() == infosBefore)
        #expect(try store.features(of: "big") == old)
        #expect(try store.features(of: "keep") == GeoPackageTests.expectedPamplonaLike)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
