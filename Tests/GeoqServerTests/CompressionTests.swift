import Foundation
import GeoqAPI
import GeoqTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GeoqServer

/// Long reads are gzip-compressed for a client that accepts it, on both entrances; short ones
/// never are; `gzip -dc` (a second implementation) gives the plain answer back.
@Suite(.serialized) struct CompressionTests {
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-gz-\(UUID().uuidString).gz")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ExternalTool.run(URL(fileURLWithPath: "/bin/gzip"), ["-dc", file.path], standardError: .kept)
        #expect(run.status == 0, "\(run.stderr)")
        return Array(run.stdout.utf8)
    }

    @Test func longReadsAreCompressedWhenAcceptedAndShortOnesNever() async throws {
        let app = Application(router: Routes.router(state: OpenAPITests.state))
        try await app.test(.router) { client in
            for path in ["/v1/layers", "/ogc/collections/valencia-barrios/items?limit=20"] {
                let plain = try await client.execute(uri: path, method: .get) { response in
                    #expect(response.headers[.contentEncoding] == nil)
                    return Array(buffer: response.body)
                }
                #expect(plain.count >= GetEndpoints.compressedFrom, "\(path)")
                try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip, deflate"]) {
                    response in
                    #expect(response.headers[.contentEncoding] == "gzip", "\(path)")
                    #expect(response.headers[.vary] == "Accept-Encoding", "\(path)")
                    let body = Array(buffer: response.body)
                    #expect(body.count < plain.count / 2, "\(path)")
                    let unzipped = try Self.gunzip(body)
                    #expect(unzipped == plain, "\(path)")
                }
                try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip;q=0"]) {
                    #expect($0.headers[.contentEncoding] == nil, "\(path)")
                }
            }
            try await client.execute(
                uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get, headers: [.acceptEncoding: "gzip"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.body.readableBytes < GetEndpoints.compressedFrom)
            }
        }
    }

    /// The event loop's answer of a long read is the router's.
    @Test func theEventLoopCompressesAsTheRouterDoes() async throws {
        try await LiveService.run({ port in
            let curl = try #require(ExternalTool.path("curl"))
            let run = try ExternalTool.run(
                curl,
                [
                    "-s", "-D", "-", "-o", "/dev/null", "-H", "Accept-Encoding: gzip",
                    "http://127.0.0.1:\(port)/v1/layers",
                ])
            #expect(run.output.contains("\nContent-Encoding: gzip"), "\(run.output)")
            #expect(run.output.contains("\nVary: Accept-Encoding"), "\(run.output)")
        }) { onListening in
            Routes.application(
                state: OpenAPITests.state, address: ServerAddress(host: "127.0.0.1", port: 0),
                logger: LiveService.quietLogger, onListening: onListening)
        }
    }
}
