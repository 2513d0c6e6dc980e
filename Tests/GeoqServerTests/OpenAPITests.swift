import Foundation
import GeoqAPI
import GeoqLayers
import GeoqServer
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// `/openapi.json` against the running routes, over every real layer: each documented
/// operation answers its documented examples with a documented media type, each documented
/// number refuses a non-number naming itself, an undocumented parameter or path is refused.
@Suite struct OpenAPITests {
    static let state: ServiceState = {
        let library = TestLibrary.catalogOnly()
        return ServiceState(ServiceData.load(from: library))
    }()

    func withClient(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: Routes.router(state: Self.state))
        try await app.test(.router) { client in try await body(client) }
    }

    static func uri(_ endpoint: EndpointDescription, replacing name: String? = nil, with value: String = "") -> String {
        let pairs = endpoint.parameters.compactMap { p -> String? in
            if p.name == name { return "\(p.name)=\(value)" }
            return p.example.map { "\(p.name)=\($0)" }
        }
        return endpoint.path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    @Test func theDocumentListsEveryEndpoint() async throws {
        try await withClient { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["openapi"] as? String == "3.1.0")
                let paths = try #require(object["paths"] as? [String: Any])
                #expect(Set(paths.keys) == Set(EndpointDescription.all.map(\.path)))
                #expect(paths.count == 12)
            }
        }
    }

    @Test(arguments: EndpointDescription.all.map(\.operationId))
    func everyOperationAnswersItsExamples(operationId: String) async throws {
        let endpoint = try #require(EndpointDescription.all.first { $0.operationId == operationId })
        try await withClient { client in
            for mediaType in endpoint.mediaTypes {
                try await client.execute(uri: Self.uri(endpoint), method: .get, headers: [.accept: mediaType]) {
                    response in
                    #expect(response.status == .ok, "\(Self.uri(endpoint))")
                    #expect(response.headers[.contentType] == mediaType)
                }
            }
            for parameter in endpoint.parameters where ["number", "integer"].contains(parameter.schema.type) {
                try await client.execute(uri: Self.uri(endpoint, replacing: parameter.name, with: "x"), method: .get) {
                    response in
                    #expect(response.status == .badRequest)
                    let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                    #expect(problem.parameter == parameter.name)
                }
            }
            guard !endpoint.parameters.isEmpty else { return }
            try await client.execute(uri: Self.uri(endpoint) + "&bogus=1", method: .get) { response in
                #expect(response.status == .badRequest)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.parameter == "bogus")
            }
        }
    }
}
