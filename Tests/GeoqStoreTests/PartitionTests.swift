import Foundation
import GeoqCore
import Testing

@testable import GeoqStore

/// Replacing one partition of a layer (the rows with one value in a column) leaves every other
/// row as stored, keeps the R*Tree index, the extent and the metadata right, and is one
/// transaction.
@Suite struct PartitionTests {
    static func point(_ id: String, _ x: Double, _ y: Double, feed: String, note: String = "") -> Feature {
        Feature(
            id: id, name: "Calle \(id)", geometry: .point(Point(x: x, y: y)),
            properties: ["feed": .string(feed), "note": .string(note)])
    }

    static let a = [point("1", -0.88, 41.64, feed: "a"), point("2", -0.89, 41.65, feed: "a")]
    static let b = [
        point("1", -1.64, 42.81, feed: "b"),
        Feature(id: "9", name: "sin lugar", geometry: .multiPoint([]), properties: ["feed": .string("b")]),
        point("3", -0.37, 39.47, feed: "b"),
    ]

    /// Every row of the table as SQLite stores it, in fid order (quote() shows exact bytes).
    static func rows(_ store: GeoPackage, where condition: String = "1") throws -> [String] {
        let stmt = try store.connection.prepare(
            "SELECT fid, quote(geom), geoq_id, geoq_name, quote(feed), quote(note) FROM layer WHERE \(condition) ORDER BY fid"
        )
        var rows: [String] = []
        while try stmt.step() { rows.append((0..<6).map { stmt.text(at: $0) ?? "NULL" }.joined(separator: "|")) }
        return rows
    }

    /// The R*Tree's entries as (fid, box) against each row's geometry, brute force.
    static func expectIndexMatches(_ store: GeoPackage) throws {
        let stmt = try store.connection.prepare("SELECT id, minx, maxx, miny, maxy FROM rtree_layer_geom ORDER BY id")
        var index: [Int64: [Double]] = [:]
        while try stmt.step() { index[stmt.int64(at: 0)] = (1...4).map { stmt.double(at: Int32($0)) } }
        let fids = try store.connection.prepare("SELECT fid, geom FROM layer ORDER BY fid")
        var expected: Set<Int64> = []
        while try fids.step() {
            let geometry = try fids.withBlob(at: 1) { (bytes) throws(StoreError) in try GPKGGeometry.decode(bytes) }
            let box = geometry.boundingBox
            guard !box.isEmpty else { continue }
            let fid = fids.int64(at: 0)
            expected.insert(fid)
            let entry = try #require(index[fid], "fid \(fid) not indexed")
            // float32, rounded outward
            #expect(entry[0] <= box.minX && entry[1] >= box.maxX && entry[2] <= box.minY && entry[3] >= box.maxY)
            #expect(box.minX - entry[0] < 1e-5 && entry[1] - box.maxX < 1e-5)
        }
        #expect(Set(index.keys) == expected)
    }

    @Test func otherPartitionsStayByteIdenticalAndTheIndexFollows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        try store.replaceLayer(
            StoredLayerInput(name: "layer", title: "t", features: Self.a + Self.b, source: "x", sourceCRS: "EPSG:4326"))
        let bBefore = try Self.rows(store, where: "feed = 'b'")
        #expect(bBefore.count == 3)

        // "2" moves, "1" stays, "7" is new (an empty geometry), and nothing of "a" ends.
        var given: [String]?
        let moved = Self.point("2", -0.90, 41.70, feed: "a", note: "movido")
        let new = Feature(id: "7", geometry: .multiPoint([]), properties: ["feed": .string("a"), "extra": .number(3)])
        let result = try #require(
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "y", notes: ["n"]) { ids in
                given = ids
                return [Self.a[0], moved, new]
            })
        #expect(given == ["1", "2"])
        #expect(result == GeoPackage.PartitionReplacement(updated: 2, inserted: 1, deleted: 0, rowCount: 6))
        #expect(try Self.rows(store, where: "feed = 'b'") == bBefore)
        #expect(try store.features(of: "layer").map(\.id) == ["1", "2", "1", "9", "3", "7"])
        #expect(try store.features(of: "layer")[1] == moved.with(["extra": .null]))
        #expect(try store.features(of: "layer")[5].properties["extra"] == .number(3))
        try Self.expectIndexMatches(store)
        let info = try store.layer(named: "layer")
        #expect(info.extent == BoundingBox(minX: -1.64, minY: 39.47, maxX: -0.37, maxY: 42.81))
        #expect(info.source == "y" && info.notes == ["n"] && info.featureCount == 6)

        // "a" now only "7": "1" and "2" end, and the extent shrinks to b's.
        let ended = try #require(
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "y", notes: []) { _ in [new] })
        #expect(ended == GeoPackage.PartitionReplacement(updated: 1, inserted: 0, deleted: 2, rowCount: 4))
        #expect(try Self.rows(store, where: "feed = 'b'") == bBefore)
        try Self.expectIndexMatches(store)
        #expect(
            try store.layer(named: "layer").extent == BoundingBox(minX: -1.64, minY: 39.47, maxX: -0.37, maxY: 42.81))
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func aLayerThatCannotTakeThePartitionIsLeftAlone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        #expect(
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "", notes: []) { _ in [] }
                == nil)
        try store.replaceLayer(
            StoredLayerInput(name: "layer", title: "t", features: Self.a, source: "x", sourceCRS: "EPSG:4326"))
        let before = try Self.rows(store)
        // A polygon in a POINT layer, a number in the TEXT column `note`, no column `other`.
        let polygon = Feature(
            id: "p", geometry: .polygon(Polygon(shell: Fixtures.square(0, 0, 1))), properties: ["feed": .string("a")])
        #expect(
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "", notes: []) { _ in [polygon]
            } == nil)
        let number = Feature(
            id: "n", geometry: .point(Point(x: 0, y: 0)), properties: ["feed": .string("a"), "note": .number(1)])
        #expect(
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "", notes: []) { _ in [number] }
                == nil)
        #expect(
            try store.replacePartition(of: "layer", column: "other", value: "a", source: "", notes: []) { _ in [] }
                == nil)
        #expect(try Self.rows(store) == before)
        let outside = #expect(throws: StoreError.self) {
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "", notes: []) { _ in Self.b }
        }
        #expect(outside?.code == .badLayer)
        #expect(try Self.rows(store) == before)
    }

    /// A failure after some rows were written leaves rows, index, extent and metadata as they were.
    @Test func aFailureMidwayLeavesTheStoreAsItWas() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = try GeoPackage.open(at: dir.path("s.gpkg"), create: true)
        try store.replaceLayer(
            StoredLayerInput(name: "layer", title: "t", features: Self.a + Self.b, source: "x", sourceCRS: "EPSG:4326"))
        let rows = try Self.rows(store)
        let infos = try store.layers()
        let index = try store.connection.scalarText(
            "SELECT group_concat(id || ':' || minx || ':' || maxy) FROM rtree_layer_geom")
        let triggers = try store.connection.scalarText(
            "SELECT group_concat(sql) FROM sqlite_master WHERE type = 'trigger'")
        store.afterRowInserted = { row throws(StoreError) in
            if row == 2 { throw StoreError(.sqlite, "injected failure after 2 rows") }
        }
        let error = #expect(throws: StoreError.self) {
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "y", notes: []) { _ in
                [Self.point("2", 5, 5, feed: "a"), Self.point("5", 6, 6, feed: "a"), Self.point("6", 7, 7, feed: "a")]
            }
        }
        store.afterRowInserted = nil
        #expect(error?.message.contains("injected failure") == true)
        #expect(try Self.rows(store) == rows)
        #expect(try store.layers() == infos)
        #expect(
            try store.connection.scalarText(
                "SELECT group_concat(id || ':' || minx || ':' || maxy) FROM rtree_layer_geom") == index)
        #expect(
            try store.connection.scalarText("SELECT group_concat(sql) FROM sqlite_master WHERE type = 'trigger'")
                == triggers)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test(.enabled(if: GDALClientTests.hasValidator, "python3-gdal (osgeo_utils.samples.validate_gpkg) not installed"))
    func gdalValidatorFindsNoErrorAfterAPartitionChanged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = dir.path("s.gpkg")
        let store = try GeoPackage.open(at: path, create: true)
        // Without b's empty geometry: this validator reads the empty flag from bit 3 of the
        // header flags, where the specification (and GDAL's writer) put it in bit 4.
        let b = Self.b.filter { !$0.geometry.boundingBox.isEmpty }
        try store.replaceLayer(
            StoredLayerInput(name: "layer", title: "t", features: Self.a + b, source: "x", sourceCRS: "EPSG:4326"))
        _ = try #require(
            try store.replacePartition(of: "layer", column: "feed", value: "a", source: "y", notes: []) { _ in
                [Self.point("2", -0.95, 41.6, feed: "a"), Self.point("8", -0.8, 41.7, feed: "a", note: "nuevo")]
            })
        let (status, output) = try GDALClientTests.run(
            GDALClientTests.executable("python3")!,
            ["-m", "osgeo_utils.samples.validate_gpkg", "-k", "--extra", "--warning-as-error", path])
        #expect(status == 0, "\(output)")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(output)")
        // GDAL's own view: its rtree triggers and spatial filter see the moved and new points.
        let (infoStatus, info) = try GDALClientTests.run(
            GDALClientTests.executable("ogrinfo")!, ["-ro", "-al", "-spat", "-0.96", "41.59", "-0.79", "41.71", path])
        #expect(infoStatus == 0, "\(info)")
        #expect(info.contains("Feature Count: 2"), "\(info)")
        #expect(info.contains("geoq_id (String) = 8"), "\(info)")
    }
}

extension Feature {
    /// The feature with `extra` properties added.
    fileprivate func with(_ extra: [String: PropertyValue]) -> Feature {
        Feature(id: id, name: name, geometry: geometry, properties: properties.merging(extra) { $1 })
    }
}
