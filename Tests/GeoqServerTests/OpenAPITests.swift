import Crypto
import Foundation
import GeoqAPI
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqPush
import GeoqServer
import GeoqSnapshot
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

    /// A client of the routes over a fresh tracking store holding hook 1 (so that the hooks and
    /// events endpoints answer for real, and the example DELETE has a hook to delete), and a key
    /// of the hook's tenant with every scope. The service's clock is the examples' day.
    func withClient(_ body: @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        // The examples' receiver is a name of the documentation's; here it resolves to a global address.
        let fixture = TrackingFixture(
            now: { Date(timeIntervalSince1970: 1_795_424_400) },
            resolver: HostResolver { host in
                [IPAddress(host) ?? IPAddress(host == "receiver.example.org" ? "93.184.215.14" : "::1")!]
            }, pushKey: VAPIDKey())
        defer { try? fixture.store.storeFile.map { try FileManager.default.removeItem(at: $0) } }
        #expect(try fixture.store.addHook(tenant: "acme", url: "http://127.0.0.1:9/existing").id == 1)
        // Push subscription 1, for the example DELETE.
        let subscription = try fixture.store.pushTables().putPushSubscription(
            tenant: "acme", device: "car-1", endpoint: "https://push.example.net/1",
            p256dh: Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation),
            auth: Base64URL.encode(Data(count: 16)), topics: [], now: Date())
        #expect(subscription.id == 1)
        let key = try fixture.key("acme", Scope.allCases)
        let app = Application(router: Routes.router(state: Self.state, tracking: fixture.tracking))
        try await app.test(.router) { client in try await body(client, key) }
    }

    static func uri(_ endpoint: EndpointDescription, replacing name: String? = nil, with value: String = "") -> String {
        var path = endpoint.path
        let pairs = endpoint.parameters.compactMap { p -> String? in
            if p.in == "path" {
                path = path.replacingOccurrences(of: "{\(p.name)}", with: p.example ?? "")
                return nil
            }
            if p.name == name { return "\(p.name)=\(value)" }
            return p.example.map { "\(p.name)=\($0)" }
        }
        return path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    @Test func theDocumentListsEveryEndpoint() async throws {
        try await withClient { client, key in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["openapi"] as? String == "3.1.0")
                let paths = try #require(object["paths"] as? [String: Any])
                #expect(Set(paths.keys) == Set(EndpointDescription.all.map(\.path)))
                #expect(paths.count == 35)
                // One path, several methods: each operation under its own.
                let hooks = try #require(paths["/v1/hooks"] as? [String: Any])
                #expect(Set(hooks.keys) == ["get", "post"])
                let hook = try #require(paths["/v1/hooks/{id}"] as? [String: Any])
                #expect(Set(hook.keys) == ["delete"])
                let delete = try #require(hook["delete"] as? [String: Any])
                #expect(
                    (delete["responses"] as? [String: Any]).map { Set($0.keys) } == ["204", "401", "403", "404", "429"])
                #expect(delete["security"] as? [[String: [String]]] == [["bearerKey": ["hooks"]]])
                // The event kinds a hook may ask for are the ones the service accepts.
                let post = try #require(hooks["post"] as? [String: Any])
                let content = (post["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
                let events = (schema?["properties"] as? [String: Any])?["events"] as? [String: Any]
                #expect((events?["items"] as? [String: Any])?["enum"] as? [String] == HookRequest.eventKinds)
                #expect(
                    (post["responses"] as? [String: Any]).map { Set($0.keys) } == [
                        "201", "400", "401", "403", "404", "415", "422", "429",
                    ])
                // The bearer scheme, and each operation's scope; reads are open unless made private.
                let schemes = (object["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
                let bearer = schemes?["bearerKey"] as? [String: Any]
                #expect(bearer?["type"] as? String == "http" && bearer?["scheme"] as? String == "bearer")
                for endpoint in EndpointDescription.all {
                    let operation = (paths[endpoint.path] as? [String: Any])?[endpoint.method] as? [String: Any]
                    let security = operation?["security"] as? [[String: [String]]]
                    if let scope = endpoint.scope {
                        #expect(security == [["bearerKey": [scope]]], "\(endpoint.operationId)")
                    } else if endpoint.isOpen {
                        #expect(security == nil, "\(endpoint.operationId)")
                    } else {
                        #expect(security == [[:], ["bearerKey": ["read"]]], "\(endpoint.operationId)")
                    }
                }
            }
        }
    }

    /// The served document lists the snapshot's names: polygon layers for /v1/sector, point
    /// layers for /v1/nearest, the service types, the cities and zones; and a documented path
    /// asked with another method is a 405 naming the one it takes.
    @Test func theServedDocumentListsTheSnapshotsNamesAndRefusesOtherMethods() async throws {
        let data = try #require(Self.state.data)
        try await withClient { client, key in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                func parameterEnum(_ path: String, _ method: String, _ name: String) -> [String]? {
                    let paths = object["paths"] as? [String: Any]
                    let operation = (paths?[path] as? [String: Any])?[method] as? [String: Any]
                    let parameters = operation?["parameters"] as? [[String: Any]]
                    let schema = parameters?.first { $0["name"] as? String == name }?["schema"] as? [String: Any]
                    return schema?["enum"] as? [String]
                }
                #expect(parameterEnum("/v1/sector", "get", "layer") == data.servedLayers(kind: "polygon"))
                #expect(parameterEnum("/v1/sector:batch", "post", "layer") == data.servedLayers(kind: "polygon"))
                #expect(parameterEnum("/v1/nearest", "get", "layer") == data.servedLayers(kind: "point"))
                #expect(parameterEnum("/v1/services", "get", "type") == data.serviceLayers.map(\.type))
                #expect(parameterEnum("/v1/tariff", "get", "city") == ["pamplona"])
                #expect(parameterEnum("/v1/tariff", "get", "zone")?.contains("blue") == true)
            }
            for (method, path, allowed) in [
                (HTTPRequest.Method.trace, "/v1/services", "GET, HEAD"), (.get, "/v1/sector:batch", "POST"),
                (.delete, "/v1/sector", "GET, HEAD"), (.put, "/v1/hooks", "GET, HEAD, POST"),
                (.post, "/v1/events", "GET, HEAD"),
            ] {
                try await client.execute(uri: path, method: method, headers: [.authorization: "Bearer \(key)"]) {
                    response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allowed)
                    let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                    #expect(problem.type == "/problems/method-not-allowed" && problem.status == 405)
                }
            }
        }
    }

    /// A request as the document describes it: GET with the examples, DELETE, or POST with the
    /// first example body (or none, when the operation takes none).
    static func request(
        _ client: any TestClientProtocol, _ endpoint: EndpointDescription, uri: String, key: String,
        headers: HTTPFields = [:], _ check: @escaping @Sendable (TestResponse) async throws -> Void
    ) async throws {
        var headers = headers
        headers[.authorization] = "Bearer \(key)"
        if endpoint.method == "delete" {
            return try await client.execute(uri: uri, method: .delete, headers: headers, body: nil, testCallback: check)
        }
        if endpoint.method == "post", endpoint.requestBody == nil {
            return try await client.execute(uri: uri, method: .post, headers: headers, body: nil, testCallback: check)
        }
        guard endpoint.method == "post", let body = endpoint.requestBody?.examples.first else {
            return try await client.execute(uri: uri, method: .get, headers: headers, body: nil, testCallback: check)
        }
        headers[.contentType] = body.mediaType
        try await client.execute(
            uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body.example), testCallback: check)
    }

    @Test(arguments: EndpointDescription.all.map(\.operationId))
    func everyOperationAnswersItsExamples(operationId: String) async throws {
        let endpoint = try #require(EndpointDescription.all.first { $0.operationId == operationId })
        let success = HTTPResponse.Status(code: endpoint.successStatus)
        try await withClient { client, key in
            // An event stream's answer never ends: EventStreamTests read it over sockets.
            for mediaType in endpoint.mediaTypes where mediaType != "text/event-stream" {
                try await Self.request(
                    client, endpoint, uri: Self.uri(endpoint), key: key, headers: [.accept: mediaType]
                ) {
                    response in
                    #expect(response.status == success, "\(Self.uri(endpoint))")
                    // The type named, or it with a parameter (HTML's charset).
                    let type = response.headers[.contentType] ?? ""
                    #expect(type == mediaType || type.hasPrefix(mediaType + ";"), "\(type)")
                }
            }
            // An answer without a body (DELETE): its status, nothing else.
            if endpoint.mediaTypes.isEmpty {
                try await Self.request(client, endpoint, uri: Self.uri(endpoint), key: key) { response in
                    #expect(response.status == success, "\(Self.uri(endpoint))")
                    #expect(response.body.readableBytes == 0)
                }
            }
            // Every example body of a POST endpoint is answered.
            for body in endpoint.requestBody?.examples ?? [] {
                try await client.execute(
                    uri: Self.uri(endpoint), method: .post,
                    headers: [.contentType: body.mediaType, .authorization: "Bearer \(key)"],
                    body: ByteBuffer(string: body.example)
                ) { response in
                    #expect(response.status == success, "\(body.mediaType)")
                    #expect(response.headers[.contentType] == endpoint.mediaTypes.first)
                }
            }
            let query = endpoint.parameters.filter { $0.in == "query" }
            for parameter in query where ["number", "integer"].contains(parameter.schema.type) {
                try await Self.request(
                    client, endpoint, uri: Self.uri(endpoint, replacing: parameter.name, with: "x"), key: key
                ) {
                    response in
                    #expect(response.status == .badRequest)
                    let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                    #expect(problem.parameter == parameter.name)
                }
            }
            guard !query.isEmpty else { return }
            try await Self.request(client, endpoint, uri: Self.uri(endpoint) + "&bogus=1", key: key) { response in
                #expect(response.status == .badRequest)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.parameter == "bogus")
            }
        }
    }
}
