import Foundation
import GeoqLayers
import Synchronization

/// Delivery counts and the outbox's lag, in the Prometheus text format.
public final class HookMetrics: Sendable {
    public enum Result: String, Sendable, CaseIterable {
        case delivered, retried, dead
        /// Given up unsent: the hook had more pending than its cap, and these were the oldest.
        case dropped
    }

    private let counts = Mutex([Result: Int]())

    public init() {}

    func record(_ result: Result, count: Int = 1) { counts.withLock { $0[result, default: 0] += count } }

    /// How many deliveries ended with `result` since the start.
    public func count(_ result: Result) -> Int { counts.withLock { $0[result] ?? 0 } }

    /// The counters, and the age of the oldest pending event read from `store` now.
    public func exposition(store: TrackingStore, now: Date = Date()) -> String {
        let counts = counts.withLock { $0 }
        var out = "# HELP geoq_hook_deliveries_total Webhook delivery attempts, by result.\n"
        out += "# TYPE geoq_hook_deliveries_total counter\n"
        for result in Result.allCases {
            out += "geoq_hook_deliveries_total{result=\"\(result.rawValue)\"} \(counts[result] ?? 0)\n"
        }
        let oldest = (try? store.stats())?.oldestPending
        out += "# HELP geoq_hook_lag_seconds Age of the oldest event not yet delivered (0 when none).\n"
        out += "# TYPE geoq_hook_lag_seconds gauge\n"
        out += "geoq_hook_lag_seconds \(oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)\n"
        return out
    }
}
