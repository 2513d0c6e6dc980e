import Foundation
import GeoqHooks
import GeoqLayers
import GeoqTracking
import Logging
import ServiceLifecycle

/// The service's arrival events: the store of device tracks, events and the webhook outbox (in
/// the service's GeoPackage), the geofence engine fixes go through, and the delivery that
/// empties the outbox.
public struct Tracking: Sendable {
    public let store: TrackingStore
    public let delivery: HookDelivery
    let fixes: FixIngest
    /// How often silent devices and stays in removed features are ended.
    let sweepInterval: Duration

    public init(
        store: TrackingStore, delivery: HookDelivery, options: GeofenceOptions = GeofenceOptions(),
        sweepInterval: Duration = .seconds(15)
    ) {
        self.store = store
        self.delivery = delivery
        self.sweepInterval = sweepInterval
        fixes = FixIngest(store: store, options: options, wake: { [delivery] in delivery.wake() })
    }

    /// The delivery's metrics, for the end of `/metrics`.
    @Sendable public func metricsExposition() -> String { delivery.metrics.exposition(store: store) }
}

/// Runs the webhook delivery and the sweep of silent devices beside the HTTP server and stops
/// them with the server: on a graceful shutdown each delivery loop finishes the attempt in
/// progress, and what is undelivered stays in the outbox for the next start.
struct TrackingService: Service {
    let tracking: Tracking
    let state: ServiceState
    let logger = Logger(label: "geoq.tracking")

    func run() async throws {
        let (tracking, state, logger) = (tracking, state, logger)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await tracking.delivery.run() }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: tracking.sweepInterval)
                        guard let data = state.data else { continue }
                        do { try await tracking.fixes.sweep(data: data) } catch {
                            logger.error("cannot end silent stays", metadata: ["error": "\(error)"])
                        }
                    }
                }
            }
        }
    }
}
