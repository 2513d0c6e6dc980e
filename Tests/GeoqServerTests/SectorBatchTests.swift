import Foundation
import GeoqAPI
import GeoqLayers
import GeoqServer
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/sector:batch` over HTTP: the NDJSON stream in the body's order, the limits on
/// body size, batch length and time, each a 413 problem or a last line naming the limit.
@Suite struct SectorBatchTests {
    static func data() throws -> ServiceData { try RoutesTests.data() }

    func withClient(limits: ServiceLimits, _ body: @Sendable (any TestClientProtocol) async throws -> Void)
        async throws
    {
        let app = Application(router: Routes.router(state: ServiceState(try Self.data()), limits: limits))
        try await app.test(.router) { client in try await body(client) }
    }

    /// 2,500 points on a line across Pamplona: 2,500 answers in order, each the one for its
    /// line; inside Sector 2 where the single-point endpoint says so.
    static let points: [(latitude: Double, longitude: Double)] = (0..<2500).map { i in
        let step = Double(i)
        let latitude: Double = 42.79 + step * 0.000_02
        let longitude: Double = -1.66 + step * 0.000_01
        return (latitude, longitude)
    }
    static var ndjson: String {
        points.enumerated().map { "{\"lat\": \($1.latitude), \"lon\": \($1.longitude), \"id\": \"p\($0)\"}" }
            .joined(separator: "\n") + "\n"
    }

    static func lines(_ response: TestResponse) -> [[String: Any]] {
        String(buffer: response.body).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func answersStreamInTheBodysOrder() async throws {
        try await withClient(limits: ServiceLimits()) { client in
            try await client.execute(
                uri: "/v1/sector:batch", method: .post, headers: [.contentType: "application/x-ndjson"],
                body: ByteBuffer(string: Self.ndjson)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                let lines = Self.lines(response)
                #expect(lines.count == Self.points.count)
                #expect(lines.map { $0["line"] as? Int } == Array(1...Self.points.count))
                #expect(lines.map { $0["id"] as? String } == (0..<Self.points.count).map { "p\($0)" })
                // Spot-check against the single-point answers.
                for i in stride(from: 0, to: Self.points.count, by: 250) {
                    let p = Self.points[i]
                    let single = try SectorEndpoint.answer(
                        QueryParameters([("lat", "\(p.latitude)"), ("lon", "\(p.longitude)")]), data: try Self.data()
                    ).answer
                    let inside = (lines[i]["inside"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                    #expect(inside == single.inside.map(\.id), "point \(i)")
                }
            }
        }
    }

    @Test func limitsAre413Problems() async throws {
        try await withClient(limits: ServiceLimits(maxBodyBytes: 4096, maxBatchPoints: 100)) { client in
            // Over the body limit (declared length, then a chunked body with no length).
            try await client.execute(
                uri: "/v1/sector:batch", method: .post, headers: [.contentType: "application/x-ndjson"],
                body: ByteBuffer(string: Self.ndjson)
            ) { response in
                #expect(response.status == .contentTooLarge)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.type == "/problems/body-too-large" && problem.detail.contains("4096"))
            }
            // Under the body limit, over the batch limit.
            let many = String(repeating: "42.81,-1.64\n", count: 101)
            try await client.execute(
                uri: "/v1/sector:batch", method: .post, headers: [.contentType: "text/csv"],
                body: ByteBuffer(string: many)
            ) { response in
                #expect(response.status == .contentTooLarge)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.type == "/problems/batch-too-large" && problem.detail.contains("100"))
            }
            try await client.execute(
                uri: "/v1/sector:batch?layer=nowhere", method: .post, headers: [.contentType: "text/csv"],
                body: ByteBuffer(string: "42.81,-1.64\n")
            ) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(
                uri: "/v1/sector:batch", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"type\": ")
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == Problem.mediaType)
            }
        }
    }

    /// A batch that outlasts the time limit stops after a chunk, with a last line saying how
    /// many points were answered; the lines before it are whole answers.
    @Test func aBatchPastTheTimeLimitStopsWithALastLine() async throws {
        try await withClient(limits: ServiceLimits(requestTimeout: .microseconds(1))) { client in
            try await client.execute(
                uri: "/v1/sector:batch", method: .post, headers: [.contentType: "application/x-ndjson"],
                body: ByteBuffer(string: Self.ndjson)
            ) { response in
                #expect(response.status == .ok)
                let lines = Self.lines(response)
                let last = try #require(lines.last)
                let error = try #require(last["error"] as? [String: Any])
                #expect(error["code"] as? String == "time-limit")
                let answered = try #require(last["answered"] as? Int)
                #expect(answered > 0 && answered < Self.points.count)
                #expect(lines.count == answered + 1)
                #expect(lines.dropLast().map { $0["line"] as? Int } == Array(1...answered))
            }
        }
    }
}
