import Foundation
import GeoqCore
import GeoqIncidents
import GeoqLayers
import GeoqPROJ
import GeoqPostGIS
import GeoqQuery
import GeoqStore
import GeoqTestSupport
import PostgresNIO
import Testing

/// The same layers read from a GeoPackage and from PostGIS: what `LayerLibrary` reads back, the
/// sector answers over seeded random points, and PostGIS's own `ST_Covers` as a third opinion.
@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct PostGISLibraryTests {
    static func database() throws -> PostgresAddress {
        try PostgresAddress(parsing: try #require(TestPostgres.address(schema: "library")))
    }

    /// The store in `database`, as a face makes it from the address.
    static func store(_ database: PostgresAddress) -> StoreAddress { .shared(PostGISBackend(address: database)) }

    static func locations(store: StoreAddress) -> DataLocations {
        DataLocations(
            catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
            dataDirectory: TestData.directory, store: store)
    }

    /// Imports `names` into a new GeoPackage and a new PostGIS schema; returns both stores.
    static func importBoth(_ names: [String]) throws -> (file: URL, database: PostgresAddress) {
        let catalog = try sharedCatalog()
        let file = try temporaryDirectory().appendingPathComponent("store.gpkg")
        let database = try database()
        for name in names {
            let spec = try catalog.spec(named: name)
            let url = catalog.sourceURL(of: spec)
            _ = try LayerImporter(invalidPolygons: .repair).importLayer(spec, from: url, into: .geoPackage(file))
            _ = try LayerImporter(invalidPolygons: .repair).importLayer(spec, from: url, into: Self.store(database))
        }
        return (file, database)
    }

    @Test func everyCatalogPolygonLayerReadsBackTheSameFromBoth() throws {
        let catalogOnly = try LayerLibrary(
            locations: Self.locations(store: .geoPackage(URL(fileURLWithPath: "/nonexistent/store.gpkg"))))
        let names = catalogOnly.polygonLayerNames
        #expect(names.count >= 6)
        let (file, database) = try Self.importBoth(names)
        let package = try LayerLibrary(locations: Self.locations(store: .geoPackage(file)))
        let postGIS = try LayerLibrary(locations: Self.locations(store: Self.store(database)))
        #expect(Set(postGIS.layerVersions.keys) == Set(names))
        for name in names {
            let expected = try package.features(of: name)
            let read = try postGIS.features(of: name)
            #expect(read.count == expected.count, "\(name)")
            for (a, b) in zip(read, expected) where a != b {
                Issue.record("\(name): feature \(b.id) differs")
                break
            }
            let infoA = try #require(postGIS.storedLayers.first { $0.name == name })
            var infoB = try #require(package.storedLayers.first { $0.name == name })
            infoB.importedAt = infoA.importedAt
            #expect(infoA == infoB, "\(name)")
        }
    }

    /// 10,000 seeded points over each layer's extent: the PostGIS-backed answer equals the
    /// GeoPackage-backed one (read through its stored index), and both equal PostGIS's
    /// `ST_Covers` run as one set-based query.
    @Test(arguments: ["pamplona-sectors", "valencia-census-sections"])
    func randomPointsAgreeWithGeoPackageAndSTCovers(layer name: String) throws {
        let (file, database) = try Self.importBoth([name])
        let fileLibrary = try LayerLibrary(locations: Self.locations(store: .geoPackage(file)))
        let fromFile = SectorLookup(layer: try fileLibrary.layer(named: name), geodesic: Geodesic.wgs84)
        let databaseLibrary = try LayerLibrary(locations: Self.locations(store: Self.store(database)))
        let fromDatabase = SectorLookup(layer: try databaseLibrary.layer(named: name), geodesic: Geodesic.wgs84)
        // The GeoPackage answers through the index stored beside the layer; PostgreSQL stores
        // none, and its layers are indexed at load.
        #expect(fileLibrary.indexOrigin(of: name) == .stored)
        #expect(databaseLibrary.indexOrigin(of: name) == .built)
        let box = fromFile.layer.features.reduce(BoundingBox.empty) { $0.union($1.geometry.boundingBox) }
        var random = SeededRandom(seed: 20_261_122)
        let points = (0..<10_000).map { _ in
            Point(x: random.uniform(box.minX...box.maxX), y: random.uniform(box.minY...box.maxY))
        }
        let db = try PGConnection.connect(to: database)
        let rows = try db.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT p.i, coalesce(array_agg(DISTINCT t.geoq_id) FILTER (WHERE t.geoq_id IS NOT NULL), '{}')
                    FROM unnest($1::double precision[], $2::double precision[]) WITH ORDINALITY AS p(x, y, i)
                    LEFT JOIN \(database.schema)."\(name)" t
                      ON ST_Covers(t.geom, ST_SetSRID(ST_MakePoint(p.x, p.y), 4326))
                    GROUP BY p.i ORDER BY p.i
                    """,
                binds: {
                    var binds = PostgresBindings()
                    binds.append(points.map(\.x))
                    binds.append(points.map(\.y))
                    return binds
                }()))
        #expect(rows.count == points.count)
        var covered = 0
        var agreeFile = 0
        var agreeCovers = 0
        for (row, point) in zip(rows, points) {
            let (_, ids) = try row.decode((Int64, [String]).self)
            let database = Set(fromDatabase.answer(for: point).inside.map(\.id))
            let file = Set(fromFile.answer(for: point).inside.map(\.id))
            if database == file { agreeFile += 1 }
            if database == Set(ids) { agreeCovers += 1 }
            if !ids.isEmpty { covered += 1 }
        }
        print(
            "\(name): \(points.count) points, \(covered) covered; PostGIS-backed = GeoPackage-backed \(agreeFile), = ST_Covers \(agreeCovers)"
        )
        #expect(agreeFile == points.count)
        #expect(agreeCovers == points.count)
        // The points test something: a good share falls inside and a good share outside.
        #expect(covered > 500 && covered < points.count - 500)
    }

    @Test func incidentsRefreshKeepsTheOtherSourcesRows() throws {
        let database = try Self.database()
        let store = IncidentStore(store: Self.store(database))
        func feed(_ items: [(String, String, Double, Double)]) -> Data {
            let entries = items.map { guid, title, lat, lon in
                "<item><title>\(title)</title><guid>\(guid)</guid><description>d</description><georss:point>\(lat) \(lon)</georss:point></item>"
            }
            return Data(
                """
                <?xml version="1.0"?><rss version="2.0" xmlns:georss="http://www.georss.org/georss"><channel>
                <title>t</title>\(entries.joined())</channel></rss>
                """.utf8)
        }
        let a = try store.refresh(
            data: feed([("a1", "Calle A", 41.65, -0.88), ("a2", "Calle B", 41.66, -0.89)]), feed: "a.xml", source: "a")
        #expect(a.added == 2 && a.held == 2)
        let b = try store.refresh(data: feed([("b1", "Calle C", 41.64, -0.87)]), feed: "b.xml", source: "b")
        #expect(b.added == 1 && b.held == 3)
        let again = try store.refresh(data: feed([("a2", "Calle B bis", 41.66, -0.89)]), feed: "a.xml", source: "a")
        #expect(again.updated == 1 && again.ended == 1 && again.held == 2)
        let held = try store.held()
        #expect(held.incidents.map(\.source).sorted() == ["a", "b"])
        #expect(held.incidents.first { $0.source == "a" }?.title == "Calle B bis")
        #expect(held.incidents.first { $0.source == "b" }?.title == "Calle C")
        #expect(held.refreshedAt != nil)
    }

    /// A reload reads again only the layers whose version changed.
    @Test func reloadReadsOnlyChangedLayers() throws {
        let (_, database) = try Self.importBoth(["pamplona-sectors", "pamplona-barrios"])
        _ = try LayerLibrary(locations: Self.locations(store: Self.store(database))).features(of: "pamplona-sectors")
        let first = try LayerLibrary(locations: Self.locations(store: Self.store(database)))
        _ = try first.features(of: "pamplona-sectors")
        _ = try first.features(of: "pamplona-barrios")
        let reads = FeatureCache.reads(of: PostGISBackend(address: database))
        #expect(reads == 2)
        let catalog = try sharedCatalog()
        let spec = try catalog.spec(named: "pamplona-barrios")
        _ = try LayerImporter().importLayer(spec, from: catalog.sourceURL(of: spec), into: Self.store(database))
        let second = try LayerLibrary(locations: Self.locations(store: Self.store(database)))
        #expect(second.layerVersions["pamplona-barrios"]! > first.layerVersions["pamplona-barrios"]!)
        #expect(second.layerVersions["pamplona-sectors"] == first.layerVersions["pamplona-sectors"])
        _ = try second.features(of: "pamplona-sectors")
        _ = try second.features(of: "pamplona-barrios")
        #expect(FeatureCache.reads(of: PostGISBackend(address: database)) == reads + 1)
        #expect(
            StoreContents.signature(of: Self.store(database))
                == StoreContents.signature(versions: second.layerVersions))
    }
}

/// The repository's catalog over the shared data.
private func sharedCatalog() throws -> LayerCatalog {
    try LayerCatalog.load(
        from: TestData.packageRoot.appendingPathComponent("data/layers.json"), dataDirectory: TestData.directory)
}

/// A fresh temporary directory for files a test writes.
private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
