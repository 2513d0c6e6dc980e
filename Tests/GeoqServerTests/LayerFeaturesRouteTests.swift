import Foundation
import GeoqAPI
import GeoqServer
import GeoqSnapshot
import Hummingbird
import HummingbirdTesting
import Testing

/// `/v1/layers/{name}` over HTTP: the GeoJSON answer with its ETag, 304 for a matching
/// If-None-Match, a new ETag after a reload, gzip that `gzip -d` turns back into the plain
/// body, problems, and the route's metrics.
@Suite struct LayerFeaturesRouteTests {
    static let data: ServiceData = { ServiceData.load(from: TestLibrary.catalogOnly()) }()

    struct Reply: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: Data
    }

    static func ask(
        _ client: any TestClientProtocol, _ uri: String, _ headers: HTTPFields = [.accept: "application/geo+json"]
    ) async throws -> Reply {
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }

    @Test func answerETagAnd304() async throws {
        let state = ServiceState(Self.data)
        let app = Application(router: Routes.router(state: state))
        try await app.test(.router) { client in
            let uri = "/v1/layers/pamplona-sectors"
            let first = try await Self.ask(client, uri)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "application/geo+json")
            #expect(first.headers[.cacheControl] == "no-cache")
            #expect(first.headers[.vary] == "Accept-Encoding")
            #expect(first.headers[.contentEncoding] == nil)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
            let collection = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
            let features = try #require(collection["features"] as? [[String: Any]])
            #expect(features.count == Self.data.sectorLookups["pamplona-sectors"]?.layer.features.count)

            // The same question, the same tag; the tag asked back: 304 and no body.
            #expect(try await Self.ask(client, uri).headers[.eTag] == tag)
            let again = try await Self.ask(client, uri, [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.isEmpty && again.headers[.eTag] == tag)
            #expect(try await Self.ask(client, uri, [.ifNoneMatch: "\"other\", W/\(tag)"]).status == .notModified)
            #expect(try await Self.ask(client, uri, [.ifNoneMatch: "\"other\""]).status == .ok)

            // Another question, another tag.
            let boxed = try await Self.ask(client, uri + "?bbox=-1.66,42.80,-1.64,42.82")
            #expect(boxed.status == .ok && boxed.headers[.eTag] != tag)

            // A reload: a new tag, and the old one no longer matches.
            state.replace(with: Self.data)
            let reloaded = try await Self.ask(client, uri, [.ifNoneMatch: tag])
            #expect(reloaded.status == .ok && reloaded.headers[.eTag] != tag && reloaded.body == first.body)
        }
    }

    @Test func gzipRoundTripEqualsThePlainBody() async throws {
        let app = Application(router: Routes.router(state: ServiceState(Self.data)))
        try await app.test(.router) { client in
            let uri = "/v1/layers/valencia-barrios?simplify=5"
            let plain = try await Self.ask(client, uri)
            let zipped = try await Self.ask(client, uri, [.acceptEncoding: "br;q=1, gzip;q=0.8"])
            #expect(zipped.status == .ok && zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.headers[.vary] == "Accept-Encoding")
            #expect(zipped.headers[.eTag] != plain.headers[.eTag])
            #expect(zipped.body.count < plain.body.count / 2)
            #expect(try Self.gunzip(zipped.body) == plain.body)
            let refused = try await Self.ask(client, uri, [.acceptEncoding: "gzip;q=0"])
            #expect(refused.headers[.contentEncoding] == nil && refused.body == plain.body)
        }
    }

    @Test func problemsAndMetrics() async throws {
        let metrics = RequestMetrics()
        let app = Application(router: Routes.router(state: ServiceState(Self.data), metrics: metrics))
        try await app.test(.router) { client in
            let unknown = try await Self.ask(client, "/v1/layers/nowhere", [.acceptLanguage: "es"])
            #expect(unknown.status == .notFound && unknown.headers[.contentType] == Problem.mediaType)
            let problem = try JSONDecoder().decode(Problem.self, from: unknown.body)
            #expect(problem.type == "/problems/unknown-layer" && problem.parameter == "name")
            #expect(problem.detail.contains("no hay ninguna capa") && problem.detail.contains("fallas"))
            for query in ["bbox=1,2,3", "bbox=-1.6,42.8,-1.7,42.9", "bbox=0,95,1,96", "simplify=-3"] {
                let bad = try await Self.ask(client, "/v1/layers/fallas?" + query)
                #expect(bad.status == .badRequest, "\(query)")
                let problem = try JSONDecoder().decode(Problem.self, from: bad.body)
                #expect(problem.parameter == String(query.prefix { $0 != "=" }), "\(query)")
            }
            // The list itself is unchanged.
            let list = try await Self.ask(client, "/v1/layers", [:])
            #expect(list.status == .ok && list.headers[.contentType] == "application/json")
        }
        let exposition = metrics.exposition()
        #expect(exposition.contains("route=\"/v1/layers/{name}\",status=\"404\"} 1"))
        #expect(exposition.contains("route=\"/v1/layers/{name}\",status=\"400\"} 4"))
    }

    /// `bytes` through `gzip -dc`, a second implementation of the format.
    static func gunzip(_ bytes: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Written from another thread: gzip's output pipe must be drained while it reads.
        let writer = Thread {
            input.fileHandleForWriting.write(bytes)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return result
    }
}
