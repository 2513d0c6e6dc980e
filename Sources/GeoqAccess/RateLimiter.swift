import Foundation
import Synchronization

/// Token buckets by name (a key's id, a client's address): each fills at its rate up to its
/// burst, and a request takes one token or is refused with the time until one is there.
///
/// Memory is bounded: at ``capacity`` names, buckets that have filled up again (clients that
/// stopped) are dropped first; if none has, the oldest half go. A dropped bucket comes back full.
///
/// A caller that takes from the same bucket again and again (a connection's requests with one
/// key) keeps the ``Bucket`` it was given and takes from it directly, without looking its name
/// up; a bucket that was dropped says so, and the caller asks for the name's bucket again, so
/// that one name never has two buckets.
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
            "\"" + name + "\";r=" + String(remaining) + ";t=" + String(resetSeconds)
        }
    }

    /// One name's bucket.
    public final class Bucket: Sendable {
        fileprivate struct State {
            var tokens: Double
            var at: ContinuousClock.Instant
            /// Dropped from the limiter: its name has (or will have) a new bucket.
            var dropped = false
        }

        fileprivate let state: Mutex<State>

        fileprivate init(tokens: Double, at: ContinuousClock.Instant) {
            state = Mutex(State(tokens: tokens, at: at))
        }

        /// Takes a token under `policy` at `now`; nil when this bucket was dropped (ask the
        /// limiter for the name's bucket again).
        public func take(policy: Policy, now: ContinuousClock.Instant = .now) -> Outcome? {
            state.withLock { state in
                guard !state.dropped else { return nil }
                let elapsed = now - state.at
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                state.tokens = min(policy.burst, state.tokens + max(0, seconds) * policy.rate)
                state.at = now
                let allowed = state.tokens >= 1
                if allowed { state.tokens -= 1 }
                return Outcome(
                    allowed: allowed, remaining: Int(state.tokens.rounded(.down)),
                    resetSeconds: Int(((policy.burst - state.tokens) / policy.rate).rounded(.up)),
                    retryAfterSeconds: allowed ? 0 : max(1, Int(((1 - state.tokens) / policy.rate).rounded(.up))))
            }
        }

        /// Whether it has filled up again by `now` (nobody has taken from it for a while).
        fileprivate func isFull(policy: Policy, now: ContinuousClock.Instant) -> Bool {
            state.withLock { state in
                let elapsed = now - state.at
                return state.tokens + Double(elapsed.components.seconds) * policy.rate >= policy.burst
            }
        }

        fileprivate var lastTaken: ContinuousClock.Instant { state.withLock { $0.at } }

        fileprivate func drop() { state.withLock { $0.dropped = true } }
    }

    public let capacity: Int
    private let buckets = Mutex([String: Bucket]())

    public init(capacity: Int = 100_000) { self.capacity = capacity }

    /// `name`'s bucket, made full under `policy` if it has none.
    public func bucket(_ name: String, policy: Policy, now: ContinuousClock.Instant = .now) -> Bucket {
        buckets.withLock { buckets in
            if let bucket = buckets[name] { return bucket }
            if buckets.count >= capacity { Self.makeRoom(&buckets, policy: policy, now: now) }
            let bucket = Bucket(tokens: policy.burst, at: now)
            buckets[name] = bucket
            return bucket
        }
    }

    /// Takes a token from `name`'s bucket under `policy` at `now`.
    public func take(_ name: String, policy: Policy, now: ContinuousClock.Instant = .now) -> Outcome {
        while true {
            if let outcome = bucket(name, policy: policy, now: now).take(policy: policy, now: now) { return outcome }
        }
    }

    /// How many names have a bucket.
    public var count: Int { buckets.withLock { $0.count } }

    private static func makeRoom(_ buckets: inout [String: Bucket], policy: Policy, now: ContinuousClock.Instant) {
        let full = buckets.filter { _, bucket in bucket.isFull(policy: policy, now: now) }
        let dropped =
            full.isEmpty
            ? buckets.map { ($0.key, $0.value, $0.value.lastTaken) }.sorted { $0.2 < $1.2 }
                .prefix(buckets.count / 2).map { ($0.0, $0.1) }
            : full.map { ($0.key, $0.value) }
        for (name, bucket) in dropped {
            bucket.drop()
            buckets[name] = nil
        }
    }
}
