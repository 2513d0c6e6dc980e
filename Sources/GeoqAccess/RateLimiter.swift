import Foundation
import Synchronization

/// Token buckets by name (a key's id, a client's address): each fills at its rate up to its
/// burst, and a request takes one token or is refused with the time until one is there.
///
/// Memory is bounded: at ``capacity`` names, buckets that have filled up again (clients that
/// stopped) are dropped first; if none has, the oldest half go. A dropped bucket comes back full.
public final class RateLimiter: Sendable {
    public struct Policy: Sendable, Hashable {
        /// Tokens a second.
        public var rate: Double
        /// The most tokens a bucket holds (requests in a burst).
        public var burst: Double

        public init(rate: Double, burst: Double? = nil) {
            self.rate = rate
            self.burst = max(1, burst ?? rate)
        }

        /// The `RateLimit-Policy` header (IETF httpapi draft): the quota and its window.
        public func policyHeader(name: String) -> String {
            "\"\(name)\";q=\(Int(burst));w=\(max(1, Int((burst / rate).rounded(.up))))"
        }
    }

    /// A request's outcome, with what the `RateLimit` headers say.
    public struct Outcome: Sendable, Hashable {
        public var allowed: Bool
        /// Whole tokens left after this request.
        public var remaining: Int
        /// Seconds until the bucket is full again.
        public var resetSeconds: Int
        /// Seconds until a refused request may be made again (0 when allowed).
        public var retryAfterSeconds: Int

        /// The `RateLimit` header (IETF httpapi draft).
        public func header(name: String) -> String {
            // Concatenated rather than interpolated: this runs for every request with a key.
            "\"" + name + "\";r=" + String(remaining) + ";t=" + String(resetSeconds)
        }
    }

    private struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }

    public let capacity: Int
    private let buckets = Mutex([String: Bucket]())

    public init(capacity: Int = 100_000) { self.capacity = capacity }

    /// Takes a token from `name`'s bucket under `policy` at `now`.
    public func take(_ name: String, policy: Policy, now: ContinuousClock.Instant = .now) -> Outcome {
        buckets.withLock { buckets in
            if buckets.count >= capacity, buckets[name] == nil { Self.makeRoom(&buckets, policy: policy, now: now) }
            // One lookup of the name: this runs for every request with a key.
            return Self.take(from: &buckets[name, default: Bucket(tokens: policy.burst, at: now)], policy, now)
        }
    }

    private static func take(from bucket: inout Bucket, _ policy: Policy, _ now: ContinuousClock.Instant) -> Outcome {
        let elapsed = now - bucket.at
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bucket.tokens = min(policy.burst, bucket.tokens + max(0, seconds) * policy.rate)
        bucket.at = now
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        return Outcome(
            allowed: allowed, remaining: Int(bucket.tokens.rounded(.down)),
            resetSeconds: Int(((policy.burst - bucket.tokens) / policy.rate).rounded(.up)),
            retryAfterSeconds: allowed ? 0 : max(1, Int(((1 - bucket.tokens) / policy.rate).rounded(.up))))
    }

    /// How many names have a bucket.
    public var count: Int { buckets.withLock { $0.count } }

    private static func makeRoom(_ buckets: inout [String: Bucket], policy: Policy, now: ContinuousClock.Instant) {
        let full = buckets.filter { _, bucket in
            let elapsed = now - bucket.at
            return bucket.tokens + Double(elapsed.components.seconds) * policy.rate >= policy.burst
        }
        if !full.isEmpty {
            for name in full.keys { buckets[name] = nil }
            return
        }
        for (name, _) in buckets.sorted(by: { $0.value.at < $1.value.at }).prefix(buckets.count / 2) {
            buckets[name] = nil
        }
    }
}
