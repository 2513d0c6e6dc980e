import Foundation

/// How hard and how often a delivery is tried.
public struct DeliveryOptions: Sendable {
    /// How long one POST may take before it counts as failed.
    public var timeout: Duration
    /// The backoff before the n-th retry is drawn uniformly from 0 ... min(cap, base · 2^(n-1))
    /// ("full jitter"), so that receivers coming back up are not hit by every sender at once.
    public var backoffBase: Duration
    public var backoffCap: Duration
    /// Attempts before a delivery is given up (dead letter).
    public var maxAttempts: Int
    /// How often the scheduler looks again without a wake-up (deliveries another replica
    /// committed; retries falling due are waited for to the instant).
    public var sweepInterval: Duration
    /// Deliveries a hook's worker takes from the outbox at a time.
    public var batchSize: Int
    /// On a shared store, how long a claimed delivery is kept from the other replicas: the
    /// claim is sized so that its POSTs end within it even if each takes the whole `timeout`,
    /// and a replica that dies holding a claim delays those deliveries by at most this.
    public var lease: Duration
    /// Where hooks may POST.
    public var destinations: DestinationRules
    /// Hooks served at once (each one delivery at a time, in order).
    public var concurrency: Int
    /// The most pending deliveries a hook keeps: beyond it the oldest are given up (counted as
    /// dropped), so that a receiver down for long cannot grow the outbox without end.
    public var maxPendingPerHook: Int

    public init(
        destinations: DestinationRules = DestinationRules(), timeout: Duration = .seconds(10),
        backoffBase: Duration = .seconds(1), backoffCap: Duration = .seconds(300),
        maxAttempts: Int = 12, sweepInterval: Duration = .seconds(5), batchSize: Int = 32,
        lease: Duration = .seconds(60), concurrency: Int = 64, maxPendingPerHook: Int = 10_000
    ) {
        self.maxPendingPerHook = max(1, maxPendingPerHook)
        self.concurrency = max(1, concurrency)
        self.lease = lease
        self.destinations = destinations
        self.timeout = timeout
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.maxAttempts = maxAttempts
        self.sweepInterval = sweepInterval
        self.batchSize = batchSize
    }

    /// How many deliveries to take at once: on a shared store no more than can time out one after
    /// another within the lease (with one timeout to spare), at least one.
    func claimSize(shared: Bool) -> Int {
        guard shared else { return batchSize }
        return max(1, min(batchSize, Int(lease.seconds / max(timeout.seconds, 0.001)) - 1))
    }

    /// The wait before the next try after `attempts` failed ones.
    func backoff(after attempts: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let base = backoffBase.seconds
        let ceiling = min(backoffCap.seconds, base * pow(2, Double(max(attempts - 1, 0))))
        return .seconds(ceiling > 0 ? Double.random(in: 0...ceiling, using: &random) : 0)
    }
}

extension Duration {
    /// The span in seconds.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
