import Foundation
import GeoqLayers
import GeoqStore
import Logging
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Delivers the outbox to the hooks: one loop per hook, so that a slow or dead endpoint delays
/// no other.
///
/// The outbox is the truth: a loop takes the deliveries due, POSTs each event body
/// (`Content-Type: application/json`, `Idempotency-Key: <hook id>-<event sequence>`) and
/// records the outcome before it takes the next. A 2xx marks it delivered; any other status, a
/// connection failure or the timeout schedules a retry with exponential backoff and full
/// jitter, and the last allowed failure marks it dead. A stop between the POST and the record
/// sends it again on the next start, with the same key (at least once).
///
/// On a shared store (PostgreSQL) every replica runs these loops over the same outbox: a loop
/// claims what is due with a lease (``DeliveryOptions/lease``), so each delivery is POSTed by
/// one replica while it lives, and by another once the lease runs out if it died first.
///
/// Call ``wake()`` after committing events; retries falling due and hooks added or deleted by
/// another process are found by a sweep every `sweepInterval`.
public final class HookDelivery: Sendable {
    let store: TrackingStore
    let options: DeliveryOptions
    public let metrics: HookMetrics
    let logger: Logger
    let signal = WakeSignal()

    public init(
        store: TrackingStore, options: DeliveryOptions = DeliveryOptions(), metrics: HookMetrics = HookMetrics(),
        logger: Logger = Logger(label: "geoq.hooks")
    ) {
        self.store = store
        self.options = options
        self.metrics = metrics
        self.logger = logger
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
        // Its own connection pool (a URLSession per hook): a slow endpoint must not hold the
        // connections another hook needs.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.timeout.seconds
        configuration.urlCache = nil
        let pool = URLSession(configuration: configuration)
        defer { pool.invalidateAndCancel() }
        while !Task.isCancelled {
            let seen = signal.generation
            do {
                guard try store.hooks(tenant: nil).contains(where: { $0.id == hook.id }) else { return }
                let limit = options.claimSize(shared: store.isShared)
                let due = try store.claim(hook: hook.id, now: Date(), lease: options.lease, limit: limit)
                for entry in due {
                    if Task.isCancelled { return }
                    try await deliver(entry, to: hook, pool: pool, random: &random)
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

    func deliver(
        _ entry: OutboxEntry, to hook: Hook, pool: URLSession, random: inout some RandomNumberGenerator
    ) async throws {
        let attempts = entry.attempts + 1
        let failure = await post(entry, to: hook, pool: pool)
        guard let failure else {
            try store.markDelivered(entry.id, attempts: attempts)
            metrics.record(.delivered)
            return
        }
        if attempts >= options.maxAttempts {
            try store.markDead(entry.id, attempts: attempts, error: failure)
            metrics.record(.dead)
            logger.warning(
                "hook \(hook.id): event \(entry.sequence) given up after \(attempts) attempts",
                metadata: ["error": "\(failure)"])
        } else {
            let wait = options.backoff(after: attempts, using: &random)
            try store.markFailed(
                entry.id, attempts: attempts, nextAttempt: Date().addingTimeInterval(wait.seconds), error: failure)
            metrics.record(.retried)
        }
    }

    /// POSTs the event; nil when the receiver took it (2xx), else why not.
    func post(_ entry: OutboxEntry, to hook: Hook, pool: URLSession) async -> String? {
        guard let url = URL(string: hook.url) else { return "not a URL: \(hook.url)" }
        var request = URLRequest(url: url, timeoutInterval: options.timeout.seconds)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(entry.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = entry.body
        do {
            let (_, response) = try await pool.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return (200..<300).contains(status) ? nil : "HTTP status \(status)"
        } catch let error as URLError where error.code == .timedOut {
            return "no answer within \(options.timeout.seconds) s"
        } catch {
            return "\(error.localizedDescription)"
        }
    }
}
