import Foundation
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqTracking
import Logging
import ServiceLifecycle
import Synchronization

/// The service's arrival events: the store of device tracks, events, keys and the webhook
/// outbox, the geofence engine fixes go through, the delivery that empties the outbox, and the
/// keys every private request is checked against.
public struct Tracking: Sendable {
    public let store: TrackingStore
    public let delivery: HookDelivery
    /// The store's keys and the device tokens' secret, read again every half second.
    public let keys: KeyRing
    public let limits: TrackingLimits
    let fixes: FixIngest
    /// Rung when events are committed here, for the event streams.
    let bell: EventBell
    /// How often silent devices and stays in removed features are ended.
    let sweepInterval: Duration
    /// How often what is past the retention is purged.
    let purgeInterval: Duration
    /// The clock of fixes' bounds, the retention and the tickets bought (injected by tests).
    let now: @Sendable () -> Date
    /// Web Push (the phone's reminders and news), when the store has a VAPID key.
    public let push: WebPush?

    public init(
        store: TrackingStore, delivery: HookDelivery, options: GeofenceOptions = GeofenceOptions(),
        limits: TrackingLimits = TrackingLimits(), sweepInterval: Duration = .seconds(15),
        purgeInterval: Duration = .seconds(60), push: WebPush? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.push = push
        self.store = store
        self.delivery = delivery
        self.limits = limits
        self.sweepInterval = sweepInterval
        self.purgeInterval = purgeInterval
        self.now = now
        // The signing secret never changes once stored: read (or stored) once, not at every
        // refresh of the keys, which would be a write to the store twice a second.
        let secret = Mutex<Data?>(nil)
        keys = KeyRing(reading: { [store] in
            let known = try secret.withLock { known in
                if let known { return known }
                let read = try store.setting(DeviceToken.secretSetting, orStore: DeviceToken.newSecret())
                known = read
                return read
            }
            return (try store.keys(), known)
        })
        let bell = EventBell()
        self.bell = bell
        fixes = FixIngest(
            store: store, options: options, limits: limits,
            wake: { [delivery] in
                delivery.wake()
                bell.ring()
            })
    }

    /// What a posted fix must be within at this moment: a device id the service keeps, and a
    /// time neither past the retention nor further ahead than a phone's clock may be.
    func fixBounds() -> FixReader.Bounds {
        let now = now()
        return FixReader.Bounds(
            maxDeviceIDLength: limits.maxDeviceIDLength, earliest: now - limits.retainTracks.timeInterval,
            latest: now + limits.maxFutureSkew.timeInterval)
    }

    /// The fixes' and the delivery's metrics, for the end of `/metrics`.
    @Sendable public func metricsExposition() -> String {
        fixes.counters.exposition() + delivery.metrics.exposition(store: store)
            + (push?.delivery.metrics.exposition() ?? "")
    }
}

/// Runs beside the HTTP server, and stops with it: the webhook delivery, the sweep of silent
/// devices, the keys' refresh and the retention's purge. On a graceful shutdown each delivery
/// loop finishes the attempt in progress, and what is undelivered stays in the outbox for the
/// next start.
struct TrackingService: Service {
    let tracking: Tracking
    let state: ServiceState
    let logger = Logger(label: "geoq.tracking")

    func run() async throws {
        let (tracking, state, logger) = (tracking, state, logger)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await tracking.delivery.run() }
                if let push = tracking.push { group.addTask { await push.delivery.run() } }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: tracking.sweepInterval)
                        guard let data = state.data else { continue }
                        do { try await tracking.fixes.sweep(data: data, now: tracking.now()) } catch {
                            logger.error("cannot end silent stays", metadata: ["error": "\(error)"])
                        }
                    }
                }
                group.addTask {
                    var failing = false
                    while !Task.isCancelled {
                        // A store that cannot be read keeps the keys read before; said once.
                        do {
                            try await onThreadOfItsOwn { try tracking.keys.refresh() }
                            failing = false
                        } catch {
                            if !failing { logger.error("cannot read the keys", metadata: ["error": "\(error)"]) }
                            failing = true
                        }
                        try? await Task.sleep(for: KeyRing.refreshInterval)
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        do { try await tracking.fixes.purge(now: tracking.now()) } catch {
                            logger.error("cannot purge past the retention", metadata: ["error": "\(error)"])
                        }
                        try? await Task.sleep(for: tracking.purgeInterval)
                    }
                }
            }
        }
    }
}
