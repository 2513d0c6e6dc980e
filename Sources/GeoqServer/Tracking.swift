import GeoqHooks
import GeoqLayers
import ServiceLifecycle

/// The service's arrival events: the store of device tracks, events and the webhook outbox (in
/// the service's GeoPackage), and the delivery that empties the outbox.
public struct Tracking: Sendable {
    public let store: TrackingStore
    public let delivery: HookDelivery

    public init(store: TrackingStore, delivery: HookDelivery) {
        self.store = store
        self.delivery = delivery
    }

    /// The delivery's metrics, for the end of `/metrics`.
    @Sendable public func metricsExposition() -> String { delivery.metrics.exposition(store: store) }
}

/// Runs the webhook delivery beside the HTTP server and stops it with the server: on a graceful
/// shutdown each loop finishes the attempt in progress, and what is undelivered stays in the
/// outbox for the next start.
struct DeliveryService: Service {
    let delivery: HookDelivery

    func run() async throws {
        let delivery = delivery
        await cancelWhenGracefulShutdown { await delivery.run() }
    }
}
