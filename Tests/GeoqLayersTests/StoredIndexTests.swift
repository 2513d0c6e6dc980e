import Foundation
import GeoqCore
import GeoqQuery
import GeoqTestSupport
import Testing

@testable import GeoqLayers
@testable import GeoqStore

/// The packed index stored beside each polygon layer of a GeoPackage: read back it answers as an
/// index built from the layer's features does; damaged, stale or missing it is never used.
@Suite struct StoredIndexTests {
    static let layers = ["pamplona-sectors", "valencia-census-sections"]

    /// Imports `names` from the shared catalog into a new GeoPackage (which writes their indexes).
    static func importStore(_ names: [String] = layers) throws -> (file: URL, locations: DataLocations) {
        let catalog = try sharedCatalog()
        let file = try temporaryDirectory().appendingPathComponent("store.gpkg")
        for name in names {
            let spec = try catalog.spec(named: name)
            _ = try LayerImporter(invalidPolygons: .repair).importLayer(
                spec, from: catalog.sourceURL(of: spec), into: file)
        }
        let locations = DataLocations(
            catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
            dataDirectory: TestData.directory, store: .geoPackage(file))
        return (file, locations)
    }

    /// Loads `name` through a new library over `file`; returns the layer and its index's origin.
    static func load(_ name: String, from file: URL) throws -> (layer: Layer, origin: IndexOrigin?) {
        let library = try LayerLibrary(locations: try importLocations(file), storeFile: file)
        let layer = try library.layer(named: name)
        return (layer, library.indexOrigin(of: name))
    }

    static func importLocations(_ file: URL) throws -> DataLocations {
        DataLocations(
            catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
            dataDirectory: TestData.directory, store: .geoPackage(file))
    }

    /// `count` seeded points over the layer's extent grown by a fifth on each side, so that
    /// about half fall outside every feature.
    static func points(around box: BoundingBox, count: Int, seed: UInt64) -> [Point] {
        var random = SeededRandom(seed: seed)
        let dx = box.width / 5, dy = box.height / 5
        return (0..<count).map { _ in
            Point(
                x: random.uniform((box.minX - dx)...(box.maxX + dx)),
                y: random.uniform((box.minY - dy)...(box.maxY + dy)))
        }
    }

    /// Every answer the queries give: covering set, first covering item, nearest boundary point
    /// of each covering item, and the three nearest items by boundary. Compared exactly.
    static func expectSameAnswers(_ stored: PolygonIndex, _ built: PolygonIndex, on points: [Point]) {
        #expect(stored.count == built.count)
        #expect(stored.boundingBox == built.boundingBox)
        let metric = LocalMetric(wgs84AtLatitude: built.boundingBox.minY)
        var mismatches = 0
        for p in points {
            let covering = built.covering(p)
            var same =
                stored.covering(p) == covering
                && stored.firstCovering(p).map { covering.contains($0) } ?? covering.isEmpty
            for item in covering {
                let a = stored.nearestBoundaryPoint(to: p, item: item, metric: metric)
                let b = built.nearestBoundaryPoint(to: p, item: item, metric: metric)
                same = same && a.point == b.point && a.distance == b.distance
            }
            let a = stored.nearestByBoundary(to: p, metric: metric, limit: 3)
            let b = built.nearestByBoundary(to: p, metric: metric, limit: 3)
            same =
                same && a.map(\.item) == b.map(\.item) && a.map(\.point) == b.map(\.point)
                && a.map(\.distance) == b.map(\.distance)
            if !same { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of \(points.count) points answered differently")
    }

    @Test(arguments: layers)
    func storedIndexAnswersAsABuiltOne(name: String) throws {
        let store = try Self.importStore([name])
        let (layer, origin) = try Self.load(name, from: store.file)
        #expect(origin == .stored)
        let built = Layer.index(of: layer.features)
        let points = Self.points(around: built.boundingBox, count: 10_000, seed: 0x5EED_0001)
        // Not a vacuous comparison: the points hit features and miss them.
        #expect(points.filter { !built.covering($0).isEmpty }.count > 1_000)
        #expect(points.filter { built.covering($0).isEmpty }.count > 1_000)
        Self.expectSameAnswers(layer.index, built, on: points)
    }

    /// Runs `sql` on the store with the sqlite3 shell: on geoq's index tables only (the layer
    /// tables' R*Tree triggers need GDAL's ST_ functions; their edits go through ogrinfo).
    static func sqlite(_ file: URL, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [file.path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 \(sql)")
    }

    static let hasSQLite3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")
    static let hasOGRInfo = FileManager.default.isExecutableFile(atPath: "/usr/bin/ogrinfo")

    /// Each way an index can go wrong, as SQL on the stored rows, and the words the reason gives.
    static let damages: [(sql: String, reason: String)] = [
        // One byte in the middle of the bytes, flipped.
        (
            "UPDATE geoq_layer_index_chunks SET data = CAST(substr(data, 1, 5000) || "
                + "(CASE WHEN substr(data, 5001, 1) = x'00' THEN x'01' ELSE x'00' END) || substr(data, 5002) AS BLOB) "
                + "WHERE table_name = 'valencia-census-sections'",
            "damaged: checksum"
        ),
        // The bytes turned into text (a blob concatenated in SQL is text).
        (
            "UPDATE geoq_layer_index_chunks SET data = data || x'00' WHERE table_name = 'valencia-census-sections'",
            "damaged:"
        ),
        // The last 100 bytes cut off.
        (
            "UPDATE geoq_layer_index_chunks SET data = substr(data, 1, length(data) - 100) "
                + "WHERE table_name = 'valencia-census-sections'",
            "damaged:"
        ),
        // Written by a geoq whose byte form was older.
        (
            "UPDATE geoq_layer_index SET format_version = format_version - 1 "
                + "WHERE table_name = 'valencia-census-sections'",
            "stale: format version"
        ),
        // A header asking for a petabyte: refused before anything is allocated.
        (
            "UPDATE geoq_layer_index SET byte_count = 1000000000000000 WHERE table_name = 'valencia-census-sections'",
            "damaged: 1 chunks of"
        ),
        // No index at all.
        ("DELETE FROM geoq_layer_index WHERE table_name = 'valencia-census-sections'", "missing:"),
    ]

    @Test(.enabled(if: hasSQLite3, "sqlite3 not installed"), arguments: 0..<damages.count)
    func damagedOrStaleIndexIsRebuilt(case number: Int) throws {
        let (sql, reason) = Self.damages[number]
        let name = "valencia-census-sections"
        let store = try Self.importStore([name])
        try Self.sqlite(store.file, sql)
        let (layer, origin) = try Self.load(name, from: store.file)
        guard case .rebuilt(let why) = origin else {
            Issue.record("index used after: \(sql) (\(String(describing: origin)))")
            return
        }
        #expect(why.hasPrefix(reason), "\(why)")
        let built = Layer.index(of: layer.features)
        Self.expectSameAnswers(layer.index, built, on: Self.points(around: built.boundingBox, count: 2_000, seed: 7))
    }

    /// With the `fail` and `keep` policies the rows and the index are written while the
    /// polygons are checked: an import the checks refuse rolls them back, and the layer it would
    /// have replaced keeps its rows and its stored index; one they pass stores both.
    @Test func rowsWrittenWhileCheckedAreRolledBackWhenRefused() throws {
        let name = "pamplona-sectors"
        let store = try Self.importStore([name])
        let (before, _) = try Self.load(name, from: store.file)
        let bowTie = try writeTemporary(
            "bowtie-\(UUID().uuidString).geojson",
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "ok", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}, {"type": "Feature", "id": "bow", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[2,0],[3,1],[3,0],[2,1],[2,0]]]}}]}"#
        )
        let spec = LayerSpec(name: name, title: "refused", source: bowTie.path)
        #expect(throws: LayerError.self) {
            try LayerImporter(invalidPolygons: .fail).importLayer(spec, from: bowTie, into: store.file)
        }
        let (after, origin) = try Self.load(name, from: store.file)
        #expect(origin == .stored)
        #expect(after.features == before.features)
        #expect(try GeoPackage.open(at: store.file.path, create: false).integrityCheck() == "ok")

        _ = try LayerImporter(invalidPolygons: .keep).importLayer(spec, from: bowTie, into: store.file)
        let (kept, keptOrigin) = try Self.load(name, from: store.file)
        #expect(keptOrigin == .stored)
        #expect(kept.features.map(\.id) == ["ok", "bow"])
        Self.expectSameAnswers(
            kept.index, Layer.index(of: kept.features),
            on: Self.points(around: kept.index.boundingBox, count: 2_000, seed: 13))
    }

    /// A re-import writes the new index's chunks numbered after the old ones, before the old
    /// layer is dropped (so that no freed page is reused and copied to the journal), in the
    /// same transaction: the store then holds only the new chunks, and reads them.
    @Test func reimportsNumberTheirChunksOn() throws {
        let name = "pamplona-sectors"
        let store = try Self.importStore([name])
        let catalog = try sharedCatalog()
        let spec = try catalog.spec(named: name)
        func chunkNumbers() throws -> [Int64] {
            let package = try GeoPackage.open(at: store.file.path, create: false)
            let select = try package.connection.prepare("SELECT chunk FROM geoq_layer_index_chunks ORDER BY chunk")
            var numbers: [Int64] = []
            while try select.step() { numbers.append(select.int64(at: 0)) }
            return numbers
        }
        #expect(try chunkNumbers() == [0])
        // Checked while written (fail), then checked before (repair): both ways of writing.
        for (round, policy) in [(1, LayerLoader.InvalidPolygonPolicy.fail), (2, .repair)] {
            _ = try LayerImporter(invalidPolygons: policy).importLayer(
                spec, from: catalog.sourceURL(of: spec), into: store.file)
            #expect(try chunkNumbers() == [Int64(round)])
            let (layer, origin) = try Self.load(name, from: store.file)
            #expect(origin == .stored)
            Self.expectSameAnswers(
                layer.index, Layer.index(of: layer.features),
                on: Self.points(around: layer.index.boundingBox, count: 2_000, seed: 21 + UInt64(round)))
        }
        #expect(try GeoPackage.open(at: store.file.path, create: false).integrityCheck() == "ok")
    }

    /// A re-import through the store's own API (which writes no index) drops the index of the
    /// old rows in the same transaction: the layer is indexed anew, never from the old index.
    @Test func reimportWithoutIndexDropsIt() throws {
        let name = "pamplona-sectors"
        let store = try Self.importStore([name])
        let (old, _) = try Self.load(name, from: store.file)
        // The same features in reverse order: an index of the old order would name wrong items.
        let package = try GeoPackage.open(at: store.file.path, create: false)
        try package.replaceLayer(
            StoredLayerInput(
                name: name, title: old.title, features: old.features.reversed(), source: "test", sourceCRS: "EPSG:4326",
                approximate: nil, notes: []))
        let (layer, origin) = try Self.load(name, from: store.file)
        guard case .rebuilt(let why) = origin else {
            Issue.record("index used after a re-import: \(String(describing: origin))")
            return
        }
        #expect(why.hasPrefix("missing"), "\(why)")
        #expect(layer.features.map(\.id) == old.features.map(\.id).reversed())
        let built = Layer.index(of: layer.features)
        Self.expectSameAnswers(layer.index, built, on: Self.points(around: built.boundingBox, count: 2_000, seed: 8))
    }

    /// A re-import by another writer that leaves geoq's tables alone (GDAL recreating the table
    /// and its gpkg_contents row) changes the layer's last_change: the index of the old rows is
    /// stale.
    @Test(.enabled(if: hasOGRInfo, "gdal-bin not installed"))
    func reimportByAnotherWriterMakesItStale() throws {
        let name = "pamplona-sectors"
        let store = try Self.importStore([name])
        let sql = "UPDATE gpkg_contents SET last_change = '2030-01-01T00:00:00.000Z' WHERE table_name = '\(name)'"
        let (status, output) = try Self.run("/usr/bin/ogrinfo", [store.file.path, "-sql", sql])
        #expect(status == 0, "\(output)")
        let (layer, origin) = try Self.load(name, from: store.file)
        guard case .rebuilt(let why) = origin else {
            Issue.record("index used after a re-import: \(String(describing: origin))")
            return
        }
        #expect(why.hasPrefix("stale: written for the layer of"), "\(why)")
        let built = Layer.index(of: layer.features)
        Self.expectSameAnswers(layer.index, built, on: Self.points(around: built.boundingBox, count: 2_000, seed: 12))
    }

    /// A hand edit of a feature's geometry through GDAL (whose ST_ functions the R*Tree triggers
    /// need): feature 1 gets feature 2's shape. The loaded layer answers with the new shapes.
    @Test(.enabled(if: hasOGRInfo, "gdal-bin not installed"))
    func geometryEditedInGDALIsSeen() throws {
        let name = "pamplona-sectors"
        let store = try Self.importStore([name])
        let (before, _) = try Self.load(name, from: store.file)
        let (status, output) = try Self.run(
            "/usr/bin/ogrinfo",
            [
                store.file.path, "-sql",
                "UPDATE \"\(name)\" SET geom = (SELECT geom FROM \"\(name)\" WHERE fid = 2) WHERE fid = 1",
            ])
        #expect(status == 0, "\(output)")
        let (layer, origin) = try Self.load(name, from: store.file)
        guard case .rebuilt(let why) = origin else {
            Issue.record("index used after a geometry edit: \(String(describing: origin))")
            return
        }
        #expect(why.hasPrefix("stale: the layer table was edited"), "\(why)")
        #expect(layer.features[0].geometry == before.features[1].geometry)
        // A point well inside feature 2 is now covered by features 1 and 2 (same shape).
        let built = Layer.index(of: before.features)
        let inside = Self.points(around: built.boundingBox, count: 5_000, seed: 9).first {
            built.covering($0) == [1] && built.locate($0, item: 1) == .interior
        }
        let p = try #require(inside)
        #expect(layer.index.covering(p) == [0, 1])
        Self.expectSameAnswers(
            layer.index, Layer.index(of: layer.features),
            on: Self.points(around: built.boundingBox, count: 2_000, seed: 10))
    }

    /// A writer that bypasses the edit-counting triggers (here they are dropped first) and
    /// changes a geometry: the total size of the geometry blobs, part of the index's identity,
    /// no longer matches.
    @Test(.enabled(if: hasOGRInfo, "gdal-bin not installed"))
    func geometryEditWithoutTriggersIsSeen() throws {
        let name = "pamplona-sectors"
        let store = try Self.importStore([name])
        var statements = ["insert", "update", "delete"].map { "DROP TRIGGER \"geoq_layer_index_\(name)_\($0)\"" }
        statements.append("UPDATE \"\(name)\" SET geom = (SELECT geom FROM \"\(name)\" WHERE fid = 3) WHERE fid = 1")
        for sql in statements {
            let (status, output) = try Self.run("/usr/bin/ogrinfo", [store.file.path, "-sql", sql])
            #expect(status == 0, "\(sql): \(output)")
        }
        let (layer, origin) = try Self.load(name, from: store.file)
        guard case .rebuilt(let why) = origin else {
            Issue.record("index used after a geometry edit: \(String(describing: origin))")
            return
        }
        #expect(why.hasPrefix("stale: written for") && why.contains("bytes of geometry"), "\(why)")
        #expect(layer.features[0].geometry == layer.features[2].geometry)
        Self.expectSameAnswers(
            layer.index, Layer.index(of: layer.features),
            on: Self.points(around: layer.index.boundingBox, count: 2_000, seed: 11))
    }

    /// GDAL still opens the store cleanly, with the same feature layers as a store without
    /// indexes; the index tables are not feature layers (GDAL lists tables outside
    /// gpkg_contents as non-spatial ones, as it lists geoq_layers).
    @Test(.enabled(if: hasOGRInfo, "gdal-bin not installed"))
    func gdalSeesTheSameLayers() throws {
        let store = try Self.importStore()
        let (status, output) = try Self.run("/usr/bin/ogrinfo", ["-ro", "-q", store.file.path])
        #expect(status == 0, "\(output)")
        #expect(!output.contains("ERROR") && !output.contains("Warning"), "\(output)")
        let listed = output.split(separator: "\n").map(String.init)
        let spatial = listed.filter { !$0.hasSuffix("(None)") }
        #expect(
            spatial == [
                "1: pamplona-sectors (Multi Polygon)", "2: valencia-census-sections (Multi Polygon)",
            ], "\(output)")
        let nonSpatial = listed.filter { $0.hasSuffix("(None)") }.map { $0.split(separator: " ")[1] }
        #expect(nonSpatial == ["geoq_layers", "geoq_layer_index", "geoq_layer_index_chunks"], "\(output)")
        // And it reads the features as before.
        let (status2, output2) = try Self.run(
            "/usr/bin/ogrinfo", ["-ro", "-so", store.file.path, "valencia-census-sections"])
        #expect(status2 == 0 && output2.contains("Feature Count: 589"), "\(output2)")
    }

    /// A catalog layer read from its source file builds its index (there is no store).
    @Test func catalogLayerBuildsItsIndex() throws {
        let file = try temporaryDirectory().appendingPathComponent("none.gpkg")
        let library = try LayerLibrary(locations: try Self.importLocations(file), storeFile: file)
        _ = try library.layer(named: "pamplona-sectors")
        #expect(library.indexOrigin(of: "pamplona-sectors") == .built)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        try ExternalTool.run(executable, arguments)
    }
}

/// A large layer's index is read on a second connection while its rows are read on the first:
/// the bytes are only used if they match the index record read with the rows.
@Suite struct StoredIndexBesideRowsTests {
    static let name = "valencia-census-sections"

    @Test func indexReadBesideTheRowsAnswersAsABuiltOne() throws {
        let store = try StoredIndexTests.importStore([Self.name])
        let package = try GeoPackage.open(at: store.file.path, create: false, readOnly: true)
        let (features, pending) = try StoredIndex.rows(of: Self.name, in: package, sideBySideFrom: 0) {
            () throws(LayerError) in
            do { return try package.features(of: Self.name) } catch {
                throw .storeUnreadable(path: "", reason: "\(error)")
            }
        }
        #expect(pending.readBesideRows)
        let (index, origin) = pending.finish(features: features)
        #expect(origin == .stored)
        let built = Layer.index(of: features)
        StoredIndexTests.expectSameAnswers(
            index, built, on: StoredIndexTests.points(around: built.boundingBox, count: 5_000, seed: 0x5EED_0002))

        // The default threshold reads this small index after the rows, on the same connection.
        let (_, sequential) = try StoredIndex.rows(of: Self.name, in: package) { () throws(LayerError) in
            do { return try package.features(of: Self.name) } catch {
                throw .storeUnreadable(path: "", reason: "\(error)")
            }
        }
        #expect(!sequential.readBesideRows)
        #expect(sequential.finish(features: features).origin == .stored)
    }

    /// Bytes that do not match the record (another index written in between) are refused.
    @Test func bytesNotMatchingTheRecordAreRefused() throws {
        let store = try StoredIndexTests.importStore([Self.name])
        let package = try GeoPackage.open(at: store.file.path, create: false, readOnly: true)
        let record = try package.layerIndexRecord(
            of: Self.name, kind: StoredIndex.polygonKind, format: PolygonIndex.storageFormat
        ).get()
        #expect(try package.layerIndexBytes(of: Self.name, record: record).get().bytes.count == Int(record.byteCount))
        let others = [
            GeoPackage.LayerIndexRecord(
                byteCount: record.byteCount, checksum: record.checksum ^ 1, chunkCount: record.chunkCount),
            GeoPackage.LayerIndexRecord(
                byteCount: record.byteCount - 8, checksum: record.checksum, chunkCount: record.chunkCount),
            GeoPackage.LayerIndexRecord(
                byteCount: record.byteCount, checksum: record.checksum, chunkCount: record.chunkCount + 1),
        ]
        for other in others {
            guard case .failure(let unusable) = try package.layerIndexBytes(of: Self.name, record: other) else {
                Issue.record("bytes accepted for \(other)")
                continue
            }
            #expect(unusable.reason == .damaged)
        }
    }
}
