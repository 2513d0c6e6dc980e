import Foundation
import GeoqLayers
import GeoqStore
import GeoqTracking

/// One tenant's device tracks on a GeoPackage, kept in memory between batches: fixes of one
/// device are applied in order and the tenant's commits never interleave, while other tenants'
/// batches go on beside it (each tenant has its own actor and its own connection).
///
/// Memory holds the devices that are in a feature or were heard from recently; the others
/// stay only in the store and are read back at their next fix, so that a tenant's memory is
/// bounded by its active devices, and the store's by ``TrackingLimits/maxDevicesPerTenant``.
actor TenantTracks {
    let tenant: String
    let store: TrackingStore
    let limits: TrackingLimits
    /// The tenant's tracks in memory: device, then layer.
    private var tracks: [String: [String: DeviceTrack]]
    /// How many devices the tenant has in the store, in memory or not.
    private var devices: Int
    /// The store's tracking tables, opened at the first commit and kept (dropped after a failed
    /// commit, so that the next one opens them afresh).
    private var tables: TrackingTables?

    /// What a batch or a sweep did.
    struct Change {
        var events: [TrackingEvent] = []
        var ignored = 0
        /// The ignored fixes by reason.
        var ignoredBy: [FixCounters.Reason: Int] = [:]

        mutating func ignore(_ fix: IgnoredFix) {
            ignored += 1
            ignoredBy[FixCounters.Reason(fix.reason), default: 0] += 1
        }
    }

    init(
        tenant: String, store: TrackingStore, limits: TrackingLimits, tracks: [String: [String: DeviceTrack]],
        devices: Int
    ) {
        self.tenant = tenant
        self.store = store
        self.limits = limits
        self.tracks = tracks
        self.devices = devices
    }

    /// Whether a device with these tracks may leave memory: in no feature on any layer, and
    /// silent for longer than `idle`.
    static func isIdle(_ layers: [String: DeviceTrack], now: Date, idle: Duration) -> Bool {
        layers.values.allSatisfy { $0.featureID == nil && now.timeIntervalSince($0.lastTime) > idle.timeInterval }
    }

    /// Applies `fixes` in order on `layer`, commits what changed, and keeps the new tracks; a
    /// failed commit keeps the tracks as they were, so the fixes can be sent again. A batch that
    /// would give the tenant more devices than its cap is refused whole.
    func ingest(_ fixes: [Fix], layer: String, fences: Geofencer) throws -> Change {
        let fresh = try readBack(Set(fixes.map(\.device)))
        if devices + fresh.count > limits.maxDevicesPerTenant {
            throw TrackingLimitError.tooManyDevices(tenant: tenant, limit: limits.maxDevicesPerTenant)
        }
        var before: [String: DeviceTrack?] = [:]
        var change = Change()
        for fix in fixes {
            var track = tracks[fix.device]?[layer]
            if !before.keys.contains(fix.device) { before[fix.device] = track }
            let advance = fences.advance(&track, with: fix)
            if let ignored = advance.ignored { change.ignore(ignored) }
            if let track { tracks[fix.device, default: [:]][layer] = track }
            change.events += advance.events
        }
        let changed = before.keys.sorted().compactMap { device in tracks[device]?[layer].map { (device, layer, $0) } }
        do {
            try commit(changed, events: change.events)
        } catch {
            for (device, track) in before {
                if let track { tracks[device]?[layer] = track } else { tracks[device]?[layer] = nil }
                if tracks[device]?.isEmpty == true { tracks[device] = nil }
            }
            throw error
        }
        devices += fresh.count
        return change
    }

    /// Ends the stays of silent devices and of devices in features `fencer` no longer has
    /// (synthetic exits), then lets idle devices leave memory. Returns whether any event was made.
    func sweep(fencer: @Sendable (String) -> Geofencer?, now: Date) throws -> Bool {
        var fencers: [String: Geofencer?] = [:]
        var changed: [(String, String, DeviceTrack)] = []
        var events: [TrackingEvent] = []
        for (device, layers) in tracks {
            for (layer, track) in layers where track.featureID != nil {
                if fencers[layer] == nil { fencers[layer] = fencer(layer) }
                guard let fences = fencers[layer] ?? nil else { continue }
                var t = track
                var ended = fences.expire(&t, at: now)
                if ended.isEmpty { ended = fences.reconcile(&t, with: fences.layer, at: now) }
                guard !ended.isEmpty else { continue }
                changed.append((device, layer, t))
                events += ended
            }
        }
        try commit(changed, events: events)
        for (device, layer, track) in changed { tracks[device]?[layer] = track }
        for (device, layers) in tracks where Self.isIdle(layers, now: now, idle: limits.idleInMemory) {
            tracks[device] = nil
        }
        return !events.isEmpty
    }

    /// Erases `device` from the store (track, events, deliveries, in one transaction) and from memory.
    func erase(_ device: String) throws -> Erasure {
        let erased = try store.erase(tenant: tenant, device: device)
        tracks[device] = nil
        devices = try store.deviceCount(tenant: tenant)
        return erased
    }

    /// Forgets the devices last heard from before `instant` (the retention purged them).
    func forget(before instant: Date) {
        for (device, layers) in tracks where layers.values.allSatisfy({ $0.lastTime < instant }) {
            tracks[device] = nil
        }
        if let count = try? store.deviceCount(tenant: tenant) { devices = count }
    }

    /// Reads back from the store the tracks of those `devices` that are not in memory; returns
    /// the devices the store has no track of (new ones).
    private func readBack(_ wanted: Set<String>) throws -> Set<String> {
        var fresh: Set<String> = []
        for device in wanted where tracks[device] == nil {
            let rows = try openTables().deviceTracks(tenant: tenant, device: device)
            if rows.isEmpty {
                fresh.insert(device)
                continue
            }
            for row in rows {
                tracks[device, default: [:]][row.layer] = try FixIngest.decoder.decode(
                    DeviceTrack.self, from: row.state)
            }
        }
        return fresh
    }

    /// Writes `changed` tracks and `events` in one transaction.
    private func commit(_ changed: [(String, String, DeviceTrack)], events: [TrackingEvent]) throws {
        guard !changed.isEmpty || !events.isEmpty else { return }
        let rows = try FixIngest.storable(tenant: tenant, tracks: changed, events: events)
        let tables = try openTables()
        do {
            try tables.commit(tracks: rows.tracks, events: rows.events, now: Date())
        } catch {
            self.tables = nil
            throw error
        }
    }

    private func openTables() throws -> TrackingTables {
        if let tables { return tables }
        let opened = try store.connection()
        tables = opened
        return opened
    }
}
