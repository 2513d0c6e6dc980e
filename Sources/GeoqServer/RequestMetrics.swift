import Foundation
import GeoqAPI
import Hummingbird
import Synchronization

/// Request counts and latency histograms per route, then the connection counts
/// (``ConnectionCounters``), in the Prometheus text format at `/metrics`.
///
/// Routes are labelled by their documented path (the OpenAPI document's); anything else is "other", so that a scan of random URLs cannot grow the
/// label set without bound.
public final class RequestMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let buckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    struct Histogram {
        var counts = [Int](repeating: 0, count: RequestMetrics.buckets.count)
        var sum = 0.0
        var count = 0

        mutating func add(_ seconds: Double) {
            for (i, bound) in RequestMetrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            count += 1
        }
    }

    struct Tally {
        var requests: [String: [Int: Int]] = [:]  // route -> status -> count
        var latency: [String: Histogram] = [:]
    }

    private let tally = Mutex(Tally())
    let routes: Set<String>
    /// Open connections and those the service closed itself (timeouts, the cap).
    public let connections = ConnectionCounters()

    /// Other metrics written at the end of the exposition (the webhook deliveries).
    let more: (@Sendable () -> String)?

    public init(
        routes: Set<String> = Set(EndpointDescription.all.map(\.path)), more: (@Sendable () -> String)? = nil
    ) {
        self.routes = routes
        self.more = more
    }

    /// Records one answered request.
    public func record(path: String, status: Int, seconds: Double) {
        let route = routes.contains(path) ? path : "other"
        tally.withLock { t in
            t.requests[route, default: [:]][status, default: 0] += 1
            // In place: a copy taken out of the dictionary would copy its counts on every request.
            t.latency[route, default: Histogram()].add(seconds)
        }
    }

    /// Records one request answered since `started`.
    func record(path: String, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        record(path: path, status: status, seconds: seconds)
    }

    /// The Prometheus text exposition (version 0.0.4).
    public func exposition() -> String {
        let t = tally.withLock { $0 }
        var out = "# HELP geoq_http_requests_total HTTP requests answered, by route and status.\n"
        out += "# TYPE geoq_http_requests_total counter\n"
        for route in t.requests.keys.sorted() {
            for (status, count) in t.requests[route]!.sorted(by: { $0.key < $1.key }) {
                out += "geoq_http_requests_total{route=\"\(route)\",status=\"\(status)\"} \(count)\n"
            }
        }
        out += "# HELP geoq_http_request_duration_seconds Time to answer, by route.\n"
        out += "# TYPE geoq_http_request_duration_seconds histogram\n"
        for route in t.latency.keys.sorted() {
            let h = t.latency[route]!
            for (i, bound) in Self.buckets.enumerated() {
                out += "geoq_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(h.counts[i])\n"
            }
            out += "geoq_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(h.count)\n"
            out += "geoq_http_request_duration_seconds_sum{route=\"\(route)\"} \(h.sum)\n"
            out += "geoq_http_request_duration_seconds_count{route=\"\(route)\"} \(h.count)\n"
        }
        return out + connections.exposition() + (more?() ?? "")
    }
}

/// Times every request and records it in ``RequestMetrics`` (after the problem middleware, so
/// the status is the one the client sees).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        // A route with a parameter is counted under its template (`/v1/layers/{name}`).
        let path = context.endpointPath.flatMap { $0.contains("{") ? $0 : nil } ?? request.uri.path
        metrics.record(path: path, status: response.status.code, since: started)
        return response
    }
}
