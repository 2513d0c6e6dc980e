import Foundation
import GeoqAPI
import GeoqLayers
import GeoqPROJ
import GeoqParking
import GeoqQuery
import GeoqServer
import GeoqSnapshot
import GeoqTariffs
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The HTTP face over the real default layer: status codes, media types and bodies.
@Suite struct RoutesTests {
    /// Loaded once. Thrown, not trapped: with a wrong GEOQ_DATA_DIR each test that needs the
    /// layer fails with the loader's message, and the other suites still run.
    static let loaded = Result { () throws -> ServiceData in
        let library = TestLibrary.catalogOnly()
        let layer = try library.layer(named: "pamplona-sectors")
        return ServiceData(
            sectorLookups: [layer.name: SectorLookup(layer: layer, geodesic: Geodesic.wgs84)],
            layers: [
                .init(
                    name: layer.name, title: layer.title, kind: "polygon", features: layer.features.count,
                    approximate: true, error: nil)
            ], storeFile: "/nonexistent/store.gpkg", defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84,
            loadedAt: Date())
    }

    static func data() throws -> ServiceData { try loaded.get() }

    func withClient(
        state: ServiceState? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    )
        async throws
    {
        let app = Application(router: Routes.router(state: try state ?? ServiceState(Self.data())))
        try await app.test(.router) { client in try await body(client) }
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// `/v1/tariff` over the snapshot's tariffs (ServiceData.load reads data/tariffs): the
    /// messages follow Accept-Language, and a refused ticket is a 422 problem with its code.
    @Test func tariffFollowsAcceptLanguage() async throws {
        let data = ServiceData.load(from: TestLibrary.catalogOnly())
        #expect(data.tariffs.keys.sorted() == ["pamplona"] && data.tariffProblems.isEmpty)
        try await withClient(state: ServiceState(data)) { client in
            let ticket = "/v1/tariff?zone=blue&minutes=30&start=2026-11-23T13:50"
            try await client.execute(uri: ticket, method: .get, headers: [.acceptLanguage: "eu-ES,eu;q=0.9"]) {
                response in
                #expect(response.status == .ok)
                let answer = try JSONDecoder().decode(TariffAnswer.self, from: Data(buffer: response.body))
                #expect(answer.language == "eu" && answer.zoneName == "Gune urdina")
                #expect(answer.end == "2026-11-23T16:20:00+01:00")
            }
            try await client.execute(
                uri: "/v1/tariff?zone=blue&minutes=121&start=2026-11-23T10:00", method: .get,
                headers: [.acceptLanguage: "en"]
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.headers[.contentType] == Problem.mediaType)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.code == "beyond-max-stay" && problem.parameter == "minutes")
            }
        }
    }

    @Test func sectorAnswersInJSON() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let answer = try JSONDecoder().decode(SectorAnswer.self, from: Data(buffer: response.body))
                #expect(answer.inside.map(\.id) == ["2"] && answer.approximate)
            }
        }
    }

    @Test func sectorAnswersInGeoJSONWhenAsked() async throws {
        try await withClient { client in
            try await client.execute(
                uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get, headers: [.accept: "application/geo+json"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/geo+json")
                let object = try Self.json(response)
                #expect(object["type"] as? String == "FeatureCollection")
            }
        }
    }

    @Test(arguments: [
        ("/v1/sector?lon=-1.64", 400, "lat", "/problems/missing-parameter"),
        ("/v1/sector?lat=abc&lon=-1.64", 400, "lat", "/problems/invalid-parameter"),
        ("/v1/sector?lat=42.81&lon=190", 400, "lon", "/problems/out-of-range"),
        ("/v1/sector?lat=42.81&lon=-1.64&layer=nowhere", 404, "layer", "/problems/unknown-layer"),
        ("/v1/sector?lat=42.81&lon=-1.64&latitude=1", 400, "latitude", "/problems/invalid-parameter"),
        ("/v1/nearest?lat=39.47&lon=-0.37&layer=fallas", 404, "layer", "/problems/unknown-layer"),
        ("/v1/nearest?lat=39.47&lon=-0.37", 400, "layer", "/problems/missing-parameter"),
        ("/v1/services?lat=39.47&lon=-0.37&type=hospital", 400, "type", "/problems/invalid-parameter"),
    ])
    func badRequestsAreProblems(uri: String, status: Int, parameter: String, type: String) async throws {
        try await withClient { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status.code == status)
                #expect(response.headers[.contentType] == "application/problem+json")
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.parameter == parameter && problem.type == type && problem.status == status)
            }
        }
    }

    @Test func unknownPathsAreProblemsToo() async throws {
        try await withClient { client in
            try await client.execute(uri: "/v2/nothing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                let object = try Self.json(response)
                #expect(object["type"] as? String == "/problems/not-found")
            }
        }
    }

    @Test func healthAndReadiness() async throws {
        try await withClient(state: ServiceState()) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get) {
                #expect($0.status == .serviceUnavailable)
            }
        }
        try await withClient { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
                let object = try Self.json(response)
                #expect(object["polygonLayers"] as? Int == 1)
            }
            try await client.execute(uri: "/v1/layers", method: .get) { response in
                let object = try Self.json(response)
                let layers = try #require(object["layers"] as? [[String: Any]])
                #expect(layers.map { $0["name"] as? String } == ["pamplona-sectors"])
            }
        }
    }

    /// `/v1/layers` lists each layer's attributes with a type and the first non-empty value, as
    /// the files have them: Pamplona's units file begins with Casco Viejo (ID 0); Valencia's
    /// hospitals file with Clinica Fontana, a Hospital with 7 beds.
    @Test func layersListTheirAttributes() async throws {
        let data = ServiceData.load(from: TestLibrary.catalogOnly())
        try await withClient(state: ServiceState(data)) { client in
            try await client.execute(uri: "/v1/layers", method: .get) { response in
                let layers = try #require(try Self.json(response)["layers"] as? [[String: Any]])
                func attributes(_ name: String) throws -> [[String: Any]] {
                    let layer = try #require(layers.first { $0["name"] as? String == name })
                    return try #require(layer["attributes"] as? [[String: Any]])
                }
                let sectors = try attributes("pamplona-sectors")
                #expect(
                    sectors.map { $0["name"] as? String }
                        == ["CATEGORIA", "DIRECCION", "FEATURE", "ID", "NOMBRE", "SOURCE", "TIPO"])
                let nombre = try #require(sectors.first { $0["name"] as? String == "NOMBRE" })
                #expect(
                    nombre["type"] as? String == "text" && nombre["example"] as? String == "Casco Viejo/Alde Zaharra")
                let id = try #require(sectors.first { $0["name"] as? String == "ID" })
                #expect(id["type"] as? String == "number" && id["example"] as? String == "0")
                let hospitals = try attributes("valencia-hospitals")
                let tipo = try #require(hospitals.first { $0["name"] as? String == "Tipo" })
                #expect(tipo["example"] as? String == "Hospital")
                let camas = try #require(hospitals.first { $0["name"] as? String == "Camas" })
                #expect(camas["example"] as? String == "7")
            }
        }
    }
}
