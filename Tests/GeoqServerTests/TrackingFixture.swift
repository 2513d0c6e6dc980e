import Foundation
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqPush
import GeoqServer
import GeoqStore
import HTTPTypes

/// A tracking store of a test's own (a GeoPackage in the temporary folder, or a given store),
/// the service's tracking over it, and keys made in it as `geoq keys add` makes them.
struct TrackingFixture {
    let store: TrackingStore
    let tracking: Tracking

    init(
        store: TrackingStore? = nil, limits: TrackingLimits = TrackingLimits(),
        now: @escaping @Sendable () -> Date = { Date() }, delivery: DeliveryOptions = .loopbackReceivers,
        resolver: HostResolver = .system, pushKey: VAPIDKey? = nil
    ) {
        let store =
            store
            ?? TrackingStore(
                storeFile: FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tracking-\(UUID()).gpkg")
            )
        self.store = store
        // Web Push when the test gives the service a key, as `geoq push keys` stores one.
        let push = pushKey.map { key in
            let keys = PushKeySource(key: key, contact: "mailto:ops@geoq.example")
            return WebPush(
                store: store, delivery: PushDelivery(store: store, keys: keys, options: delivery, resolver: resolver),
                keys: keys)
        }
        tracking = Tracking(
            store: store, delivery: HookDelivery(store: store, options: delivery, resolver: resolver), limits: limits,
            push: push, now: now)
    }

    /// A new key of `tenant` with `scopes`, stored hashed; its text.
    func key(
        _ tenant: String, _ scopes: [Scope], expires: Date? = nil, rate: Double? = nil, now: Date = Date()
    ) throws -> String {
        let made = APIKey.make(tenant: tenant, scopes: scopes, expires: expires, rate: rate, now: now)
        try store.addKey(made.record)
        return made.text
    }

    /// `Authorization: Bearer credential`, and more fields.
    static func bearer(_ credential: String?, _ more: [HTTPField.Name: String] = [:]) -> HTTPFields {
        var fields = HTTPFields()
        if let credential { fields[.authorization] = "Bearer \(credential)" }
        for (name, value) in more { fields[name] = value }
        return fields
    }

    static let json: [HTTPField.Name: String] = [.contentType: "application/json"]
    static let ndjson: [HTTPField.Name: String] = [.contentType: "application/x-ndjson"]
}

extension DeliveryOptions {
    /// Deliveries to receivers the tests run on this machine (plain http on loopback), which the
    /// service's default rules refuse.
    static let loopbackReceivers = DeliveryOptions(destinations: .loopbackReceivers)
}

extension DestinationRules {
    static let loopbackReceivers = DestinationRules(
        allowHTTP: true, allowed: [AddressRange("127.0.0.0/8")!, AddressRange("::1/128")!])
}
