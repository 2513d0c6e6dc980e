import Foundation
import GeoqLayers
import GeoqPush
import GeoqStore
import Logging
import Synchronization

/// Sends the push outbox to the browsers' push services (Web Push: RFC 8030 delivery, the
/// payload encrypted as RFC 8291 says, authorised with the store's VAPID key as RFC 8292 says).
///
/// The outbox is the truth, as for webhooks: a round takes the messages due (a reminder is due
/// at its time, news at once), sends up to ``DeliveryOptions/concurrency`` at a time, and
/// records every outcome in one transaction. A 2xx is delivered; 404 or 410 means the push
/// service no longer knows the subscription: it ends, and its pending messages are dead; 429
/// and 503 with Retry-After wait as asked (within the cap), anything else retries with
/// exponential backoff and full jitter until ``DeliveryOptions/maxAttempts``; 413 (too large)
/// and a refused destination are dead at once. A stop between a POST and its record sends the
/// message again at the next start (at least once); each carries a `Topic` of its own, by which
/// a push service replaces a copy it still holds.
///
/// The same destination rules as webhooks: every address the push service's host resolves to
/// is checked before each POST, and the POST goes to the address checked. Nothing of the push
/// service's answer but its status is kept.
public final class PushDelivery: Sendable {
    let store: TrackingStore
    let options: DeliveryOptions
    let keys: PushKeySource
    let resolver: HostResolver
    let logger: Logger
    let client = WebhookClient()
    let signal = WakeSignal()
    public let metrics = PushMetrics()
    /// How long a push service keeps a message for a phone that is offline (`TTL`).
    let timeToLive: Int
    /// The VAPID header made for each push service's origin, and until when it is used: a
    /// token is valid 12 hours, so one signature serves every message to that service within
    /// the first 11 (a push service meets each token for an hour at least before it expires).
    private let headers = Mutex([String: (value: String, until: Date)]())

    /// - Parameters:
    ///   - keys: the VAPID key and the operator's contact (a `mailto:` or `https:` address, sent
    ///     in each token); nothing is sent while the store has no key.
    public init(
        store: TrackingStore, keys: PushKeySource, options: DeliveryOptions = DeliveryOptions(),
        resolver: HostResolver = .system, timeToLive: Int = 3600, logger: Logger = Logger(label: "geoq.push")
    ) {
        self.store = store
        self.keys = keys
        self.options = options
        self.resolver = resolver
        self.timeToLive = timeToLive
        self.logger = logger
    }

    /// A delivery with a key known already (tests, benchmarks).
    public convenience init(
        store: TrackingStore, key: VAPIDKey, contact: String?, options: DeliveryOptions = DeliveryOptions(),
        resolver: HostResolver = .system
    ) {
        self.init(store: store, keys: PushKeySource(key: key, contact: contact), options: options, resolver: resolver)
    }

    /// Tells the loop that messages were put in the outbox.
    public func wake() { signal.notify() }

    /// Sends what falls due until the task is cancelled.
    public func run() async {
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let seen = signal.generation
            var wait = options.sweepInterval
            do {
                // No key yet (`geoq push keys` not run): nothing can be sent; look again later.
                guard let signing = try keys.current() else {
                    await signal.wait(since: seen, upTo: wait)
                    continue
                }
                // Four messages a sender: a round's outcomes are one commit, and on a GeoPackage
                // each commit waits for the disk (synchronous FULL).
                // One opening of the tables for the round (a GeoPackage's is a file opened).
                let tables = try store.pushTables()
                let due = try tables.claimPush(now: Date(), lease: options.lease, limit: options.concurrency * 4)
                if !due.isEmpty {
                    let outcomes = await send(due, signing: signing, random: &random)
                    try tables.recordPush(outcomes)
                    continue
                }
                if let next = try tables.nextPushDue() {
                    wait = min(wait, .seconds(max(0.001, next.timeIntervalSinceNow)))
                }
            } catch {
                logger.error("the push outbox could not be read or written", metadata: ["error": "\(error)"])
            }
            await signal.wait(since: seen, upTo: wait)
        }
    }

    /// Sends `entries`, up to the concurrency at a time; their outcomes.
    func send(
        _ entries: [PushOutboxEntry], signing: PushKeySource.Found, random: inout some RandomNumberGenerator
    ) async -> [PushOutcome] {
        let jitter = entries.map { options.backoff(after: $0.attempts + 1, using: &random) }
        return await withTaskGroup(of: PushOutcome.self) { group in
            var outcomes: [PushOutcome] = []
            var next = 0
            func start() {
                let entry = entries[next], backoff = jitter[next]
                next += 1
                group.addTask { await self.deliver(entry, signing: signing, backoff: backoff) }
            }
            while next < min(entries.count, options.concurrency) { start() }
            for await outcome in group {
                outcomes.append(outcome)
                if next < entries.count { start() }
            }
            return outcomes
        }
    }

    /// One attempt at `entry` and what became of it.
    func deliver(_ entry: PushOutboxEntry, signing: PushKeySource.Found, backoff: Duration) async -> PushOutcome {
        let attempts = entry.attempts + 1
        let result = await post(entry, signing: signing)
        let outcome: PushOutcome
        switch result {
        case .delivered:
            outcome = .delivered(id: entry.id, attempts: attempts, at: Date())
        case .gone(let status):
            let reason = "the push service answered \(status): the subscription has ended"
            outcome = .subscriptionGone(
                id: entry.id, attempts: attempts, subscription: entry.subscription.id, reason: reason, at: Date())
            logger.info("push subscription \(entry.subscription.id) ended: \(reason)")
        case .refused(let reason):
            outcome = .dead(id: entry.id, attempts: attempts, error: reason)
            logger.warning("push message \(entry.idempotencyKey) not sent: \(reason)")
        case .failed(let failure, _) where attempts >= options.maxAttempts:
            outcome = .dead(id: entry.id, attempts: attempts, error: failure)
            logger.warning("push message \(entry.idempotencyKey) given up after \(attempts) attempts: \(failure)")
        case .failed(let failure, let retryAfter):
            let wait = retryAfter.map { min(max($0, backoff.seconds), options.backoffCap.seconds) } ?? backoff.seconds
            outcome = .failed(
                id: entry.id, attempts: attempts, nextAttempt: Date().addingTimeInterval(wait), error: failure)
        }
        metrics.record(outcome)
        return outcome
    }

    enum Result: Equatable {
        case delivered
        case gone(Int)
        case refused(String)
        case failed(String, retryAfter: Double?)
    }

    /// The `Authorization` header for a message to `endpoint`, signed again once an hour of
    /// its token's life is left.
    func authorization(for endpoint: URL, signing: PushKeySource.Found, now: Date = Date()) -> String {
        let origin = VAPIDKey.origin(of: endpoint)
        if let kept = headers.withLock({ $0[origin] }), kept.until > now { return kept.value }
        let value = signing.key.authorization(for: endpoint, contact: signing.contact, now: now)
        let until = now.addingTimeInterval(VAPIDKey.tokenLifetime - 3600)
        headers.withLock { $0[origin] = (value, until) }
        return value
    }

    /// Encrypts and POSTs `entry` to its subscription's push service.
    func post(_ entry: PushOutboxEntry, signing: PushKeySource.Found) async -> Result {
        let subscription = entry.subscription
        guard let endpoint = URL(string: subscription.endpoint) else { return .refused("the endpoint is not a URL") }
        let body: Data
        do {
            let keys = try PushKeys(p256dh: subscription.p256dh, auth: subscription.auth)
            body = try WebPushEncryption.encrypt(entry.body, for: keys)
        } catch {
            return .refused(error.description)
        }
        let target: (host: String, port: Int, tls: Bool)
        let addresses: [IPAddress]
        switch await options.destinations.check(subscription.endpoint, resolver: resolver) {
        case .reachable(let found, let resolved): (target, addresses) = (found, resolved)
        case .refused(let rule): return .refused(rule)
        case .unresolved(let why): return .failed(why, retryAfter: nil)
        }
        var headers: [(String, String)] = [
            ("Content-Type", "application/octet-stream"), ("Content-Encoding", "aes128gcm"),
            ("TTL", String(timeToLive)), ("Urgency", "normal"),
            ("Authorization", authorization(for: endpoint, signing: signing)),
        ]
        if let topic = entry.topic { headers.append(("Topic", topic)) }
        let post = WebhookClient.Post(
            host: target.host, port: target.port, tls: target.tls,
            target: HookDelivery.requestTarget(of: subscription.endpoint),
            headers: headers, body: body)
        switch await client.send(post, toFirstOf: addresses, timeout: options.timeout) {
        case .failure(let failure): return .failed(failure.description, retryAfter: nil)
        case .success(let answer):
            switch answer.status {
            case 200..<300: return .delivered
            case 404, 410: return .gone(answer.status)
            case 413: return .refused("the push service answered 413: the message is too large")
            case 300..<400:
                return .failed("HTTP status \(answer.status) (redirects are not followed)", retryAfter: nil)
            case 429, 503: return .failed("HTTP status \(answer.status)", retryAfter: answer.retryAfter)
            default: return .failed("HTTP status \(answer.status)", retryAfter: nil)
            }
        }
    }
}

/// Push attempts by result, for `/metrics`.
public final class PushMetrics: Sendable {
    public enum Result: String, Sendable, CaseIterable {
        case delivered, retried, dead, ended
    }

    private let counts = Mutex([Result: Int]())

    func record(_ outcome: PushOutcome) {
        let result: Result =
            switch outcome {
            case .delivered: .delivered
            case .failed: .retried
            case .dead: .dead
            case .subscriptionGone: .ended
            }
        counts.withLock { $0[result, default: 0] += 1 }
    }

    public func count(_ result: Result) -> Int { counts.withLock { $0[result] ?? 0 } }

    /// The counters in Prometheus' text format.
    public func exposition() -> String {
        let counts = counts.withLock { $0 }
        var out = "# HELP geoq_push_deliveries_total Web Push attempts, by result.\n"
        out += "# TYPE geoq_push_deliveries_total counter\n"
        for result in Result.allCases {
            out += "geoq_push_deliveries_total{result=\"\(result.rawValue)\"} \(counts[result] ?? 0)\n"
        }
        return out
    }
}
