import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GeoqServer

/// Every answer carries the same three security headers, once, from either entrance: the event
/// loop's answers and problems, the router's answers, problems, 404s and refusals, the map
/// page's files and Leaflet's, and the 408 written before any request is read.
@Suite struct SecurityHeadersTests {
    /// The headers as written out here by hand, not taken from the code under test.
    static let expected: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
                + "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// Each expected header present exactly once with its value, among `headers` (name, value).
    static func expectHeaders(_ headers: [(name: String, value: String)], _ what: String) {
        for (name, value) in expected {
            let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
            #expect(values == [value], "\(name) of \(what)")
        }
    }

    static func pairs(_ fields: HTTPFields) -> [(name: String, value: String)] {
        fields.map { ($0.name.canonicalName, $0.value) }
    }

    @Test func onTheEventLoopsAnswersAndProblems() throws {
        let pipeline = try InlineAnswerTests.Pipeline()
        try pipeline.send("GET", InlineAnswerTests.sector)
        try pipeline.send("GET", "/v1/sector?lat=91&lon=0")
        try pipeline.send("HEAD", "/healthz")
        let answers = try pipeline.answers()
        #expect(answers.map(\.status) == [200, 400, 200])
        #expect(try pipeline.passedOn().isEmpty, "all three answered on the event loop")
        for (answer, what) in zip(answers, ["an answer", "a problem", "a HEAD"]) {
            Self.expectHeaders(answer.headers, what)
        }
    }

    /// The 408 of a head that never arrives is written before the router or the endpoints see
    /// anything, by ``ConnectionDeadlines``.
    @Test func onTheRequestTimeout() throws {
        let connection = try ConnectionDeadlinesTests.Connection(registry: ConnectionDeadlinesTests.registry())
        try connection.sendBytes(ConnectionDeadlinesTests.partialHead)
        connection.advance(60.1)
        let answer = try #require(try connection.pipeline.answers().first)
        #expect(answer.status == 408)
        Self.expectHeaders(answer.headers, "the 408")
    }

    @Test func onTheRoutersAnswersProblemsAndPageFiles() async throws {
        let folder = try PageFilesTests.assetsFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let router = Routes.router(
            state: ServiceState(try RoutesTests.data()), page: PageFiles(assetsDirectory: folder.path))
        try await Application(router: router).test(.router) { client in
            for (method, uri, status) in [
                (HTTPRequest.Method.get, "/healthz", 200), (.get, "/v1/layers/pamplona-sectors", 200),
                (.get, "/v1/sector?lat=91&lon=0", 400), (.get, "/nowhere", 404), (.post, "/v1/sector", 405),
                (.delete, "/v1/sector", 401),
                (.get, "/", 200), (.head, "/", 200), (.get, "/page/map.js", 200), (.get, "/page/nothing.js", 404),
                (.get, "/assets/leaflet/leaflet.js", 200), (.get, "/assets/leaflet/images/layers.png", 200),
                (.get, "/assets/leaflet/missing.js", 404), (.get, "/assets/leaflet/%2e%2e/x", 404),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status.code == status, "\(method) \(uri)")
                    Self.expectHeaders(Self.pairs(response.headers), "\(method) \(uri)")
                }
            }
        }
    }

    /// Over a socket, through the service's own pipeline: both entrances' answers, and the
    /// access gate's refusals from each.
    @Test func onTheWireFromBothEntrances() async throws {
        let state = ServiceState(try RoutesTests.data())
        let open = Routes.application(state: state)
        try await open.test(.live) { client in
            for (uri, status) in [
                (InlineAnswerTests.sector, 200), ("/v1/sector?lat=91&lon=0", 400), ("/", 200), ("/nowhere", 404),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status.code == status, "\(uri)")
                    Self.expectHeaders(Self.pairs(response.headers), uri)
                }
            }
        }
        // Reads private: the event loop refuses /v1/sector, the router /v1/layers/{name}.
        let closed = Routes.application(state: state, access: AccessRules(privateReads: true))
        try await closed.test(.live) { client in
            for uri in [InlineAnswerTests.sector, "/v1/layers/pamplona-sectors"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(uri)")
                    Self.expectHeaders(Self.pairs(response.headers), "the refusal of \(uri)")
                }
            }
        }
    }
}
