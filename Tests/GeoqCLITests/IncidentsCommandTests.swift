import Foundation
import GeoqTestSupport
import Testing

/// `geoq incidents` end to end against a local feed server: refresh, list nearest first, and a
/// failed refresh (download or parse) that leaves what is held untouched.
@Suite(.serialized) struct IncidentsCommandTests {
    static let fixtures = TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures")

    @Test func refreshListAndFailuresKeepWhatIsHeld() throws {
        let server = try FeedServer(directory: Self.fixtures)
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-incidents-\(UUID()).gpkg")
        defer { try? FileManager.default.removeItem(at: store) }
        func geoq(_ arguments: [String]) throws -> GeoqBinaryTests.Run {
            try GeoqBinaryTests.run(arguments + ["--store", store.path])
        }

        let first = try geoq([
            "incidents", "refresh", "--feed", server.url("/files/zaragoza-type-1.xml?id=1"), "--type", "1",
            "--source", "trafico",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Refreshed source trafico (type 1, Corte de tráfico) from http://127.0.0.1:"))
        #expect(first.stdout.contains("3 items (3 new, 0 updated, 0 ended); 3 incidents held."))
        let water = try geoq([
            "incidents", "refresh", "--feed", server.url("/files/zaragoza-type-0.xml"), "--type", "0",
        ])
        #expect(water.status == 0)
        #expect(water.stdout.contains("1 item (1 new, 0 updated, 0 ended); 4 incidents held."), "\(water.stdout)")

        let near = try geoq(["incidents", "--near", "41.6488", "-0.8891", "--within", "1000", "--format", "json"])
        #expect(near.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as! [String: Any]
        let incidents = object["incidents"] as! [[String: Any]]
        #expect(incidents.map { $0["id"] as! String } == ["trafico-2001", "trafico-2002"])
        #expect(object["held"] as? Int == 4)
        #expect(incidents[0]["publishedDisplay"] as? String == "21/11/2026 18:30:00")

        // Failures: each reported its own way, the four incidents untouched.
        for (path, status, text) in [
            ("/malformed", Int32(65), "the feed could not be read"), ("/truncated", 69, "truncated"),
            ("/notfound", 69, "answered HTTP 404"), ("/error", 69, "answered HTTP 500"),
        ] {
            let r = try geoq(["incidents", "refresh", "--feed", server.url(path), "--type", "1", "--timeout", "3"])
            #expect(r.status == status, "\(path)")
            #expect(r.stderr.contains(text), "\(path): \(r.stderr)")
            #expect(r.stderr.contains("4 incidents held, refreshed"), "\(path)")
        }
        let slow = try geoq(["incidents", "refresh", "--feed", server.url("/slow"), "--type", "1", "--timeout", "1"])
        #expect(slow.status == 69)
        #expect(slow.stderr.contains("did not answer within 1.0 s"))
        // A feed file that is not there is missing input (66), not a failed download.
        let missing = try geoq(["incidents", "refresh", "--feed", "/nonexistent/feed.xml", "--type", "1"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/feed.xml"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("download"), "\(missing.stderr)")
        #expect(missing.stderr.contains("4 incidents held, refreshed"), "\(missing.stderr)")
        let after = try geoq(["incidents", "--format", "json"])
        #expect(
            (try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as! [String: Any])["held"] as? Int == 4)

        // An empty feed is a valid answer: no traffic cuts any more; the water cut stays.
        let empty = try geoq(["incidents", "refresh", "--feed", server.url("/empty"), "--source", "trafico"])
        #expect(empty.status == 0)
        #expect(
            empty.stdout.contains(
                "0 items (0 new, 0 updated, 3 ended); 1 incident held. The feed is empty: this source has no incidents now."
            ), "\(empty.stdout)")
    }

    /// GML in a projected CRS is reprojected with PROJ on refresh. Expected positions from GDAL's
    /// osr (Python bindings): EPSG:25830 (676000, 4613000) -> (-0.886469942, 41.649323306);
    /// feedparser's gml_point_utm.xml, EPSG:26913 (36.9382, 31.1732) -> (-109.488412955, 0.000281163).
    @Test func gmlInAUTMZoneIsReprojected() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-gml-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.gpkg").path
        let feed = directory.appendingPathComponent("utm.xml")
        try Data(
            """
            <?xml version="1.0"?>
            <!-- Written for geoq's tests: one item with a GML point in ETRS89 / UTM 30N. -->
            <rss version="2.0" xmlns:georss="http://www.georss.org/georss" xmlns:gml="http://www.opengis.net/gml">
            <channel><item><title>Plaza del Pilar</title><guid>utm-1</guid>
            <georss:where><gml:Point srsName="EPSG:25830"><gml:pos>676000 4613000</gml:pos></gml:Point></georss:where>
            </item></channel></rss>
            """.utf8
        ).write(to: feed)
        let conformance = TestData.url("georss/feedparser-geo-tests/tests/wellformed/geo/gml_point_utm.xml")
        for (file, type) in [(feed.path, "1"), (conformance.path, "2")] {
            let r = try GeoqBinaryTests.run(["incidents", "refresh", "--feed", file, "--type", type, "--store", store])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let list = try GeoqBinaryTests.run(["incidents", "--format", "json", "--store", store])
        let incidents =
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [String: Any])["incidents"]
            as! [[String: Any]]
        let byType = Dictionary(
            uniqueKeysWithValues: incidents.map { ($0["type"] as! Int, $0["location"] as! [String: Double]) })
        let zaragoza = try #require(byType[1])
        let utm = try #require(byType[2], "the GML point in UTM")
        #expect(abs(zaragoza["longitude"]! - -0.886469942) < 1e-9)
        #expect(abs(zaragoza["latitude"]! - 41.649323306) < 1e-9)
        #expect(abs(utm["longitude"]! - -109.488412955) < 1e-9)
        #expect(abs(utm["latitude"]! - 0.000281163) < 1e-9)
    }

    @Test func argumentsAreChecked() throws {
        #expect(try GeoqBinaryTests.run(["incidents", "refresh", "--feed", "feed.xml", "--source", " "]).status == 64)
        #expect(
            try GeoqBinaryTests.run(["incidents", "refresh", "--feed", "feed.xml", "--format", "geojson"]).status == 64)
        #expect(try GeoqBinaryTests.run(["incidents", "--within", "100"]).status == 64)
        #expect(try GeoqBinaryTests.run(["incidents", "--near", "91", "0"]).status == 64)
        #expect(try GeoqBinaryTests.run(["incidents", "--type", "9"]).status == 64)
        #expect(try GeoqBinaryTests.run(["incidents", "--source", ""]).status == 64)
        #expect(try GeoqBinaryTests.run(["incidents", "--category", " "]).status == 64)
    }
}
