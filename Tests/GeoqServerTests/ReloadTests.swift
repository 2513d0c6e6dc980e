import Foundation
import GeoqAPI
import GeoqCore
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqServer
import GeoqStore
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// Hot reload: snapshots swapped under continuous load, and the store watcher.
@Suite struct ReloadTests {
    /// Two snapshots that answer the same request differently: in A the layer
    /// pamplona-sectors is the sectors, in B it is the barrios (named as the request asks).
    ///
    /// Loaded once. Thrown, not trapped: with a wrong GEOQ_DATA_DIR these tests fail with the
    /// loader's message, and the other suites still run.
    static let loadedSnapshots = Result { () throws -> (a: ServiceData, b: ServiceData) in
        let library = TestLibrary.catalogOnly()
        func snapshot(_ name: String) throws -> ServiceData {
            let layer = try library.layer(named: name)
            return ServiceData(
                sectorLookups: ["pamplona-sectors": SectorLookup(layer: layer, geodesic: Geodesic.wgs84)],
                layers: [
                    .init(
                        name: "pamplona-sectors", title: layer.title, kind: "polygon", features: layer.features.count,
                        approximate: layer.isApproximate, error: nil)
                ], storeFile: name, defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84,
                loadedAt: Date())
        }
        return (try snapshot("pamplona-sectors"), try snapshot("pamplona-barrios"))
    }

    static func snapshots() throws -> (a: ServiceData, b: ServiceData) { try loadedSnapshots.get() }

    /// Four clients ask continuously while the data is swapped ten times: no request fails,
    /// and every answer is wholly A's or wholly B's (the layer named inside the answer and the
    /// feature found agree with one snapshot). Through the router alone, and over a socket where
    /// the answers come from the event loop (`InlineAnswerHandler`).
    @Test(arguments: [false, true]) func tenReloadsUnderLoadLoseNothing(live: Bool) async throws {
        let (a, b) = try Self.snapshots()
        let expectedA = a.sectorLookups["pamplona-sectors"]!.answer(for: .init(latitude: 42.81, longitude: -1.64))
        let expectedB = b.sectorLookups["pamplona-sectors"]!.answer(for: .init(latitude: 42.81, longitude: -1.64))
        #expect(expectedA.inside != expectedB.inside, "the two snapshots must differ")
        let state = ServiceState(a)
        func run<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
            live
                ? try await Routes.application(state: state).test(.live, body)
                : try await Application(router: Routes.router(state: state)).test(.router, body)
        }
        // Swaps and answers go in step, not by the clock: swap k comes after 50(k+1) answers, and
        // the clients wait for it before running more than 10 answers past that point. So every
        // swap falls while the clients are asking, however the threads are scheduled. No deadline:
        // on a starved machine the first answer alone can take a minute, and a deadline passed
        // then would let all ten swaps run in a burst before the clients ask. The swapper stops
        // waiting once every client has ended (a failed client must not leave it waiting).
        final class Progress: Sendable {
            let answered = Atomic<Int>(0)
            let swaps = Atomic<Int>(0)
            let clientsEnded = Atomic<Int>(0)

            /// Waits while `ahead` holds; ends early only when the test task is cancelled.
            func wait(while ahead: () -> Bool) async throws {
                while ahead() { try await Task.sleep(for: .milliseconds(1)) }
            }
        }
        let progress = Progress()
        let counts = try await run { client in
            try await withThrowingTaskGroup(of: (a: Int, b: Int, failed: Int).self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        defer { progress.clientsEnded.add(1, ordering: .relaxed) }
                        var tally = (a: 0, b: 0, failed: 0)
                        for _ in 0..<150 {
                            try await progress.wait {
                                let swaps = progress.swaps.load(ordering: .relaxed)
                                return swaps < 10 && progress.answered.load(ordering: .relaxed) >= 50 * (swaps + 1) + 10
                            }
                            try await client.execute(uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get) { response in
                                progress.answered.add(1, ordering: .relaxed)
                                guard response.status == .ok,
                                    let answer = try? JSONDecoder().decode(
                                        SectorAnswer.self, from: Data(buffer: response.body))
                                else { return tally.failed += 1 }
                                if answer.inside == expectedA.inside && answer.approximate == expectedA.approximate {
                                    tally.a += 1
                                } else if answer.inside == expectedB.inside
                                    && answer.approximate == expectedB.approximate
                                {
                                    tally.b += 1
                                } else {
                                    tally.failed += 1
                                }
                            }
                        }
                        return tally
                    }
                }
                for k in 0..<10 {
                    try await progress.wait {
                        progress.answered.load(ordering: .relaxed) < 50 * (k + 1)
                            && progress.clientsEnded.load(ordering: .relaxed) < 4
                    }
                    state.replace(with: k % 2 == 0 ? b : a)
                    progress.swaps.add(1, ordering: .relaxed)
                }
                var total = (a: 0, b: 0, failed: 0)
                for try await t in group { total = (total.a + t.a, total.b + t.b, total.failed + t.failed) }
                return total
            }
        }
        #expect(counts.failed == 0)
        #expect(counts.a + counts.b == 600)
        // Both snapshots were seen: the swaps happened while the clients were asking.
        #expect(counts.a > 0 && counts.b > 0)
        #expect(state.generation == 11)
    }

    /// Touching the watched file reloads; a failing load keeps the old data.
    @Test func aChangedStoreFileReloadsAndAFailedLoadKeepsTheOld() async throws {
        let (a, b) = try Self.snapshots()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-reload-\(UUID()).gpkg")
        try Data("one".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let state = ServiceState(a)
        let failNext = LockedFlag()
        let reloader = ReloadService(
            state: state, watching: file.path, every: .milliseconds(20), trapSIGHUP: false,
            logger: Logger(label: "test")
        ) {
            if failNext.value { throw CocoaError(.fileReadCorruptFile) }
            return b
        }
        let watcher = Task { try await reloader.run() }
        defer { watcher.cancel() }
        try Data("two, longer".utf8).write(to: file)
        for _ in 0..<200 where state.generation < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(state.generation == 2)
        #expect(state.data?.storeFile == "pamplona-barrios")
        failNext.value = true
        #expect(reloader.reload(reason: "test") == false)
        #expect(state.generation == 2 && state.data?.storeFile == "pamplona-barrios")
    }

    /// A store the service writes tracks to keeps a write-ahead log, and while the service
    /// holds it open an import by another process lands in the log, not in the file, until a
    /// checkpoint: the watch sees it there.
    @Test func anImportIntoAStoreWithAWriteAheadLogReloads() async throws {
        let (a, b) = try Self.snapshots()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-reload-\(UUID()).gpkg")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        }
        // The service's writer of tracks, holding the file open.
        let service = try TrackingStore(storeFile: file).connection()
        try service.useWriteAheadLog()
        let state = ServiceState(a)
        let reloader = ReloadService(
            state: state, watching: file.path, every: .milliseconds(20), contents: StoreContents.signature(ofStoreAt:),
            trapSIGHUP: false, logger: Logger(label: "test")
        ) { b }
        let watcher = Task { try await reloader.run() }
        defer { watcher.cancel() }
        let fileBefore = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        let importer = try GeoPackage.open(at: file.path, create: false)
        try importer.replaceLayer(
            StoredLayerInput(
                name: "puntos", title: "Puntos",
                features: [Feature(id: "1", name: "Uno", geometry: .point(Point(x: -1.64, y: 42.81)), properties: [:])],
                source: "test", sourceCRS: "EPSG:4326"))
        #expect(try importer.journalMode() == "wal")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == fileBefore)
        for _ in 0..<200 where state.generation < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(state.generation == 2)
        _ = service
    }
}

/// A Bool shared with a @Sendable closure.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
