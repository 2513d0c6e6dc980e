import Foundation
import GeoqAPI
import GeoqLayers
import GeoqServer
import GeoqSnapshot
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// `/v1/incidents` over HTTP from a real store holding two sources: `source` and `category`
/// filter (repeatable), JSON and GeoJSON carry each incident's source and categories.
@Suite struct IncidentsServiceTests {
    static let fixtures = TestData.packageRoot.appendingPathComponent("Tests/GeoqIncidentsTests/Fixtures")

    @Test func sourceAndCategoryOverHTTP() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-incidents-http-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeFile = directory.appendingPathComponent("store.gpkg")
        let store = IncidentStore(storeFile: storeFile)
        // Zaragoza's traffic feed (the fixture, as if read from the city's address) and a feed of
        // another publisher with its own categories, written for this test.
        _ = try store.refresh(
            data: try Data(contentsOf: Self.fixtures.appendingPathComponent("zaragoza-type-1.xml")),
            feed: "https://www.zaragoza.es/sede/servicio/incidencia?id=1")
        _ = try store.refresh(
            data: Data(
                """
                <rss version="2.0" xmlns:georss="http://www.georss.org/georss"><channel><title>Avisos</title>
                <item><title>Calle Alfonso I</title><guid>a-1</guid><category>Obras</category>
                <georss:point>41.6540 -0.8790</georss:point></item></channel></rss>
                """.utf8), feed: "https://example.org/avisos.rss?token=1")
        let library = try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: storeFile))
        let state = ServiceState(ServiceData.load(from: library))
        let app = Application(router: Routes.router(state: state))

        try await app.test(.router) { client in
            func get(_ uri: String, accept: String = "application/json") async throws -> [String: Any] {
                try await client.execute(uri: uri, method: .get, headers: [.accept: accept]) { response in
                    #expect(response.status == .ok, "\(uri)")
                    return try #require(
                        JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                }
            }
            let zaragoza = "zaragoza.es/sede/servicio/incidencia?id=1"
            let bySource = try await get(
                "/v1/incidents?source=\(zaragoza.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            let items = try #require(bySource["incidents"] as? [[String: Any]])
            #expect(bySource["held"] as? Int == 4)
            #expect(items.count == 3)
            #expect(items.allSatisfy { $0["source"] as? String == zaragoza && $0["type"] as? Int == 1 })
            #expect(items.allSatisfy { $0["categories"] as? [String] == ["Corte de tráfico"] })

            let both = try await get("/v1/incidents?source=example.org/avisos.rss&source=example.org")
            #expect(both["count"] as? Int == 1)
            let obras = try await get("/v1/incidents?category=OBRAS")
            let item = try #require((obras["incidents"] as? [[String: Any]])?.first)
            #expect(obras["count"] as? Int == 1)
            #expect(item["id"] as? String == "a-1" && item["source"] as? String == "example.org/avisos.rss")
            #expect(item["type"] == nil)
            let two = try await get("/v1/incidents?category=obras&category=corte%20de%20trafico")
            #expect(two["count"] as? Int == 4)

            let geoJSON = try await get("/v1/incidents?category=obras", accept: "application/geo+json")
            let feature = try #require((geoJSON["features"] as? [[String: Any]])?.first)
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["source"] as? String == "example.org/avisos.rss")
            #expect(properties["categories"] as? [String] == ["Obras"])
            #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-0.879, 41.654])
        }
    }
}
