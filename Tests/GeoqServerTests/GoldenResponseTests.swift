import Foundation
import GeoqAPI
import GeoqLayers
import GeoqServer
import GeoqSnapshot
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// One answer of every endpoint, byte for byte: status, Content-Type and body compared with a
/// file in Tests/GeoqServerTests/Golden (the status and media type on the file's first line, the
/// body after it). They guard that moving code between modules leaves every answer as it was.
///
/// `GEOQ_UPDATE_GOLDEN=1 swift test --filter GoldenResponseTests` writes the files instead of
/// comparing; read the changed files before committing them, they are the answers clients get.
///
/// Only what depends on the clock is normalised, in the incidents answer alone: when the feed
/// was refreshed and its item seen, and the age counted from then (Golden.normalisingClock).
@Suite struct GoldenResponseTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// The service over the catalog's source files, as the other route tests read it.
    static let state: ServiceState = { ServiceState(ServiceData.load(from: TestLibrary.catalogOnly())) }()

    struct Request: Sendable {
        var golden: String
        var uri: String
        var method: HTTPRequest.Method = .get
        var headers: HTTPFields = [:]
        var body: String? = nil
    }

    actor Responses {
        var values: [String: Data] = [:]
        func put(_ key: String, _ value: Data) { values[key] = value }
    }

    /// Answers `requests` from `state` and compares each response with its golden file.
    func expectGolden(
        _ requests: [Request], state: ServiceState = Self.state,
        normalise: @escaping @Sendable (String) -> String = { $0 }
    ) async throws {
        let app = Application(router: Routes.router(state: state))
        let responses = Responses()
        try await app.test(.router) { client in
            for request in requests {
                try await client.execute(
                    uri: request.uri, method: request.method, headers: request.headers,
                    body: request.body.map { ByteBuffer(string: $0) }
                ) { response in
                    let head = "\(response.status.code) \(response.headers[.contentType] ?? "no Content-Type")\n"
                    await responses.put(request.golden, Data(normalise(head + String(buffer: response.body)).utf8))
                }
            }
        }
        for request in requests {
            let actual = try #require(await responses.values[request.golden], "no response to \(request.uri)")
            if let mismatch = try Golden.mismatch(
                actual, file: Self.goldenDirectory.appendingPathComponent(request.golden))
            {
                Issue.record(Comment(rawValue: "\(request.uri): \(mismatch)"))
            }
        }
    }

    @Test func endpoints() async throws {
        try await expectGolden([
            Request(golden: "sector.json", uri: "/v1/sector?lat=42.81&lon=-1.64"),
            Request(
                golden: "sector-batch.ndjson", uri: "/v1/sector:batch", method: .post,
                headers: [.contentType: "application/x-ndjson"],
                body: """
                    {"lat": 42.81, "lon": -1.64, "id": "a"}
                    {"lat": 42.8169, "lon": -1.6440, "id": "b"}
                    {"lat": 42.80, "lon": -1.66, "id": "c"}

                    """),
            Request(golden: "nearest.json", uri: "/v1/nearest?lat=39.4699&lon=-0.3763&layer=fallas&n=5"),
            Request(golden: "services.json", uri: "/v1/services?lat=39.4699&lon=-0.3763&n=2"),
            Request(golden: "ar.json", uri: "/v1/ar?lat=39.4699&lon=-0.3763&heading=20&pitch=5&max-distance=800"),
            Request(golden: "tariff.json", uri: "/v1/tariff?zone=blue&minutes=45&start=2026-11-23T13:50"),
            Request(
                golden: "park.json", uri: "/v1/park?lat=42.8169&lon=-1.6440&zone=blue&minutes=45&at=2026-11-23T13:50"),
            Request(golden: "layers.json", uri: "/v1/layers"),
            Request(golden: "healthz.json", uri: "/healthz"),
            Request(
                golden: "layer-fallas-bbox.geojson", uri: "/v1/layers/fallas?bbox=-0.3800,39.4735,-0.3770,39.4750",
                headers: [.accept: "application/geo+json"]),
            Request(
                golden: "nearest.geojson", uri: "/v1/nearest?lat=39.4699&lon=-0.3763&layer=fallas&n=5",
                headers: [.accept: "application/geo+json"]),
        ])
    }

    /// `/v1/incidents` from a store holding one feed of the feedparser GeoRSS tests. The refresh
    /// and the item's sighting are stamped with the clock of the run.
    @Test func incidents() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-golden-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeFile = directory.appendingPathComponent("store.gpkg")
        let feed = TestData.url("georss/feedparser-geo-tests/tests/wellformed/geo/georss_point.xml")
        _ = try IncidentStore(storeFile: storeFile).refresh(
            data: try Data(contentsOf: feed), feed: "https://example.org/georss_point.xml")
        let library = try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: storeFile))
        try await expectGolden(
            [Request(golden: "incidents.json", uri: "/v1/incidents")],
            state: ServiceState(ServiceData.load(from: library))
        ) { Golden.normalisingClock($0) }
    }
}
