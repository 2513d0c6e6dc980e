import Foundation
import GeoqLayers
import GeoqStore
import Logging
import Synchronization

/// Delivers the outbox to the hooks: one scheduler over every hook's due deliveries, each hook's
/// in order and at most one at a time, up to ``DeliveryOptions/concurrency`` hooks at once, so
/// that a slow or dead endpoint delays no other and the work grows with the deliveries, not with
/// the number of hooks.
///
/// The outbox is the truth: a pass asks the store which hooks have deliveries due (one query
/// for all of them), and for each one not already being served starts a worker that takes that
/// hook's due deliveries, POSTs each event body (`Content-Type: application/json`,
/// `Idempotency-Key: <hook id>-<event sequence>`, signed as the Standard Webhooks specification
/// says: ``WebhookSignature``) and records the outcome before it takes the next. A 2xx marks it
/// delivered; 410 Gone disables the hook (its pending deliveries dead); 429 and 503 with
/// Retry-After wait as long as the receiver asks (up to ``DeliveryOptions/backoffCap``); any
/// other status, a connection failure or the timeout schedules a retry with exponential backoff
/// and full jitter, and the last allowed failure marks it dead. A stop between the POST and the
/// record sends it again on the next start, with the same key (at least once).
///
/// On a shared store (PostgreSQL) every replica runs this over the same outbox: a worker claims
/// what is due with a lease (``DeliveryOptions/lease``), so each delivery is POSTed by one
/// replica while it lives, and by another once the lease runs out if it died first.
///
/// Before every POST the receiver's host is resolved and each address checked against the
/// operator's ``DestinationRules``; a refused destination is a dead letter at once, with the
/// rule as its reason. The POST goes to the address checked (``WebhookClient``), never follows a
/// redirect (a 3xx is a failed try), and keeps nothing of the answer but its status.
///
/// Call ``wake()`` after committing events; retries falling due and hooks added or deleted by
/// another process are found by a sweep every `sweepInterval`.
public final class HookDelivery: Sendable {
    let store: TrackingStore
    let options: DeliveryOptions
    public let metrics: HookMetrics
    let logger: Logger
    let signal = WakeSignal()
    let resolver: HostResolver
    let client = WebhookClient()
    let redis = RedisStreamClient()
    /// The hooks a worker is serving now.
    private let busy = Mutex(Set<Int64>())
    /// One store call at a time on a GeoPackage.
    private let turns: StoreTurns
    /// Where the workers' outcomes are written, in groups.
    private let recorder: OutcomeRecorder

    public init(
        store: TrackingStore, options: DeliveryOptions = DeliveryOptions(), metrics: HookMetrics = HookMetrics(),
        logger: Logger = Logger(label: "geoq.hooks"), resolver: HostResolver = .system
    ) {
        self.store = store
        self.options = options
        self.metrics = metrics
        self.logger = logger
        self.resolver = resolver
        let turns = StoreTurns(store)
        self.turns = turns
        recorder = OutcomeRecorder { outcomes in try turns.run { try $0.record(outcomes) } }
    }

    /// Tells the scheduler that events were committed.
    public func wake() { signal.notify() }

    /// Runs the scheduler until the task is cancelled (each worker finishes the attempt in
    /// progress).
    public func run() async {
        await withDiscardingTaskGroup { group in
            var trimmed = ContinuousClock.now - options.sweepInterval
            while !Task.isCancelled {
                let seen = signal.generation
                var wait = options.sweepInterval
                do {
                    let trim = ContinuousClock.now - trimmed >= options.sweepInterval
                    if trim { trimmed = .now }
                    let slots = options.concurrency - busy.withLock { $0.count }
                    let keep = options.maxPendingPerHook
                    // One turn on the store for the whole pass.
                    let (dropped, due, next) = try inStore { tables in
                        let dropped =
                            trim
                            ? try tables.trimPending(
                                keep: keep, reason: "given up unsent: the hook had more than \(keep) pending") : 0
                        let due =
                            slots > 0 ? try tables.dueHooks(now: Date(), limit: options.concurrency) : []
                        // With deliveries due, each worker's end wakes the scheduler: when the next
                        // falls due matters only when none is (a query less before each POST).
                        return (dropped, due, due.isEmpty ? try tables.nextDue() : nil)
                    }
                    if dropped > 0 {
                        metrics.record(.dropped, count: dropped)
                        logger.warning("\(dropped) deliveries given up: their hooks had too many pending")
                    }
                    for hook in due.prefix(while: { _ in busy.withLock { $0.count } < options.concurrency }) {
                        let id = hook.id
                        guard busy.withLock({ $0.insert(id).inserted }) else { continue }
                        group.addTask {
                            await self.serve(hook)
                            self.busy.withLock { _ = $0.remove(id) }
                            // The scheduler looks again: the hook may have more, or a slot is free.
                            self.signal.notify()
                        }
                    }
                    if let next { wait = min(wait, .seconds(max(0.001, next.timeIntervalSinceNow))) }
                } catch {
                    logger.error("the outbox could not be read", metadata: ["error": "\(error)"])
                }
                await signal.wait(since: seen, upTo: wait)
            }
        }
    }

    /// `body` on the store, in turn with the other workers' (see ``StoreTurns``).
    private func inStore<T>(_ body: (any TrackingTableAccess) throws -> T) throws -> T { try turns.run(body) }

    /// One hook's worker: delivers what is due of it, in order, until nothing is (or the task is
    /// cancelled).
    func serve(_ hook: Hook) async {
        var random = SystemRandomNumberGenerator()
        do {
            while !Task.isCancelled {
                let limit = options.claimSize(shared: store.isShared)
                let due = try turns.claim(hook: hook.id, lease: options.lease, limit: limit)
                for entry in due {
                    if Task.isCancelled { return }
                    guard try await deliver(entry, to: hook, random: &random) else { return }
                }
                if due.count < limit { return }
            }
        } catch {
            logger.error("hook \(hook.id): the outbox could not be read or written", metadata: ["error": "\(error)"])
        }
    }

    /// Checks `url` against the operator's rules on every address its host resolves to now: at
    /// a hook's registration and before each of its deliveries.
    public func destination(of url: String) async -> DestinationRules.Destination {
        await options.destinations.check(url, resolver: resolver)
    }

    /// Delivers one entry and records the outcome; false when the hook must not be tried again
    /// now (it was disabled, or its receiver asked to wait).
    func deliver(_ entry: OutboxEntry, to hook: Hook, random: inout some RandomNumberGenerator) async throws -> Bool {
        let attempts = entry.attempts + 1
        let outcome = await post(entry, to: hook)
        switch outcome {
        case .delivered:
            try await recorder.record(.delivered(id: entry.id, attempts: attempts, at: Date()))
            metrics.record(.delivered)
        case .refused(let reason):
            try await recorder.record(.dead(id: entry.id, attempts: attempts, error: reason))
            metrics.record(.dead)
            logger.warning("hook \(hook.id): event \(entry.sequence) not sent: \(reason)")
        case .gone:
            let reason = "the receiver answered 410 Gone: the hook is disabled"
            try inStore { try $0.markDead(entry.id, attempts: attempts, error: reason) }
            try inStore { try $0.disableHook(id: hook.id, reason: reason, at: Date()) }
            metrics.record(.dead)
            logger.warning("hook \(hook.id): \(reason)")
            return false
        case .failed(let failure, _) where attempts >= options.maxAttempts:
            try await recorder.record(.dead(id: entry.id, attempts: attempts, error: failure))
            metrics.record(.dead)
            logger.warning(
                "hook \(hook.id): event \(entry.sequence) given up after \(attempts) attempts",
                metadata: ["error": "\(failure)"])
        case .failed(let failure, let retryAfter):
            let backoff = options.backoff(after: attempts, using: &random).seconds
            // A receiver that says how long to wait is waited for (within the cap), and asked
            // nothing more meanwhile: the hook's later deliveries wait with it.
            let wait = retryAfter.map { min(max($0, backoff), options.backoffCap.seconds) } ?? backoff
            let next = Date().addingTimeInterval(wait)
            try await recorder.record(.failed(id: entry.id, attempts: attempts, nextAttempt: next, error: failure))
            metrics.record(.retried)
            if retryAfter != nil {
                try inStore { try $0.postpone(hook: hook.id, until: next) }
                return false
            }
        }
        return true
    }

    /// What became of one try.
    enum Outcome: Equatable {
        case delivered
        /// Worth another try later: why this one failed, and how long the receiver asked to wait.
        case failed(String, retryAfter: Double?)
        /// The destination may not be reached (no retry): the rule.
        case refused(String)
        /// The receiver answered 410 Gone.
        case gone
    }

    /// POSTs the event to the first of the host's addresses that takes a connection, once every
    /// address has passed the rules.
    func post(_ entry: OutboxEntry, to hook: Hook) async -> Outcome {
        let target: (host: String, port: Int, tls: Bool)
        let addresses: [IPAddress]
        switch await destination(of: hook.url) {
        case .reachable(let found, let resolved): (target, addresses) = (found, resolved)
        case .refused(let rule): return .refused(rule)
        case .unresolved(let why): return .failed(why, retryAfter: nil)
        }
        let sink: RedisStreamAddress?
        do { sink = try RedisStreamAddress(hook.url) } catch { return .refused(error.message) }
        if let sink { return await append(entry, to: sink, port: target.port, addresses: addresses) }
        let post = WebhookClient.Post(
            host: target.host, port: target.port, tls: target.tls, target: Self.requestTarget(of: hook.url),
            headers: [("Content-Type", "application/json"), ("Idempotency-Key", entry.idempotencyKey)]
                + WebhookSignature.headers(
                    id: entry.idempotencyKey, timestamp: Date(), body: entry.body,
                    secrets: hook.signingSecrets(at: Date())),
            body: entry.body)
        switch await client.send(post, toFirstOf: addresses, timeout: options.timeout) {
        case .failure(let failure): return .failed(failure.description, retryAfter: nil)
        case .success(let answer):
            switch answer.status {
            case 200..<300: return .delivered
            case 410: return .gone
            case 300..<400:
                return .failed("HTTP status \(answer.status) (redirects are not followed)", retryAfter: nil)
            case 429, 503: return .failed("HTTP status \(answer.status)", retryAfter: answer.retryAfter)
            default: return .failed("HTTP status \(answer.status)", retryAfter: nil)
            }
        }
    }

    /// Appends the event to a Redis stream as two fields, `id` (the idempotency key, by which a
    /// consumer drops a repeat) and `body` (the JSON a webhook would get), at the first of the
    /// host's addresses that takes a connection.
    func append(_ entry: OutboxEntry, to sink: RedisStreamAddress, port: Int, addresses: [IPAddress]) async -> Outcome {
        let append = RedisStreamClient.Append(
            stream: sink.stream, maxLength: sink.maxLength,
            fields: [("id", Data(entry.idempotencyKey.utf8)), ("body", entry.body)], port: port)
        var failure = "no address"
        for address in addresses {
            do {
                _ = try await redis.send(append, to: address, timeout: options.timeout)
                return .delivered
            } catch {
                failure = error.description
                if !failure.hasPrefix("cannot connect") { break }
            }
        }
        return .failed(failure, retryAfter: nil)
    }

    /// The path and query of `url` as they go on the request line (`/` for none).
    static func requestTarget(of url: String) -> String {
        guard let parts = URLComponents(string: url) else { return "/" }
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        return parts.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
