import Foundation
import GeoqAPI
import GeoqServer
import Hummingbird
import HummingbirdTesting
import Testing

/// `/metrics`: counts by route and status, a histogram per route, unknown paths folded.
@Suite struct MetricsTests {
    @Test func requestsAreCountedByRouteAndStatus() async throws {
        let metrics = RequestMetrics()
        // /metrics needs an admin key.
        let fixture = TrackingFixture()
        let admin = try fixture.key("ops", [.admin])
        let app = Application(
            router: Routes.router(
                state: ServiceState(try RoutesTests.data()), metrics: metrics, tracking: fixture.tracking))
        try await app.test(.router) { client in
            for _ in 0..<3 { try await client.execute(uri: "/v1/sector?lat=42.81&lon=-1.64", method: .get) }
            try await client.execute(uri: "/v1/sector?lat=91&lon=0", method: .get)
            try await client.execute(uri: "/random/\(UUID())", method: .get)
            try await client.execute(uri: "/random/\(UUID())", method: .get)
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: TrackingFixture.bearer(admin)) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let text = String(buffer: response.body)
                #expect(text.contains("geoq_http_requests_total{route=\"/v1/sector\",status=\"200\"} 3\n"))
                #expect(text.contains("geoq_http_requests_total{route=\"/v1/sector\",status=\"400\"} 1\n"))
                #expect(text.contains("geoq_http_requests_total{route=\"other\",status=\"404\"} 2\n"))
                #expect(text.contains("geoq_http_request_duration_seconds_count{route=\"/v1/sector\"} 4\n"))
                #expect(
                    text.contains("geoq_http_request_duration_seconds_bucket{route=\"/v1/sector\",le=\"+Inf\"} 4\n"))
                #expect(!text.contains("/random/"))
            }
        }
    }

    @Test func bucketsAreCumulative() {
        let metrics = RequestMetrics(routes: ["/x"])
        metrics.record(path: "/x", status: 200, seconds: 0.0003)
        metrics.record(path: "/x", status: 200, seconds: 0.003)
        metrics.record(path: "/x", status: 200, seconds: 5)
        let text = metrics.exposition()
        #expect(text.contains("le=\"0.00025\"} 0\n"))
        #expect(text.contains("le=\"0.0005\"} 1\n"))
        #expect(text.contains("le=\"0.005\"} 2\n"))
        #expect(text.contains("le=\"1.0\"} 2\n"))
        #expect(text.contains("le=\"+Inf\"} 3\n"))
        #expect(text.contains("geoq_http_request_duration_seconds_sum{route=\"/x\"} 5.0033"))
    }
}
