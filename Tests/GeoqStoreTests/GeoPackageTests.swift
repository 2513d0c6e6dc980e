import Foundation
import GeoqCore
import GeoqTestSupport
import Synchronization
import Testing

@testable import GeoqStore

@Suite struct GeoPackageTests {
    /// What the fixture reads back as: mixed column `mezcla` becomes text, nulls stay `.null`.
    static var expectedPamplonaLike: [Feature] {
        var features = Fixtures.pamplonaLike
        features[0].properties["mezcla"] = .string("7")
        return features
    }

    @Test func replaceThenReadGivesTheSameFeaturesAndInfo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        try store.replaceLayer(Fixtures.input("pamplona-sectors", Fixtures.pamplonaLike))

        #expect(try store.features(of: "pamplona-sectors") == Self.expectedPamplonaLike)

        let info = try store.layer(named: "pamplona-sectors")
        #expect(info.name == "pamplona-sectors")
        #expect(info.title == "Title of pamplona-sectors")
        #expect(info.geometryType == "MULTIPOLYGON")
        #expect(info.featureCount == 3)
        #expect(info.extent == BoundingBox(minX: -1.75, minY: 42.5, maxX: -1.4375, maxY: 43))
        #expect(info.source == "pamplona/pamplona-sectors.json")
        #expect(info.sourceCRS == "EPSG:25830")
        #expect(info.approximate == "approximated by barrios")
        #expect(info.notes == ["first note", "second note, with ñ"])
        #expect(info.importedAt.count == 24 && info.importedAt.hasSuffix("Z"))
        #expect(try store.integrityCheck() == "ok")
    }

    /// Text is bound as its UTF-8 bytes: an empty string stays empty (not NULL), short and
    /// long strings, with and without non-ASCII letters, read back as written.
    @Test func textOfAnyLengthReadsBackAsWritten() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        var feature = Fixtures.pamplonaLike[0]
        feature.id = ""
        feature.name = ""
        feature.properties = [
            "vacío": .string(""), "corto": .string("ñ"), "ascii": .string("0123456789abcdef"),
            "largo": .string(String(repeating: "València ", count: 2_000)), "nulo": .null,
        ]
        try store.replaceLayer(Fixtures.input("texts", [feature]))
        let read = try store.features(of: "texts")
        #expect(read == [feature])
        #expect(read.first?.name == "")
        #expect(read.first?.properties["vacío"] == .string(""))
    }

    /// Rows with different property names: each name is a column, typed by the values it has,
    /// and a row without a value for a column reads back as null there, never as the value of
    /// the row written before it.
    @Test func rowsWithDifferentPropertiesLeaveTheOthersNull() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        let shapes = Fixtures.pamplonaLike.map(\.geometry)
        let written = [
            Feature(
                id: "a", name: "A", geometry: shapes[0], properties: ["plazas": .number(12), "zona": .string("azul")]),
            Feature(
                id: "b", name: "B", geometry: shapes[1], properties: ["zona": .string("verde"), "abierto": .bool(true)]),
            Feature(id: "c", name: "C", geometry: shapes[2], properties: [:]),
        ]
        try store.replaceLayer(Fixtures.input("mixed-keys", written))
        let all: Set<String> = ["plazas", "zona", "abierto"]
        let expected = written.map { feature in
            var f = feature
            for key in all where f.properties[key] == nil { f.properties[key] = .null }
            return f
        }
        #expect(try store.features(of: "mixed-keys") == expected)
        #expect(
            try GeoPackage.propertyColumns(of: written).map { "\($0.key) \($0.kind.rawValue)" } == [
                "abierto BOOLEAN", "plazas REAL", "zona TEXT",
            ])
    }

    /// Rows whose dictionaries are copies of one (as a shapefile's are: the same names in the
    /// same order) with a row of other names, one of fewer and one of more among them: every
    /// value reads back under its own name, every column typed by all its values.
    @Test func rowsOfOneNameOrderAndOthersKeepEveryValueInItsColumn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        let names = (0..<40).map { "campo_\($0)" }
        var template: [String: PropertyValue] = [:]
        for name in names { template[name] = .null }
        let shapes = Fixtures.randomPolygons(count: 8, vertices: 6, seed: 4).map(\.geometry)
        var written: [Feature] = []
        for (row, shape) in shapes.enumerated() {
            var properties = template
            for (k, name) in names.enumerated() { properties[name] = .number(Double(row * 100 + k)) }
            if row == 3 {
                properties = Dictionary(uniqueKeysWithValues: properties.map { ("otro_\($0.key)", $0.value) })
            }
            if row == 5 { properties["campo_7"] = nil }
            if row == 6 { properties["campo_extra"] = .string("texto") }
            if row == 7 { properties["campo_si"] = .bool(true) }
            written.append(Feature(id: "\(row)", name: nil, geometry: shape, properties: properties))
        }
        try store.replaceLayer(Fixtures.input("one-order", written))
        let all = Set(written.flatMap(\.properties.keys))
        let expected = written.map { feature in
            var f = feature
            for key in all where f.properties[key] == nil { f.properties[key] = .null }
            return f
        }
        #expect(try store.features(of: "one-order") == expected)
        let kinds = try GeoPackage.propertyColumns(of: written)
        #expect(kinds.count == 82)
        #expect(
            kinds.filter { $0.kind != .real }.map { "\($0.key) \($0.kind.rawValue)" } == [
                "campo_extra TEXT", "campo_si BOOLEAN",
            ])
    }

    /// A new file opened for its first layer gets its tables in that layer's transaction: none
    /// before, a GeoPackage holding the layer after. A first layer refused (in its rows, or
    /// before its transaction for a bad name) still leaves a GeoPackage, without it, as a file
    /// opened the usual way would be.
    @Test func aNewStoresTablesGoInWithItsFirstLayer() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = dir.path("first.gpkg")
        let store = try GeoPackage.open(at: path, create: true, schemaWithFirstLayer: true)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM sqlite_master") == 0)
        try store.replaceLayer(Fixtures.input("pamplona-sectors", Fixtures.pamplonaLike))
        let reopened = try GeoPackage.open(at: path, create: false, readOnly: true)
        #expect(try reopened.features(of: "pamplona-sectors") == Self.expectedPamplonaLike)
        #expect(try reopened.layers().map(\.name) == ["pamplona-sectors"])
        #expect(try reopened.connection.scalarInt("PRAGMA application_id") == GeoPackage.applicationID)
        #expect(try reopened.connection.scalarInt("PRAGMA page_size") == Int64(GeoPackage.pageSize))
        #expect(try reopened.integrityCheck() == "ok")

        for (name, failsInRows) in [("pamplona-sectors", true), ("Not A Name", false)] {
            let refusedPath = dir.path("refused-\(failsInRows).gpkg")
            let refused = try GeoPackage.open(at: refusedPath, create: true, schemaWithFirstLayer: true)
            if failsInRows {
                refused.afterRowInserted = { rows throws(StoreError) in
                    if rows == 2 { throw StoreError(.sqlite, "injected failure after 2 rows") }
                }
            }
            #expect(throws: StoreError.self) { try refused.replaceLayer(Fixtures.input(name, Fixtures.pamplonaLike)) }
            let empty = try GeoPackage.open(at: refusedPath, create: false, readOnly: true)
            #expect(try empty.layers().isEmpty)
            #expect(try empty.integrityCheck() == "ok")
        }
    }

    @Test func reopeningReadsTheSameAndListsLayersSorted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        do {
            let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
            try store.replaceLayer(Fixtures.input("zz-points", [Feature(id: "a", geometry: .point(Point(x: 1, y: 2)))]))
            try store.replaceLayer(Fixtures.input("aa-polygons", Fixtures.pamplonaLike))
            try store.replaceLayer(
                Fixtures.input(
                    "mixed",
                    [
                        Feature(id: "p", geometry: .point(Point(x: 0, y: 0))),
                        Feature(id: "l", geometry: .lineString([Point(x: 0, y: 0), Point(x: 1, y: 1)])),
                    ]))
        }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: false, readOnly: true)
        let infos = try store.layers()
        #expect(infos.map(\.name) == ["aa-polygons", "mixed", "zz-points"])
        #expect(infos.map(\.geometryType) == ["MULTIPOLYGON", "GEOMETRY", "POINT"])
        #expect(infos.map(\.featureCount) == [3, 2, 1])
        #expect(infos[2].extent == BoundingBox(minX: 1, minY: 2, maxX: 1, maxY: 2))
        #expect(try store.features(of: "zz-points") == [Feature(id: "a", geometry: .point(Point(x: 1, y: 2)))])
        #expect(try store.features(of: "aa-polygons") == Self.expectedPamplonaLike)
    }

    /// A layer's index goes in the layer's own transaction, first import or replacement: a
    /// replacement's chunks are numbered after the old index's, which go with the old rows. A
    /// refused replacement keeps the old rows and their index; a refused first import leaves
    /// neither rows nor index.
    @Test func indexGoesWithTheRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        func bytes(_ seed: Int) -> [UInt8] {
            (0..<300_000).map { UInt8(truncatingIfNeeded: ($0 + seed) &* 2_654_435_761 >> 7) }
        }
        func input(_ seed: Int) -> GeoPackage.LayerIndexInput {
            GeoPackage.LayerIndexInput(kind: .init(rawValue: "test"), format: 3, bytes: bytes(seed))
        }
        func stored(_ name: String) throws -> Result<[UInt8], GeoPackage.UnusableIndex> {
            try store.withLayerIndex(of: name, kind: .init(rawValue: "test"), format: 3) { Array($0.bytes) }
        }
        func chunkNumbers() throws -> [Int64] {
            let select = try store.connection.prepare("SELECT chunk FROM geoq_layer_index_chunks ORDER BY chunk")
            var numbers: [Int64] = []
            while try select.step() { numbers.append(select.int64(at: 0)) }
            return numbers
        }
        let layer = Fixtures.input("sectors", Fixtures.pamplonaLike)

        try store.replaceLayer(layer, notes: { [] }) { input(0) }
        #expect(try stored("sectors") == .success(bytes(0)))
        #expect(try chunkNumbers() == [0])

        try store.replaceLayer(layer, notes: { [] }) { input(1) }
        #expect(try stored("sectors") == .success(bytes(1)))
        #expect(try chunkNumbers() == [1])

        #expect(throws: StoreError.self) {
            try store.replaceLayer(layer, notes: { () throws(StoreError) in throw StoreError(.badLayer, "refused") }) {
                input(2)
            }
        }
        #expect(try stored("sectors") == .success(bytes(1)))
        #expect(try chunkNumbers() == [1])

        // An index written apart starts again from chunk 0.
        try store.replaceLayerIndex(of: "sectors", input(3))
        #expect(try stored("sectors") == .success(bytes(3)))
        #expect(try chunkNumbers() == [0])
        #expect(try store.integrityCheck() == "ok")

        let fresh = try GeoPackage.open(at: dir.path("fresh.gpkg"), create: true)
        #expect(throws: StoreError.self) {
            try fresh.replaceLayer(layer, notes: { () throws(StoreError) in throw StoreError(.badLayer, "refused") }) {
                input(0)
            }
        }
        #expect(try fresh.layerNames().isEmpty)
        #expect(try fresh.integrityCheck() == "ok")
        let left = try fresh.withLayerIndex(of: "sectors", kind: .init(rawValue: "test"), format: 3) { _ in () }
        guard case .failure(let none) = left else {
            Issue.record("a refused import left an index")
            return
        }
        #expect(none.reason == .missing)
    }

    /// An index larger than a chunk is stored in as many chunks as it fills, numbered on at a
    /// replacement, and read back whole.
    @Test func largeIndexGoesInChunks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        let size = GeoPackage.chunkSize * 5 / 2
        // Each round's bytes differ in every chunk (the checksum the reader checks covers the rest).
        func bytes(_ round: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: UInt8(round), count: size)
            for k in stride(from: 0, to: size, by: GeoPackage.chunkSize / 2) { bytes[k] = UInt8(100 + round) }
            return bytes
        }
        func input(_ round: Int) -> GeoPackage.LayerIndexInput {
            GeoPackage.LayerIndexInput(kind: .init(rawValue: "test"), format: 3, bytes: bytes(round))
        }
        func chunkSizes() throws -> [Int64: Int64] {
            let select = try store.connection.prepare("SELECT chunk, length(data) FROM geoq_layer_index_chunks")
            var sizes: [Int64: Int64] = [:]
            while try select.step() { sizes[select.int64(at: 0)] = select.int64(at: 1) }
            return sizes
        }
        let layer = Fixtures.input("sectors", Fixtures.pamplonaLike)
        let whole = Int64(GeoPackage.chunkSize)
        for (round, first) in [(0, Int64(0)), (1, 3)] {
            try store.replaceLayer(layer, notes: { [] }) { input(round) }
            #expect(try chunkSizes() == [first: whole, first + 1: whole, first + 2: whole / 2])
            let expected = bytes(round)
            let read = try store.withLayerIndex(of: "sectors", kind: .init(rawValue: "test"), format: 3) { blob in
                blob.bytes.count == size
                    && stride(from: 0, to: size, by: GeoPackage.chunkSize / 4).allSatisfy {
                        blob.bytes[$0] == expected[$0]
                    }
            }
            #expect(read == .success(true))
        }
    }

    /// An index handed over in pieces (as an import hands over the index it is still building)
    /// is stored as the pieces one after the other: each piece in chunks of its own, the
    /// checksum over all of them whatever their sizes (none a multiple of the checksum's
    /// 32-byte stripes here, one empty), read back whole.
    @Test func indexInPiecesReadsBackWhole() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("store.gpkg"), create: true)
        let sizes = [5, 40, 0, 27, GeoPackage.chunkSize + 3, 1]
        var random = SeededRandom(seed: 7)
        let pieces = sizes.map { size in (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let whole = pieces.flatMap { $0 }
        let handed = Mutex(pieces)
        let input = GeoPackage.LayerIndexInput(kind: .init(rawValue: "test"), format: 3) {
            handed.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
        try store.replaceLayer(Fixtures.input("sectors", Fixtures.pamplonaLike), notes: { [] }) { input }
        let read = try store.withLayerIndex(of: "sectors", kind: .init(rawValue: "test"), format: 3) { Array($0.bytes) }
        let readWhole = read == .success(whole)
        #expect(readWhole, "the bytes read back differ from the pieces written")
        let record = try store.connection.prepare("SELECT byte_count, checksum, chunk_count FROM geoq_layer_index")
        #expect(try record.step())
        #expect(record.int64(at: 0) == Int64(whole.count))
        #expect(UInt64(bitPattern: record.int64(at: 1)) == whole.withUnsafeBytes(IndexChecksum.of))
        // The long piece takes two chunks, the empty one none.
        #expect(record.int64(at: 2) == 6)
    }

    @Test func replacingALayerLeavesNoTraceOfTheOldOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        try store.replaceLayer(Fixtures.input("barrios", Fixtures.pamplonaLike))
        let replacement = Fixtures.randomPolygons(count: 5, vertices: 6, seed: 1)
        try store.replaceLayer(Fixtures.input("barrios", replacement))
        #expect(try store.features(of: "barrios") == replacement)
        #expect(try store.layer(named: "barrios").featureCount == 5)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM gpkg_contents") == 1)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM gpkg_extensions") == 1)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM \"rtree_barrios_geom\"") == 5)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 6)
        // New columns: the rows went into a table of a passing name, renamed once the old table
        // was dropped; the R*Tree was replaced in place. No table of another name is left, and
        // the R*Tree's shadow tables carry its own name.
        let tables = try store.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.text(at: 0) ?? "") }
        #expect(
            names.filter { $0.contains("barrios") || $0.contains("staging") } == [
                "barrios", "rtree_barrios_geom", "rtree_barrios_geom_node", "rtree_barrios_geom_parent",
                "rtree_barrios_geom_rowid",
            ])
        #expect(try store.connection.scalarInt("PRAGMA page_size") == Int64(GeoPackage.pageSize))
    }

    /// Rows of the same columns go into the layer's own table, numbered on from the old rows
    /// (above any fid the table gave out, as AUTOINCREMENT promises), and the old rows go after
    /// them; whatever another tool hung on the table (an index, a trigger) goes as it would
    /// with the table.
    @Test func replacingWithTheSameColumnsNumbersTheNewRowsOn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        try store.replaceLayer(Fixtures.input("barrios", Fixtures.randomPolygons(count: 7, vertices: 6, seed: 2)))
        let definition = "SELECT sql FROM sqlite_master WHERE name = 'barrios'"
        let madeAs = try store.connection.scalarText(definition)
        try store.connection.execute(
            """
            DELETE FROM barrios WHERE fid = 7;
            CREATE INDEX barrios_by_name ON barrios (geoq_name);
            CREATE TABLE audit (fid INTEGER);
            CREATE TRIGGER barrios_audit AFTER INSERT ON barrios BEGIN INSERT INTO audit VALUES (NEW.fid); END;
            """)
        let replacement = Fixtures.randomPolygons(count: 5, vertices: 6, seed: 3)
        try store.replaceLayer(Fixtures.input("barrios", replacement))

        #expect(try store.features(of: "barrios") == replacement)
        #expect(try store.connection.scalarText(definition) == madeAs)
        var fids: [Int64] = []
        let rows = try store.connection.prepare("SELECT fid FROM barrios ORDER BY fid")
        while try rows.step() { fids.append(rows.int64(at: 0)) }
        #expect(fids == [8, 9, 10, 11, 12])
        var entries: [Int64] = []
        let rtree = try store.connection.prepare("SELECT id FROM rtree_barrios_geom ORDER BY id")
        while try rtree.step() { entries.append(rtree.int64(at: 0)) }
        #expect(entries == fids)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM audit") == 0)
        let objects = try store.connection.prepare(
            "SELECT name FROM sqlite_master WHERE name LIKE '%barrios%' AND name NOT LIKE 'rtree_barrios_geom%'")
        var names: [String] = []
        while try objects.step() { names.append(objects.text(at: 0) ?? "") }
        #expect(names == ["barrios"])
        #expect(try store.connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 6)
        #expect(try store.layer(named: "barrios").featureCount == 5)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func rtreeHoldsEachFeatureBoxRoundedOutward() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        let features = Fixtures.randomPolygons(count: 50, vertices: 8, seed: 7)
        try store.replaceLayer(Fixtures.input("random", features))
        let stmt = try store.connection.prepare(
            "SELECT id, minx, maxx, miny, maxy FROM \"rtree_random_geom\" ORDER BY id")
        var row = 0
        while try stmt.step() {
            let box = features[row].geometry.boundingBox
            #expect(stmt.int64(at: 0) == Int64(row + 1))
            #expect(stmt.double(at: 1) <= box.minX && stmt.double(at: 2) >= box.maxX)
            #expect(stmt.double(at: 3) <= box.minY && stmt.double(at: 4) >= box.maxY)
            #expect(abs(stmt.double(at: 1) - box.minX) < 1e-5)
            row += 1
        }
        #expect(row == 50)
    }

    @Test func gpkgHeaderPragmasAndRequiredRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        #expect(try store.connection.scalarInt("PRAGMA application_id") == 1_196_444_487)
        #expect(try store.connection.scalarInt("PRAGMA user_version") == 10300)
        #expect(try store.connection.scalarText("SELECT group_concat(srs_id) FROM gpkg_spatial_ref_sys") == "-1,0,4326")
        // The file header itself: bytes 68..<72 are "GPKG".
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("s.gpkg"))))
        #expect(Array(bytes[68..<72]) == Array("GPKG".utf8))
    }

    @Test func unknownLayerListsTheKnownOnes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        try store.replaceLayer(Fixtures.input("one", Fixtures.pamplonaLike))
        try store.replaceLayer(Fixtures.input("two", Fixtures.pamplonaLike, title: "Two"))
        let error = #expect(throws: StoreError.self) { try store.features(of: "three") }
        #expect(error?.code == .unknownLayer)
        #expect(error?.message.contains("'three'") == true)
        #expect(error?.message.contains("layers: one, two") == true)
        #expect((#expect(throws: StoreError.self) { try store.layer(named: "three") })?.code == .unknownLayer)
    }

    @Test func badLayerNamesAndClashingColumnsAreRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        let point = Feature(id: "a", geometry: .point(Point(x: 1, y: 2)))
        for name in ["", "Upper", "with space", "quote\"", "gpkg_contents", "rtree_x", "ñ"] {
            let error = #expect(throws: StoreError.self) { try store.replaceLayer(Fixtures.input(name, [point])) }
            #expect(error?.code == .badLayer, "\(name)")
        }
        for keys in [["FID"], ["Geom"], ["nombre", "NOMBRE"], ["geoq_id"]] {
            var feature = point
            for key in keys { feature.properties[key] = .string("x") }
            let error = #expect(throws: StoreError.self) { try store.replaceLayer(Fixtures.input("ok", [feature])) }
            #expect(error?.code == .badLayer, "\(keys)")
        }
        #expect(try store.layers().isEmpty)
    }

    /// A store whose writer died in a transaction (its rollback journal left "hot") opens
    /// read-only as it was before the transaction: the journal is rolled back first, which a
    /// read-only connection cannot do (it failed with SQLite code 776).
    @Test func readOnlyOpenAfterAWriterDiedRollsItsTransactionBack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = dir.path("s.gpkg")
        let features = Fixtures.randomPolygons(count: 3_000, vertices: 8, seed: 9)
        try GeoPackage.open(at: path, create: true).replaceLayer(Fixtures.input("barrios", features))
        // A writer half-way through a transaction, with a cache so small that it has written
        // changed pages to the file (its journal synced first, which makes the journal hot
        // should the writer die): the file and the journal, copied as they are, are what a
        // writer killed at that moment leaves.
        let writer = try SQLiteConnection(path: path, mode: .readWrite)
        try writer.execute(
            "PRAGMA cache_size = 2; BEGIN IMMEDIATE; DELETE FROM barrios; DELETE FROM rtree_barrios_geom;")
        let copy = dir.path("copy.gpkg")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-journal", toPath: copy + "-journal")
        try writer.execute("ROLLBACK")

        let store = try GeoPackage.open(at: copy, create: false, readOnly: true)
        #expect(try store.features(of: "barrios") == features)
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
    }

    @Test func openingSomethingElseFailsNamingThePath() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let missing = dir.path("missing.gpkg")
        let e1 = #expect(throws: StoreError.self) { try GeoPackage.open(at: missing, create: false) }
        #expect(e1?.code == .storeUnreadable)
        #expect(e1?.message.contains(missing) == true)

        let garbage = dir.path("garbage.gpkg")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: garbage))
        let e2 = #expect(throws: StoreError.self) { try GeoPackage.open(at: garbage, create: true) }
        #expect(e2?.code == .storeUnreadable)
        #expect(e2?.message.contains(garbage) == true)

        let plain = dir.path("plain.sqlite")
        do {
            let connection = try SQLiteConnection(path: plain, mode: .readWriteCreate)
            try connection.execute("CREATE TABLE t (x)")
        }
        for create in [false, true] {
            let e3 = #expect(throws: StoreError.self) { try GeoPackage.open(at: plain, create: create) }
            #expect(e3?.code == .notAGeoPackage)
            #expect(e3?.message.contains(plain) == true)
        }
    }

    @Test func sqliteErrorsCarryMessageAndSQL() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let connection = try SQLiteConnection(path: dir.path("c.sqlite"), mode: .readWriteCreate)
        let error = #expect(throws: StoreError.self) { try connection.execute("SELECT nope FROM nowhere") }
        #expect(error?.code == .sqlite)
        #expect(error?.message.contains("no such table: nowhere") == true)
        #expect(error?.message.contains("SELECT nope FROM nowhere") == true)
        #expect(try connection.scalarInt("PRAGMA foreign_keys") == 1)
    }

    @Test func transactionRollsBackOnThrow() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let connection = try SQLiteConnection(path: dir.path("c.sqlite"), mode: .readWriteCreate)
        try connection.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        #expect(throws: StoreError.self) {
            try connection.transaction { () throws(StoreError) in
                try connection.execute("INSERT INTO t VALUES (2)")
                throw StoreError(.sqlite, "injected")
            }
        }
        #expect(try connection.scalarInt("SELECT group_concat(x) FROM t") == 1)
        try connection.transaction { () throws(StoreError) in try connection.execute("INSERT INTO t VALUES (3)") }
        #expect(try connection.scalarText("SELECT group_concat(x) FROM t") == "1,3")
    }

    /// A replacement that fails after some rows leaves the old layer and the others exactly as
    /// they were.
    @Test func failedReplaceLeavesThePreviousStateIntact() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        let old = Fixtures.randomPolygons(count: 20, vertices: 5, seed: 3)
        try store.replaceLayer(Fixtures.input("target", old))
        try store.replaceLayer(Fixtures.input("other", Fixtures.pamplonaLike))
        let infosBefore = try store.layers()

        store.afterRowInserted = { rows throws(StoreError) in
            if rows == 150 { throw StoreError(.sqlite, "injected failure after 150 rows") }
        }
        let error = #expect(throws: StoreError.self) {
            try store.replaceLayer(Fixtures.input("target", Fixtures.randomPolygons(count: 400, vertices: 5, seed: 4)))
        }
        #expect(error?.message.contains("injected failure") == true)
        #expect(error?.message.contains("writing layer 'target'") == true)
        store.afterRowInserted = nil

        // A failure raised by SQLite itself, midway through the transaction (after the old
        // table was dropped and the new one filled): a test-only trigger aborts the insert of
        // the layer's gpkg_contents row.
        try store.connection.execute(
            """
            CREATE TEMP TRIGGER refuse_target BEFORE INSERT ON gpkg_contents WHEN NEW.table_name = 'target'
            BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END
            """)
        let refused = #expect(throws: StoreError.self) {
            try store.replaceLayer(Fixtures.input("target", Fixtures.pamplonaLike, title: "Title of other"))
        }
        #expect(refused?.code == .sqlite)
        #expect(refused?.message.contains("refused by a test trigger") == true)
        try store.connection.execute("DROP TRIGGER temp.refuse_target")

        #expect(try store.features(of: "target") == old)
        #expect(try store.features(of: "other") == Self.expectedPamplonaLike)
        #expect(try store.layers() == infosBefore)
        #expect(try store.connection.scalarInt("SELECT count(*) FROM \"rtree_target_geom\"") == 20)
        #expect(try store.integrityCheck() == "ok")
    }

    /// A full disk in the middle of a replace (simulated exactly with SQLite's
    /// `max_page_count`, which makes the file unable to grow): the error says so, and the store
    /// is left as it was.
    @Test func fullDiskLeavesThePreviousStateIntact() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        let old = Fixtures.randomPolygons(count: 20, vertices: 5, seed: 3)
        try store.replaceLayer(Fixtures.input("target", old))
        let infosBefore = try store.layers()
        let pages = try #require(try store.connection.scalarInt("PRAGMA page_count"))
        try store.connection.execute("PRAGMA max_page_count = \(pages + 2)")
        let full = #expect(throws: StoreError.self) {
            try store.replaceLayer(
                Fixtures.input("target", Fixtures.randomPolygons(count: 2000, vertices: 40, seed: 9)))
        }
        #expect(full?.message.contains("full") == true, "\(full?.message ?? "")")
        #expect(try store.features(of: "target") == old)
        #expect(try store.layers() == infosBefore)
        #expect(try store.integrityCheck() == "ok")
    }

    /// Four connections (one per thread) create the same new file and each write a layer: the
    /// schema is created once and every write waits for the lock instead of failing.
    @Test func concurrentCreatorsAndWritersShareOneStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = dir.path("shared.gpkg")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do {
                let store = try GeoPackage.open(at: path, create: true)
                let features = Fixtures.randomPolygons(count: 200, vertices: 10, seed: UInt64(i))
                try store.replaceLayer(Fixtures.input("layer-\(i)", features))
            } catch {
                failures.withLock { $0.append("\(i): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let store = try GeoPackage.open(at: path, create: false)
        #expect(try store.layers().map(\.name) == ["layer-0", "layer-1", "layer-2", "layer-3"])
        #expect(try store.layers().map(\.featureCount) == [200, 200, 200, 200])
        #expect(try store.connection.scalarInt("SELECT count(*) FROM gpkg_spatial_ref_sys") == 3)
        #expect(try store.integrityCheck() == "ok")
    }

    /// ~1,000 polygons and ~30,000 vertices, the size of the Pamplona + Valencia layers, read
    /// back exactly. (How fast is for the benchmarks' store part, not for a test.)
    @Test func thirtyThousandVerticesReadBackExactly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        let features = Fixtures.randomPolygons(count: 1_000, vertices: 30, seed: 11)
        try store.replaceLayer(Fixtures.input("big", features))
        #expect(try store.features(of: "big") == features)
    }
}
