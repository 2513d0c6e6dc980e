import Foundation
import GeoqCore
import GeoqStore
import GeoqTestSupport
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Testing

@testable import GeoqPostGIS

/// The layer tables in PostgreSQL: WKB as PostGIS reads and writes it, layers replaced whole or
/// by partition, versions and their announcements. Each test works in a schema of its own.
@Suite(.enabled(if: TestPostgres.available, Comment(rawValue: TestPostgres.missing)))
struct PostGISLayerStoreTests {
    static func store() throws -> PostGISLayerStore {
        let text = try #require(TestPostgres.address(schema: "layers"))
        return try PostGISLayerStore.connect(to: try PostgresAddress(parsing: text))
    }

    static func square(_ x: Double, _ y: Double, side: Double = 1) throws -> Polygon {
        Polygon(
            shell: try Ring(closing: [
                Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side),
            ]))
    }

    /// Each geometry geoq writes, its WKT as PostGIS prints it (worked out by hand), and back.
    @Test func wkbRoundTripsThroughPostGIS() throws {
        let db = try Self.store().db
        let holed = Polygon(
            shell: try Ring(closing: [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 4, y: 4), Point(x: 0, y: 4)]),
            holes: [try Ring(closing: [Point(x: 1, y: 1), Point(x: 1, y: 2), Point(x: 2, y: 2), Point(x: 2, y: 1)])])
        let cases: [(Geometry, String)] = [
            (.point(Point(x: -1.646056, y: 42.810589)), "POINT(-1.646056 42.810589)"),
            (.multiPoint([Point(x: 1, y: 2), Point(x: 3, y: 4)]), "MULTIPOINT((1 2),(3 4))"),
            (.lineString([Point(x: 0, y: 0), Point(x: 1, y: 1.5)]), "LINESTRING(0 0,1 1.5)"),
            (
                .multiLineString([[Point(x: 0, y: 0), Point(x: 1, y: 0)], [Point(x: 2, y: 2), Point(x: 3, y: 3)]]),
                "MULTILINESTRING((0 0,1 0),(2 2,3 3))"
            ),
            (.polygon(holed), "POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,1 2,2 2,2 1,1 1))"),
            (
                .multiPolygon(MultiPolygon([try Self.square(0, 0), try Self.square(5, 5, side: 0.5)])),
                "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,5.5 5,5.5 5.5,5 5.5,5 5)))"
            ),
        ]
        for (geometry, wkt) in cases {
            let bytes = WKB.encode(geometry)
            let rows = try db.query(
                "SELECT ST_AsText(ST_GeomFromWKB(\(ByteBuffer(bytes: bytes)), 4326)), ST_AsBinary(ST_GeomFromWKB(\(ByteBuffer(bytes: bytes)), 4326)), ST_IsValid(ST_GeomFromWKB(\(ByteBuffer(bytes: bytes))))"
            )
            let (text, binary, valid) = try #require(rows.first).decode((String, ByteBuffer, Bool).self)
            #expect(text == wkt)
            #expect(valid)
            #expect(try WKB.decode(Array(binary.readableBytesView)) == geometry)
        }
        // PostGIS's own WKB of a WKT we write by hand decodes to the geometry we mean.
        let rows = try db.query("SELECT ST_AsBinary(ST_GeomFromText('POLYGON((0 0,1 0,1 1,0 1,0 0))'))")
        let binary = try #require(rows.first).decode(ByteBuffer.self)
        #expect(try WKB.decode(Array(binary.readableBytesView)) == .polygon(try Self.square(0, 0)))
    }

    static func features(_ count: Int, source: String? = nil, offset: Double = 0) throws -> [Feature] {
        try (0..<count).map { i in
            var properties: [String: PropertyValue] = [
                "code": .number(Double(i) + 0.25), "label": .string("Área \(i) \"quoted\""), "open": .bool(i % 2 == 0),
            ]
            if i == 1 { properties["label"] = .null }
            if let source { properties["source"] = .string(source) }
            return Feature(
                id: "f\(i)", name: i == 2 ? nil : "Name \(i)",
                geometry: .polygon(try square(Double(i) + offset, 0)), properties: properties)
        }
    }

    @Test func replaceLayerReadsBackFeatureForFeature() throws {
        let store = try Self.store()
        #expect(try store.layers().isEmpty)
        let features = try Self.features(3)
        let version = try store.replaceLayer(
            StoredLayerInput(
                name: "test-areas", title: "Test areas", features: features, source: "memory", sourceCRS: "EPSG:4326",
                approximate: "drawn by hand", notes: ["one", "two\nlines"]))
        #expect(try store.features(of: "test-areas") == features)
        let layers = try store.layers()
        #expect(layers.count == 1)
        let (info, stored) = try #require(layers.first)
        #expect(stored == version)
        #expect(info.geometryType == "POLYGON" && info.featureCount == 3 && info.approximate == "drawn by hand")
        #expect(info.notes == ["one", "two lines"])
        #expect(info.extent == BoundingBox(minX: 0, minY: 0, maxX: 3, maxY: 1))
        #expect(info.importedAt.hasSuffix("Z") && info.importedAt.count == 24)
        // The geometry column is typed and indexed, so that QGIS and the planner know it.
        let schema = store.address.schema
        let column = try store.db.query(
            "SELECT type, srid FROM geometry_columns WHERE f_table_schema = \(schema) AND f_table_name = 'test-areas'")
        let (type, srid) = try #require(column.first).decode((String, Int).self)
        #expect(type == "POLYGON" && srid == 4326)
        let indexes = try store.db.query(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = \(schema) AND tablename = 'test-areas'")
        #expect(indexes.contains { (try? $0.decode(String.self))?.contains("USING gist (geom)") == true })
    }

    @Test func failedImportLeavesThePreviousLayer() throws {
        let store = try Self.store()
        let features = try Self.features(3)
        let first = try store.replaceLayer(
            StoredLayerInput(name: "keep", title: "Kept", features: features, source: "a", sourceCRS: "EPSG:4326"))
        // A NUL in a text value is refused by PostgreSQL in the middle of the write.
        var broken = try Self.features(5)
        broken[4].properties["label"] = .string("bad\u{0}text")
        #expect(throws: PostGISError.self) {
            try store.replaceLayer(
                StoredLayerInput(name: "keep", title: "Broken", features: broken, source: "b", sourceCRS: "EPSG:4326"))
        }
        #expect(try store.features(of: "keep") == features)
        #expect(try store.versions() == ["keep": first])
        #expect(try store.layers().first?.info.title == "Kept")
    }

    @Test func partitionReplacementKeepsOtherSources() throws {
        let store = try Self.store()
        let a = try Self.features(3, source: "a")
        let b = try Self.features(2, source: "b", offset: 10).map { f -> Feature in
            var g = f
            g.id = "b-" + f.id
            return g
        }
        try store.replaceLayer(
            StoredLayerInput(name: "incidents", title: "I", features: a + b, source: "x", sourceCRS: "EPSG:4326"))
        let before = try store.versions()["incidents"]
        // Source a: f0 changes, f1 is gone, f2 stays, f3 is new.
        var changed = a[0]
        changed.name = "Renamed"
        changed.properties["extra"] = .string("new column")
        let new = try Self.features(4, source: "a")[3]
        var heldIDs: [String] = []
        let result = try #require(
            try store.replacePartition(
                of: "incidents", column: "source", value: "a", source: "feed-a", notes: ["refreshed a"],
                with: { ids in
                    heldIDs = ids
                    return [changed, a[2], new]
                }))
        #expect(heldIDs == ["f0", "f1", "f2"])
        #expect(result == GeoPackage.PartitionReplacement(updated: 2, inserted: 1, deleted: 1, rowCount: 5))
        let read = try store.features(of: "incidents")
        func withExtra(_ f: Feature, _ value: PropertyValue = .null) -> Feature {
            var g = f
            g.properties["extra"] = value
            return g
        }
        // Stored order: rewritten rows keep their place, the new one comes last; b is untouched.
        #expect(
            read == [withExtra(changed, .string("new column")), withExtra(a[2])] + b.map { withExtra($0) } + [
                withExtra(new)
            ])
        let info = try #require(try store.layers().first)
        #expect(info.info.source == "feed-a" && info.info.notes == ["refreshed a"] && info.info.featureCount == 5)
        #expect(info.version > (before ?? .max))
        // A layer that cannot take the partition is left for a whole rewrite.
        #expect(
            try store.replacePartition(of: "nothing", column: "source", value: "a", source: "", notes: []) { _ in [] }
                == nil)
    }

    /// A NOTIFY with the layer's new version arrives on the store's channel after an import and
    /// after a hand edit in SQL (through the table's statement trigger).
    @Test func changesAreAnnouncedWithTheirVersion() async throws {
        let store = try Self.store()
        let address = store.address
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let listener = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 7,
            logger: Logger(label: "test.listen"))
        let received = NotificationBox()
        _ = listener.addListener(channel: address.changesChannel) { _, notification in
            received.append(notification.payload)
        }
        _ = try await listener.query(
            PostgresQuery(unsafeSQL: "LISTEN \(address.changesChannel)"), logger: Logger(label: "t"))

        let imported = try store.replaceLayer(
            StoredLayerInput(
                name: "watched", title: "W", features: try Self.features(2), source: "s", sourceCRS: "EPSG:4326"))
        try await received.waitFor("\(imported)")

        try store.db.query(
            PostgresQuery(unsafeSQL: "UPDATE \(address.schema).\"watched\" SET geoq_name = 'edited by hand'"))
        let edited = try #require(try store.versions()["watched"])
        #expect(edited > imported)
        try await received.waitFor("\(edited)")
        #expect(received.payloads == ["\(imported)", "\(edited)"])
        // The documented call announces a change made with the trigger set aside.
        let called = try store.announce("watched")
        try await received.waitFor("\(called)")
        #expect(try store.features(of: "watched").map(\.name) == ["edited by hand", "edited by hand"])
        try await listener.close()
    }
}

/// Payloads received by a listener, from the event loop to the test.
final class NotificationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [String] = []

    func append(_ payload: String) { lock.withLock { received.append(payload) } }

    var payloads: [String] { lock.withLock { received } }

    func waitFor(_ payload: String, seconds: Double = 5) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !payloads.contains(payload) {
            guard Date() < deadline else {
                Issue.record("no NOTIFY \(payload) within \(seconds) s (got \(payloads))")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
