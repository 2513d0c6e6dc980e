import Foundation
import GeoqCore
import GeoqIncidents
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Testing

/// The store keeps incidents by (source, id): a refresh of one feed never ends or overwrites
/// another's, and a layer written before incidents had sources is read without losing anything.
@Suite struct IncidentStoreTests {
    static let fixtures = TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures")
    static let now = Date(timeIntervalSince1970: 1_795_420_800)  // 2026-11-23T08:00Z

    func withStore(_ body: (IncidentStore, URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-incident-store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(IncidentStore(storeFile: directory.appendingPathComponent("store.gpkg")), directory)
    }

    func fixture(_ type: Int) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent("zaragoza-type-\(type).xml"))
    }

    @Test func twoFeedsRefreshedInTurnBothStay() throws {
        try withStore { store, _ in
            let water = try store.refresh(data: try fixture(0), feed: "/feeds/agua.xml", now: Self.now)
            #expect(water.source == "agua" && water.feedType == nil)
            #expect((water.itemsRead, water.added, water.held) == (1, 1, 1))
            let traffic = try store.refresh(data: try fixture(1), feed: "/feeds/trafico.xml", now: Self.now)
            #expect((traffic.itemsRead, traffic.added, traffic.ended, traffic.held) == (3, 3, 0, 4))
            // The all-incidents file shares ids with both, under a name of its own: nothing ends.
            let all = try store.refresh(
                data: try fixture(3), feed: "/feeds/todas.xml", source: "todas", type: .all, now: Self.now)
            #expect((all.added, all.updated, all.ended, all.held) == (3, 0, 0, 7))
            let held = try store.held().incidents
            #expect(Set(held.map(\.source)) == ["agua", "trafico", "todas"])
            #expect(held.filter { $0.source == "todas" }.allSatisfy { $0.type == .all })
            #expect(held.filter { $0.source == "agua" }.allSatisfy { $0.type == nil && $0.categories.isEmpty })
            // The traffic file again, now empty: only its own three end.
            let empty = Data(#"<rss version="2.0"><channel><title>t</title></channel></rss>"#.utf8)
            let ended = try store.refresh(data: empty, feed: "/feeds/trafico.xml", now: Self.now)
            #expect((ended.ended, ended.held) == (3, 4))
            #expect(Set(try store.held().incidents.map(\.source)) == ["agua", "todas"])
        }
    }

    /// A refresh time written by another tool with a fraction of a second forty digits long (on
    /// which ICU traps) is read, to the millisecond as any fraction is.
    @Test func aRefreshTimeWithALongFractionIsRead() throws {
        try withStore { store, _ in
            _ = try store.refresh(data: try fixture(0), feed: "/feeds/agua.xml", now: Self.now)
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            sqlite.arguments = [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
                    + "c.execute('UPDATE geoq_layers SET imported_at = ? WHERE table_name = ?', (sys.argv[2], 'incidents')); "
                    + "c.commit()",
                store.store.description, "2026-11-23T08:00:00." + String(repeating: "8", count: 40) + "Z",
            ]
            try sqlite.run()
            sqlite.waitUntilExit()
            #expect(sqlite.terminationStatus == 0)
            let refreshed = try #require(try store.held().refreshedAt)
            #expect(abs(refreshed.timeIntervalSince(Self.now) - 0.888) < 1e-6)
        }
    }

    /// Every stored row of the incidents layer of one source, as SQLite holds it.
    func storedRows(_ store: IncidentStore, source: String) throws -> [String] {
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        sqlite.arguments = [
            "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
                + "[print(repr(r)) for r in c.execute('SELECT * FROM incidents WHERE source = ? ORDER BY fid', (sys.argv[2],))]",
            store.store.description, source,
        ]
        let pipe = Pipe()
        sqlite.standardOutput = pipe
        try sqlite.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        sqlite.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Refreshing one source rewrites only its rows: another source's stay byte for byte (fid
    /// included), and the source's incidents read back as a whole rewrite gives them.
    @Test func aRefreshLeavesAnotherSourcesRowsByteIdentical() throws {
        try withStore { store, _ in
            _ = try store.refresh(data: try fixture(0), feed: "/feeds/agua.xml", now: Self.now)
            _ = try store.refresh(data: try fixture(1), feed: "/feeds/trafico.xml", now: Self.now)
            let water = try storedRows(store, source: "agua")
            #expect(water.count == 1)
            let later = Self.now.addingTimeInterval(3600)
            let again = try store.refresh(data: try fixture(1), feed: "/feeds/trafico.xml", now: later)
            #expect((again.added, again.updated, again.ended, again.held) == (0, 3, 0, 4))
            #expect(try storedRows(store, source: "agua") == water)
            let held = try store.held().incidents
            #expect(held.map(\.source) == ["agua", "trafico", "trafico", "trafico"])
            #expect(held.filter { $0.source == "trafico" }.allSatisfy { $0.seen == later })
            // The same feed into a fresh store: the same incidents.
            try withStore { fresh, _ in
                _ = try fresh.refresh(data: try fixture(0), feed: "/feeds/agua.xml", now: Self.now)
                _ = try fresh.refresh(data: try fixture(1), feed: "/feeds/trafico.xml", now: later)
                #expect(try fresh.held().incidents == held)
            }
        }
    }

    /// A layer as geoq wrote it before sources: properties type, link, published, description,
    /// seen, and no source nor categories.
    @Test func aLayerWrittenBeforeSourcesIsReadAndKept() throws {
        try withStore { store, _ in
            let old = [
                Feature(
                    id: "trafico-2001", name: "Paseo de la Independencia",
                    geometry: .point(Point(x: -0.8844, y: 41.6488)),
                    properties: [
                        "type": .number(1), "description": .string("Antes"), "seen": .string("2026-11-20T08:00:00Z"),
                        "published": .string("2026-11-21T17:30:00Z"),
                        "link": .string("https://www.zaragoza.es/sede/servicio/via-publica/incidencia/2001"),
                    ]),
                Feature(
                    id: "agua-0999", name: "Calle de Borao", geometry: .multiPoint([]),
                    properties: [
                        "type": .number(0), "description": .string("Sin descripción"),
                        "seen": .string("2026-11-20T08:00:00Z"),
                    ]),
            ]
            let package = try GeoPackage.open(at: store.store.description, create: true)
            try package.replaceLayer(
                StoredLayerInput(
                    name: IncidentStore.layerName, title: "City incidents (GeoRSS feeds)", features: old,
                    source: "https://www.zaragoza.es/sede/servicio/incidencia?id=1", sourceCRS: "EPSG:4326"))

            let held = try store.held().incidents
            #expect(held.map(\.id) == ["trafico-2001", "agua-0999"])
            #expect(
                held.map(\.source) == [
                    "zaragoza.es/sede/servicio/incidencia?id=1", "zaragoza.es/sede/servicio/incidencia?id=0",
                ])
            #expect(held.map(\.categories) == [["Corte de tráfico"], ["Corte de agua"]])
            #expect(held[1].geometry == nil)

            // Zaragoza's traffic feed again (its address, the items of the fixture): the old
            // trafico-2001 is the same incident, updated; the water cut of another feed stays.
            let report = try store.refresh(
                data: try fixture(1), feed: "https://www.zaragoza.es/sede/servicio/incidencia?id=1", now: Self.now)
            #expect(report.feedType == .trafficCut)
            #expect((report.added, report.updated, report.ended, report.held) == (2, 1, 0, 4))
            let after = try store.held().incidents
            #expect(
                after.first { $0.id == "trafico-2001" }?.description
                    == "Corte total del carril bus por obras.\nDesvío:\npor Calle Cádiz\nObservaciones:\nSe recomienda el transporte público."
            )
            #expect(after.first { $0.id == "agua-0999" }?.source == "zaragoza.es/sede/servicio/incidencia?id=0")
        }
    }
}
