import Synchronization

/// Open connections and why the service closed connections itself, for `/metrics`
/// (Prometheus text, after the request metrics).
///
/// Atomics: each count is bumped on the event loop of its connection, with no lock.
public final class ConnectionCounters: Sendable {
    /// Why the service closed a connection itself.
    public enum Reason: String, CaseIterable, Sendable {
        /// Part of a request head came, not the rest, within the header timeout (answered 408).
        case headerTimeout = "header_timeout"
        /// Nothing came within the header timeout of the connection's opening.
        case noRequest = "no_request"
        /// A keep-alive connection sent nothing for the idle timeout after its last answer.
        case idleTimeout = "idle_timeout"
        /// A request's body did not arrive in full within the request timeout (answered 408).
        case bodyTimeout = "body_timeout"
        /// Closed to make room for a newcomer at the connection cap.
        case evictedAtCap = "evicted_at_cap"
        /// A newcomer turned away at the cap, every open connection having a request in progress.
        case refusedAtCap = "refused_at_cap"
    }

    private let open = Atomic<Int>(0)
    private let headerTimeouts = Atomic<Int>(0)
    private let noRequests = Atomic<Int>(0)
    private let idleTimeouts = Atomic<Int>(0)
    private let bodyTimeouts = Atomic<Int>(0)
    private let evictions = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)

    public init() {}

    /// Connections open now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Connections the service has closed for `reason` since it started.
    public func closed(_ reason: Reason) -> Int {
        switch reason {
        case .headerTimeout: headerTimeouts.load(ordering: .relaxed)
        case .noRequest: noRequests.load(ordering: .relaxed)
        case .idleTimeout: idleTimeouts.load(ordering: .relaxed)
        case .bodyTimeout: bodyTimeouts.load(ordering: .relaxed)
        case .evictedAtCap: evictions.load(ordering: .relaxed)
        case .refusedAtCap: refusals.load(ordering: .relaxed)
        }
    }

    func opened() { open.add(1, ordering: .relaxed) }
    func ended() { open.subtract(1, ordering: .relaxed) }
    func close(_ reason: Reason) {
        switch reason {
        case .headerTimeout: headerTimeouts.add(1, ordering: .relaxed)
        case .noRequest: noRequests.add(1, ordering: .relaxed)
        case .idleTimeout: idleTimeouts.add(1, ordering: .relaxed)
        case .bodyTimeout: bodyTimeouts.add(1, ordering: .relaxed)
        case .evictedAtCap: evictions.add(1, ordering: .relaxed)
        case .refusedAtCap: refusals.add(1, ordering: .relaxed)
        }
    }

    /// The Prometheus text exposition of these counts.
    func exposition() -> String {
        var out = "# HELP geoq_connections_open HTTP connections open now.\n"
        out += "# TYPE geoq_connections_open gauge\n"
        out += "geoq_connections_open \(openConnections)\n"
        out += PrometheusText.counter(
            "geoq_connections_closed_total", help: "Connections the service closed itself, by reason.",
            byReason: closed)
        return out
    }
}
