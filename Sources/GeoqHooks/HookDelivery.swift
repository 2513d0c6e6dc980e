import Foundation
import GeoqLayers
import GeoqStore
import Logging
import Synchronization

/// Delivers the outbox to the hooks: one loop per hook, so that a slow or dead endpoint delays
/// no other.
///
/// The outbox is the truth: a loop takes the deliveries due, POSTs each event body
/// (`Content-Type: application/json`, `Idempotency-Key: <hook id>-<event sequence>`, signed as
/// the Standard Webhooks specification says: ``WebhookSignature``) and
/// records the outcome before it takes the next. A 2xx marks it delivered; any other status, a
/// connection failure or the timeout schedules a retry with exponential backoff and full
/// jitter, and the last allowed failure marks it dead. A stop between the POST and the record
/// sends it again on the next start, with the same key (at least once).
///
/// On a shared store (PostgreSQL) every replica runs these loops over the same outbox: a loop
/// claims what is due with a lease (``DeliveryOptions/lease``), so each delivery is POSTed by
/// one replica while it lives, and by another once the lease runs out if it died first.
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

    public init(
        store: TrackingStore, options: DeliveryOptions = DeliveryOptions(), metrics: HookMetrics = HookMetrics(),
        logger: Logger = Logger(label: "geoq.hooks"), resolver: HostResolver = .system
    ) {
        self.store = store
        self.options = options
        self.metrics = metrics
        self.logger = logger
        self.resolver = resolver
    }

    /// Tells the loops that events were committed.
    public func wake() { signal.notify() }

    /// Runs the loops until the task is cancelled (each finishes the attempt in progress).
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            var running: [Int64: String] = [:]
            while !Task.isCancelled {
                let seen = signal.generation
                let hooks: [Hook]
                do { hooks = try store.hooks(tenant: nil) } catch {
                    logger.error("cannot read the hooks", metadata: ["error": "\(error)"])
                    hooks = []
                }
                for hook in hooks where running[hook.id] == nil {
                    running[hook.id] = hook.url
                    group.addTask { await self.loop(hook) }
                }
                running = running.filter { entry in hooks.contains { $0.id == entry.key } }
                await signal.wait(since: seen, upTo: options.sweepInterval)
            }
            group.cancelAll()
        }
    }

    /// One hook's loop: delivers what is due, then waits for a wake-up, the next retry or the
    /// sweep. Ends when the hook is deleted or the task cancelled.
    func loop(_ hook: Hook) async {
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let seen = signal.generation
            do {
                // Read again each pass: the hook may be gone, or its secret rotated.
                guard let current = try store.hooks(tenant: nil).first(where: { $0.id == hook.id }) else { return }
                let limit = options.claimSize(shared: store.isShared)
                let due = try store.claim(hook: hook.id, now: Date(), lease: options.lease, limit: limit)
                for entry in due {
                    if Task.isCancelled { return }
                    try await deliver(entry, to: current, random: &random)
                }
                if due.count == limit { continue }
                var wait = options.sweepInterval
                if let next = try store.nextDue(hook: hook.id) {
                    wait = min(wait, .seconds(max(0, next.timeIntervalSinceNow)))
                }
                await signal.wait(since: seen, upTo: wait)
            } catch {
                logger.error(
                    "hook \(hook.id): the outbox could not be read or written", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: options.sweepInterval)
            }
        }
    }

    func deliver(_ entry: OutboxEntry, to hook: Hook, random: inout some RandomNumberGenerator) async throws {
        let attempts = entry.attempts + 1
        let outcome = await post(entry, to: hook)
        switch outcome {
        case .delivered:
            try store.markDelivered(entry.id, attempts: attempts)
            metrics.record(.delivered)
        case .refused(let reason):
            try store.markDead(entry.id, attempts: attempts, error: reason)
            metrics.record(.dead)
            logger.warning("hook \(hook.id): event \(entry.sequence) not sent: \(reason)")
        case .failed(let failure) where attempts >= options.maxAttempts:
            try store.markDead(entry.id, attempts: attempts, error: failure)
            metrics.record(.dead)
            logger.warning(
                "hook \(hook.id): event \(entry.sequence) given up after \(attempts) attempts",
                metadata: ["error": "\(failure)"])
        case .failed(let failure):
            let wait = options.backoff(after: attempts, using: &random)
            try store.markFailed(
                entry.id, attempts: attempts, nextAttempt: Date().addingTimeInterval(wait.seconds), error: failure)
            metrics.record(.retried)
        }
    }

    /// Checks `url` against the operator's rules on every address its host resolves to now: at
    /// a hook's registration and before each of its deliveries.
    public func destination(of url: String) async -> DestinationRules.Destination {
        await options.destinations.check(url, resolver: resolver)
    }

    /// What became of one try.
    enum Outcome: Equatable {
        case delivered
        /// Worth another try later: why this one failed.
        case failed(String)
        /// The destination may not be reached (no retry): the rule.
        case refused(String)
    }

    /// POSTs the event to the first of the host's addresses that takes a connection, once every
    /// address has passed the rules.
    func post(_ entry: OutboxEntry, to hook: Hook) async -> Outcome {
        let target: (host: String, port: Int, tls: Bool)
        let addresses: [IPAddress]
        switch await destination(of: hook.url) {
        case .reachable(let found, let resolved): (target, addresses) = (found, resolved)
        case .refused(let rule): return .refused(rule)
        case .unresolved(let why): return .failed(why)
        }
        let post = WebhookClient.Post(
            host: target.host, port: target.port, tls: target.tls, target: Self.requestTarget(of: hook.url),
            headers: [("Content-Type", "application/json"), ("Idempotency-Key", entry.idempotencyKey)]
                + WebhookSignature.headers(
                    id: entry.idempotencyKey, timestamp: Date(), body: entry.body,
                    secrets: hook.signingSecrets(at: Date())),
            body: entry.body)
        var failure = "no address"
        for address in addresses {
            do {
                let status = try await client.send(post, to: address, timeout: options.timeout)
                switch status {
                case 200..<300: return .delivered
                case 300..<400: return .failed("HTTP status \(status) (redirects are not followed)")
                default: return .failed("HTTP status \(status)")
                }
            } catch {
                failure = error.description
                // Only a connection that was never made is worth the next address.
                if !failure.hasPrefix("cannot connect") { break }
            }
        }
        return .failed(failure)
    }

    /// The path and query of `url` as they go on the request line (`/` for none).
    static func requestTarget(of url: String) -> String {
        guard let parts = URLComponents(string: url) else { return "/" }
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        return parts.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}
