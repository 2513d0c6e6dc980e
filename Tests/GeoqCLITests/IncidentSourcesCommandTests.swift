import Foundation
import GeoqTestSupport
import Testing

/// `geoq incidents` with several feeds: every feed a source, ids that never collide, filters by
/// source (text, JSON, GeoJSON), and refresh's own help.
@Suite(.serialized) struct IncidentSourcesCommandTests {
    static let geo = "georss/feedparser-geo-tests/tests/wellformed/geo/"

    func withStore(_ body: (_ geoq: ([String]) throws -> GeoqBinaryTests.Run) throws -> Void) throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-sources-\(UUID()).gpkg")
        defer { try? FileManager.default.removeItem(at: store) }
        try body { arguments in try GeoqBinaryTests.run(arguments + ["--store", store.path]) }
    }

    func json(_ run: GeoqBinaryTests.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
    }

    /// feedparser's two entries have no guid, no link, no title and no date: only their
    /// geometries tell them apart, and each keeps its own id.
    @Test func entriesWithoutGuidOrLinkNoLongerOverwriteEachOther() throws {
        try withStore { geoq in
            let utm = TestData.url(Self.geo + "gml_point_utm.xml").path
            let polygon = TestData.url(Self.geo + "georss_polygon.xml").path
            #expect(try geoq(["incidents", "refresh", "--feed", utm, "--type", "2"]).status == 0)
            let second = try geoq(["incidents", "refresh", "--feed", polygon, "--type", "0"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("1 item (1 new, 0 updated, 0 ended); 2 incidents held."), "\(second.stdout)")
            // Without --type, in JSON: accepted, a source and no type.
            let report = try json(try geoq(["incidents", "refresh", "--feed", polygon, "--format", "json"]))
            #expect(report["source"] as? String == "georss_polygon")
            #expect(report["type"] == nil)
            #expect(report["items"] as? Int == 1 && report["updated"] as? Int == 1 && report["held"] as? Int == 2)

            let all = try json(try geoq(["incidents", "--format", "json"]))
            #expect(all["held"] as? Int == 2)
            let items = try #require(all["incidents"] as? [[String: Any]])
            let ids = items.compactMap { $0["id"] as? String }
            #expect(Set(ids).count == 2)
            #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
            #expect(Set(items.compactMap { $0["source"] as? String }) == ["gml_point_utm", "georss_polygon"])

            // --type 2 finds the UTM point (reprojected as GDAL's osr does: -109.488412955, 0.000281163).
            let typed = try json(try geoq(["incidents", "--type", "2", "--format", "json"]))
            let found = try #require((typed["incidents"] as? [[String: Any]])?.first)
            #expect(typed["count"] as? Int == 1)
            #expect(found["source"] as? String == "gml_point_utm")
            let location = try #require(found["location"] as? [String: Double])
            #expect(abs(location["longitude"]! - -109.488412955) < 1e-9)

            // The same file again: the same id, so an update, not a new incident.
            let again = try geoq(["incidents", "refresh", "--feed", utm, "--type", "2"])
            #expect(again.stdout.contains("1 item (0 new, 1 updated, 0 ended); 2 incidents held."), "\(again.stdout)")
            let after = try json(try geoq(["incidents", "--type", "2", "--format", "json"]))
            #expect((after["incidents"] as? [[String: Any]])?.first?["id"] as? String == found["id"] as? String)
        }
    }

    /// Two of the city's feeds from a server (no `?id=` of zaragoza.es, no --type): both
    /// accepted, each a source named after its address; the second ends nothing of the first.
    @Test func twoFeedsRefreshedInTurnBothStayAndFilterBySource() throws {
        let server = try FeedServer(
            directory: TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures"))
        let host = "127.0.0.1:\(server.port)"
        try withStore { geoq in
            let traffic = try geoq(["incidents", "refresh", "--feed", server.url("/files/zaragoza-type-1.xml")])
            #expect(traffic.status == 0, "\(traffic.stderr)")
            #expect(
                traffic.stdout.hasPrefix(
                    "Refreshed source \(host)/files/zaragoza-type-1.xml from \(server.url("/files/zaragoza-type-1.xml")): "
                        + "3 items (3 new, 0 updated, 0 ended); 3 incidents held."), "\(traffic.stdout)")
            let water = try geoq(["incidents", "refresh", "--feed", server.url("/files/zaragoza-type-0.xml")])
            #expect(water.stdout.contains("1 item (1 new, 0 updated, 0 ended); 4 incidents held."), "\(water.stdout)")

            let trafficSource = "\(host)/files/zaragoza-type-1.xml"
            let waterSource = "\(host)/files/zaragoza-type-0.xml"
            let listed = try json(try geoq(["incidents", "--format", "json", "--source", trafficSource]))
            #expect(
                Set((listed["incidents"] as! [[String: Any]]).map { $0["id"] as! String }) == [
                    "trafico-2001", "trafico-2002", "https://www.zaragoza.es/sede/servicio/via-publica/incidencia/2003",
                ])
            #expect(listed["held"] as? Int == 4)
            let both = try json(
                try geoq(["incidents", "--format", "json", "--source", trafficSource, "--source", waterSource]))
            #expect(both["count"] as? Int == 4)

            let geojson = try json(try geoq(["incidents", "--format", "geojson", "--source", waterSource]))
            let features = try #require(geojson["features"] as? [[String: Any]])
            #expect(features.count == 1)
            let properties = try #require(features.first?["properties"] as? [String: Any])
            #expect(properties["source"] as? String == waterSource)
            #expect(properties["id"] as? String == "agua-1001")
            #expect(properties["categories"] as? [String] == [])

            let text = try geoq(["incidents", "--source", waterSource])
            #expect(text.stdout.contains("Calle de Delicias"))
            #expect(text.stdout.contains("    source: \(waterSource)\n"))
            #expect(!text.stdout.contains("Paseo de la Independencia"))
            #expect(try geoq(["incidents", "--source", "nowhere"]).stdout.contains("No incidents match."))
        }
    }

    /// Categories come from the entries themselves (RSS text, Atom term), else from Zaragoza's
    /// type; --category finds them whatever the letter case and accents, in every format.
    @Test func categoriesFromTheEntriesAndFilters() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-categories-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rss = directory.appendingPathComponent("cortes.rss")
        let atom = directory.appendingPathComponent("avisos.atom")
        // Written for this test: two RSS items with categories (one with none), one Atom entry.
        try Data(
            """
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:georss="http://www.georss.org/georss"><channel><title>Cortes</title>
            <item><title>Calle Alfonso I</title><guid>c-1</guid><category>Obras</category>
            <category>Corte de calle</category><georss:point>41.6540 -0.8790</georss:point></item>
            <item><title>Calle Predicadores</title><guid>c-2</guid><georss:point>41.6570 -0.8840</georss:point></item>
            </channel></rss>
            """.utf8
        ).write(to: rss)
        try Data(
            """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss">
            <title>Avisos</title><id>urn:avisos</id><updated>2026-11-23T08:00:00Z</updated>
            <entry><title>Plaza del Pilar</title><id>urn:avisos:1</id><updated>2026-11-23T08:00:00Z</updated>
            <category term="Tráfico" label="Tráfico rodado"/><georss:point>41.6563 -0.8787</georss:point></entry>
            </feed>
            """.utf8
        ).write(to: atom)
        try withStore { geoq in
            #expect(try geoq(["incidents", "refresh", "--feed", rss.path]).status == 0)
            #expect(try geoq(["incidents", "refresh", "--feed", atom.path]).status == 0)
            let server = try FeedServer(
                directory: TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures"))
            let zaragoza = try geoq([
                "incidents", "refresh", "--feed", server.url("/files/zaragoza-type-1.xml"), "--type", "traffic-cut",
            ])
            #expect(zaragoza.status == 0, "\(zaragoza.stderr)")

            let all = try json(try geoq(["incidents", "--format", "json"]))
            let byID = Dictionary(
                uniqueKeysWithValues: (all["incidents"] as! [[String: Any]]).map {
                    ($0["id"] as! String, $0["categories"] as! [String])
                })
            #expect(byID["c-1"] == ["Obras", "Corte de calle"])
            #expect(byID["c-2"] == [])
            #expect(byID["urn:avisos:1"] == ["Tráfico"])
            #expect(byID["trafico-2001"] == ["Corte de tráfico"])

            func ids(_ arguments: [String]) throws -> Set<String> {
                let answer = try json(try geoq(["incidents", "--format", "json"] + arguments))
                return Set((answer["incidents"] as! [[String: Any]]).map { $0["id"] as! String })
            }
            #expect(try ids(["--category", "obras"]) == ["c-1"])
            #expect(try ids(["--category", "TRAFICO"]) == ["urn:avisos:1"])
            #expect(try ids(["--category", "corte de trafico"]).count == 3)
            #expect(try ids(["--category", "obras", "--category", "tráfico"]) == ["c-1", "urn:avisos:1"])
            #expect(try ids(["--category", "obras", "--source", "avisos"]).isEmpty)

            let geojson = try json(try geoq(["incidents", "--format", "geojson", "--category", "Tráfico"]))
            let features = try #require(geojson["features"] as? [[String: Any]])
            #expect(features.count == 1)
            #expect((features.first?["properties"] as? [String: Any])?["categories"] as? [String] == ["Tráfico"])
            let text = try geoq(["incidents", "--category", "corte de calle"])
            #expect(text.stdout.contains("[Obras, Corte de calle] Calle Alfonso I"), "\(text.stdout)")
            #expect(text.stdout.contains("    source: cortes\n"))
            // With a type, the type heads the line and the entry's own categories follow.
            #expect(
                try geoq(["incidents", "refresh", "--feed", rss.path, "--type", "1", "--source", "cortes-z"]).status
                    == 0)
            let typed = try geoq(["incidents", "--category", "corte de calle", "--source", "cortes-z"])
            #expect(
                typed.stdout.contains(
                    "[1 Corte de tráfico] Calle Alfonso I\n    Sin descripción\n    categories: Obras, Corte de calle\n"
                        + "    source: cortes-z\n"), "\(typed.stdout)")
        }
    }

    @Test func refreshHelpListsOnlyItsFormats() throws {
        let help = try GeoqBinaryTests.run(["incidents", "refresh", "--help"])
        #expect(help.stdout.contains("(values: text, json; default: text)"), "\(help.stdout)")
        #expect(!help.stdout.contains("geojson"))
        let list = try GeoqBinaryTests.run(["incidents", "list", "--help"])
        #expect(list.stdout.contains("--source <source>") && list.stdout.contains("--category <category>"))
    }
}
