import Foundation
import GeoqAPI
import GeoqCore
import GeoqJSON
import GeoqLayers
import GeoqParking
import GeoqQuery
import GeoqStore
import GeoqTracking
import Synchronization

/// Device fixes into events: every device's track on every layer, advanced by the geofence engine
/// one fix at a time, and each batch's tracks, events and webhook outbox rows committed to the
/// store in one transaction before it is answered, so that nothing acknowledged can be lost.
///
/// On a GeoPackage the tracks of each tenant are kept by that tenant's own actor
/// (``TenantTracks``): fixes of one device are applied in order, while one tenant's large batch
/// does not hold up another's; the batches of every tenant that arrive while a commit is being
/// synced share the next one (``TrackWriter``, group commit). The tracks are read
/// from the store at the first batch or sweep, so that a restarted service goes on where it
/// stopped; a device outside every feature and silent past ``TrackingLimits/idleInMemory`` leaves
/// memory and is read back at its next fix. On a shared store (PostgreSQL, several replicas)
/// nothing is kept but what the store remembers of its own writes: each batch and each sweep
/// writes its tracks only where no other replica wrote them since they were read, and commits
/// before it returns (see `TrackingStore.advanceLocked`), so that any replica may take any device.
final class FixIngest: Sendable {
    let store: TrackingStore
    let delivery: (@Sendable () -> Void)?
    let options: GeofenceOptions
    let limits: TrackingLimits
    /// Fixes taken and set aside, for `/metrics`.
    let counters = FixCounters()
    /// Each tenant's tracks (GeoPackage only), made at the first read of the store.
    private let shards = Mutex<[String: TenantTracks]?>(nil)
    /// The GeoPackage's one writer of tracks and events (group commit); unused on a shared store.
    private let writer: TrackWriter

    /// What a batch did: the events it produced (in order), the fixes ignored as older or
    /// repeated, and the bad ones.
    struct Outcome: Encodable {
        var accepted: Int
        var ignored: Int
        var errors: [String]
        var events: [TrackingEvent]
    }

    init(
        store: TrackingStore, options: GeofenceOptions = GeofenceOptions(), limits: TrackingLimits = TrackingLimits(),
        wake: (@Sendable () -> Void)? = nil, foldInterval: Duration = .seconds(5)
    ) {
        self.store = store
        self.options = options
        self.limits = limits
        self.delivery = wake
        writer = TrackWriter(store: store, foldInterval: foldInterval)
    }

    /// The geofence engine over `layer` of `data`: a polygon layer, with the park answer of the
    /// city whose sectors it is, or circles of `radius` metres around a point layer's points
    /// (a radius is required there, and refused for a polygon layer).
    func geofencer(layer: String, radius: Double? = nil, data: ServiceData) throws(Problem) -> Geofencer {
        if let lookup = data.sectorLookups[layer] {
            if radius != nil {
                throw .invalid(
                    "radius", "\(layer) is a polygon layer; radius is for point layers (circles around points)")
            }
            let city = data.tariffs.first { $0.value.sectorLayer == layer }
            let park = city.map { ParkQuery(tariffs: $0.value, sectors: lookup, zones: data.zoneLocators[$0.key]) }
            return Geofencer(layer: lookup.layer, options: options, parkQuery: park)
        }
        guard let points = data.pointLayers[layer] else {
            let known = (data.sectorLookups.keys.sorted() + data.pointLayers.keys.sorted())
            throw .unknownLayer(layer, kind: "polygon or point", known: known)
        }
        guard let radius else {
            throw .missing(
                "radius", "\(layer) is a point layer: say how far around each point a fence reaches (radius=100)")
        }
        return circles.withLock { cache in
            let key = CircleKey(layer: layer, radius: radius)
            if let made = cache[key], made.data === data { return made.fences }
            // A new snapshot: the fences of the old one go (and the snapshot with them).
            cache = cache.filter { $0.value.data === data }
            if cache.count >= 16 { cache = [:] }
            let fences = Geofencer(points: points, radius: radius, options: options)
            cache[key] = (data, fences)
            return fences
        }
    }

    /// Circle fences made, by layer and radius, with the snapshot they were made of: a fleet's
    /// batches ask for the same few, and making one reads every feature's own radius.
    private let circles = Mutex<[CircleKey: (data: ServiceData, fences: Geofencer)]>([:])

    private struct CircleKey: Hashable {
        var layer: String
        var radius: Double
    }

    /// The engine a sweep ends `layer`'s stays with: the silence and removed-feature rules do not
    /// depend on a point layer's radius, so any radius serves.
    func sweepingGeofencer(layer: String, data: ServiceData) -> Geofencer? {
        let radius: Double? = data.pointLayers[layer] != nil ? 1 : nil
        return try? geofencer(layer: layer, radius: radius, data: data)
    }

    /// Applies `batch`'s fixes in order to `tenant`'s devices on `fences`' layer and commits
    /// what changed.
    func ingest(_ batch: FixReader.Batch, tenant: String, layer: String, data: ServiceData) async throws -> Outcome {
        try await ingest(batch, tenant: tenant, fences: try geofencer(layer: layer, data: data))
    }

    func ingest(_ batch: FixReader.Batch, tenant: String, fences: Geofencer) async throws -> Outcome {
        let layer = fences.name
        let change: TenantTracks.Change
        if store.isShared {
            // Blocking on the database: off the few threads that run every request's tasks.
            change = try await onThreadOfItsOwn {
                try self.ingestLocked(batch.fixes, tenant: tenant, layer: layer, fences: fences)
            }
        } else {
            change = try await shard(tenant).ingest(batch.fixes, layer: layer, fences: fences)
        }
        if !change.events.isEmpty { delivery?() }
        var ignoredBy = change.ignoredBy
        for error in batch.errors { ignoredBy[FixCounters.Reason(error.kind), default: 0] += 1 }
        counters.record(accepted: batch.fixes.count - change.ignored, ignored: ignoredBy)
        return Outcome(
            accepted: batch.fixes.count - change.ignored, ignored: change.ignored,
            errors: batch.errors.map(\.description), events: change.events)
    }

    /// Ends the stays of devices silent past the timeout, and of devices in a feature a reload
    /// removed (synthetic exits); lets idle devices leave memory.
    func sweep(data: ServiceData, now: Date = Date()) async throws {
        if store.isShared { return try await onThreadOfItsOwn { try self.sweepLocked(data: data, now: now) } }
        var ended = false
        for shard in try allShards() {
            ended = try await shard.sweep(fencer: { self.sweepingGeofencer(layer: $0, data: data) }, now: now) || ended
        }
        if ended { delivery?() }
    }

    /// Erases `device` of `tenant` from the store and from memory, with no batch of that tenant
    /// in between (which could write the track again).
    func erase(tenant: String, device: String) async throws -> Erasure {
        if store.isShared { return try store.erase(tenant: tenant, device: device) }
        return try await shard(tenant).erase(device)
    }

    /// Removes what is past the retention, in the store and (tracks) in memory.
    @discardableResult
    func purge(now: Date = Date()) async throws -> Purge {
        let tracksBefore = now - limits.retainTracks.timeInterval
        let (store, eventsBefore) = (store, now - limits.retainEvents.timeInterval)
        let purged = try await onThreadOfItsOwn {
            try store.purge(eventsBefore: eventsBefore, tracksBefore: tracksBefore)
        }
        if !store.isShared {
            for shard in try allShards() { await shard.forget(before: tracksBefore) }
        }
        return purged
    }

    /// A batch on a shared store: its devices' tracks locked, advanced and committed in one
    /// transaction. The tracks go back and forth in the order of the batch's devices (each fix
    /// knows its device's place), so a device is looked up by name once per fix.
    private func ingestLocked(_ fixes: [Fix], tenant: String, layer: String, fences: Geofencer) throws
        -> TenantTracks.Change
    {
        var places: [String: Int] = [:]
        places.reserveCapacity(fixes.count)
        var devices: [String] = []
        let placeOfFix = fixes.map { fix in
            if let place = places[fix.device] { return place }
            places[fix.device] = devices.count
            devices.append(fix.device)
            return devices.count - 1
        }
        var change = TenantTracks.Change()
        try store.advanceLocked(
            tenant: tenant, layer: layer, devices: devices, maxDevices: limits.maxDevicesPerTenant
        ) { stored in
            var tracks = try stored.map { try $0.map { try DeviceTrack(storage: $0.state) } }
            change = TenantTracks.Change()
            for (fix, place) in zip(fixes, placeOfFix) {
                let advance = fences.advance(&tracks[place], with: fix)
                if let ignored = advance.ignored { change.ignore(ignored) }
                change.events += advance.events
            }
            return (
                tracks.map { $0.map { StoredTrack(state: $0.storage, open: $0.featureID != nil) } },
                Self.storable(tenant: tenant, events: change.events)
            )
        }
        return change
    }

    /// The sweep on a shared store: the tracks no one else holds, locked, ended and committed in
    /// one transaction.
    private func sweepLocked(data: ServiceData, now: Date) throws {
        var ended = false
        try store.sweepLocked(now: now) { rows in
            var changed: [String: [(String, String, DeviceTrack)]] = [:]
            var events: [String: [TrackingEvent]] = [:]
            var fencers: [String: Geofencer?] = [:]
            for row in rows {
                var track = try DeviceTrack(storage: row.state)
                guard track.featureID != nil else { continue }
                if fencers[row.layer] == nil { fencers[row.layer] = sweepingGeofencer(layer: row.layer, data: data) }
                guard let fences = fencers[row.layer] ?? nil else { continue }
                var ends = fences.expire(&track, at: now)
                if ends.isEmpty { ends = fences.reconcile(&track, at: now) }
                guard !ends.isEmpty else { continue }
                changed[row.tenant, default: []].append((row.device, row.layer, track))
                events[row.tenant, default: []] += ends
            }
            ended = !events.isEmpty
            var all: (tracks: [TrackRow], events: [StoredEvent]) = ([], [])
            for tenant in Set(changed.keys).union(events.keys).sorted() {
                let part = Self.storable(
                    tenant: tenant, tracks: changed[tenant] ?? [], events: events[tenant] ?? [])
                all.tracks += part.tracks
                all.events += part.events
            }
            return all
        }
        if ended { delivery?() }
    }

    /// `tenant`'s actor, made (empty) for a tenant the store had no track of.
    private func shard(_ tenant: String) throws -> TenantTracks {
        _ = try allShards()
        return shards.withLock { shards in
            if let shard = shards?[tenant] { return shard }
            let shard = TenantTracks(
                tenant: tenant, store: store, writer: writer, limits: limits, tracks: [:], devices: 0)
            shards?[tenant] = shard
            return shard
        }
    }

    /// Every tenant's actor; at the first call, the tracks of the devices with an open stay or
    /// heard from lately are read from the store and handed out, with each tenant's count of
    /// devices (under the lock, so that it happens once). The other devices are read back at
    /// their next fix: a service over a million stored devices starts with the few it needs.
    private func allShards() throws -> [TenantTracks] {
        try shards.withLock { shards in
            if let shards { return Array(shards.values) }
            let now = Date()
            var byTenant: [String: [String: [String: DeviceTrack]]] = [:]
            for row in try store.startingTracks(activeSince: now - limits.idleInMemory.timeInterval) {
                byTenant[row.tenant, default: [:]][row.device, default: [:]][row.layer] = try DeviceTrack(
                    storage: row.state)
            }
            var made: [String: TenantTracks] = [:]
            for (tenant, count) in try store.deviceCounts() {
                let kept = (byTenant[tenant] ?? [:]).filter {
                    !TenantTracks.isIdle($0.value, now: now, idle: limits.idleInMemory)
                }
                made[tenant] = TenantTracks(
                    tenant: tenant, store: store, writer: writer, limits: limits, tracks: kept, devices: count)
            }
            shards = made
            return Array(made.values)
        }
    }

    /// Tracks (device, layer, track) and events of `tenant` as the store keeps them: each track
    /// as its record (`DeviceTrack.storage`), each event as the JSON its webhook posts.
    static func storable(tenant: String, tracks: [(String, String, DeviceTrack)], events: [TrackingEvent])
        -> (tracks: [TrackRow], events: [StoredEvent])
    {
        (
            tracks.map { device, layer, track in trackRow(tenant: tenant, device: device, layer: layer, track: track) },
            storable(tenant: tenant, events: events)
        )
    }

    /// One track as the store keeps it.
    static func trackRow(tenant: String, device: String, layer: String, track: DeviceTrack) -> TrackRow {
        TrackRow(tenant: tenant, device: device, layer: layer, state: track.storage, open: track.featureID != nil)
    }

    /// Events as the store keeps them.
    static func storable(tenant: String, events: [TrackingEvent]) -> [StoredEvent] {
        events.map { event in
            StoredEvent(
                tenant: tenant, device: event.device, layer: event.layer, kind: event.event.rawValue,
                body: Data(JSONText.of(event)))
        }
    }
}

/// The answer to a batch, written without JSONEncoder (the same text: sorted keys, slashes
/// unescaped): a fleet's batches carry thousands of events a second.
extension FixIngest.Outcome: JSONWritable {
    func write(to json: inout JSONText) {
        json.object { json in
            json.key("accepted")
            json.number(accepted)
            json.key("errors")
            json.array { json in for error in errors { json.string(error) } }
            json.key("events")
            json.array { json in for event in events { event.write(to: &json) } }
            json.key("ignored")
            json.number(ignored)
        }
    }
}
