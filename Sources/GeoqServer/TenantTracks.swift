import Foundation
import GeoqLayers
import GeoqStore
import GeoqTracking

/// One tenant's device tracks on a GeoPackage, kept in memory between batches: fixes of one
/// device are applied in order, while other tenants' batches go on beside it (each tenant has
/// its own actor). A batch is applied in memory at once and handed to the store's
/// ``TrackWriter``, in the order applied; while it waits for its commit, the tenant's next
/// batches are applied and join the same or the next group commit.
///
/// Memory holds the devices that are in a feature or were heard from recently; the others
/// stay only in the store and are read back at their next fix, so that a tenant's memory is
/// bounded by its active devices, and the store's by ``TrackingLimits/maxDevicesPerTenant``.
actor TenantTracks {
    let tenant: String
    let store: TrackingStore
    let writer: TrackWriter
    let limits: TrackingLimits
    /// The tenant's tracks in memory: device, then layer.
    private var tracks: [String: [String: DeviceTrack]]
    /// How many devices the tenant has in the store, in memory or not, counting those whose
    /// first track is still being committed.
    private var devices: Int
    /// While the store's count is being read: the new devices applied meanwhile (the count,
    /// taken after every write handed over before it, lacks them).
    private var freshDuringRecount: Int?
    /// The store's tracking tables for reading tracks back, opened at the first read and kept
    /// (dropped after a failed read, so that the next one opens them afresh).
    private var tables: TrackingTables?
    /// The writer's failed commits when memory was last known to hold only what the store has
    /// or will have: a change means a batch applied here was never written.
    private var failuresSeen: Int
    /// While a sweep waits for the writes before idle devices leave memory: the devices batches
    /// touched meanwhile (their writes may not be committed yet).
    private var touchedWhileSweeping: Set<String>?

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
        tenant: String, store: TrackingStore, writer: TrackWriter, limits: TrackingLimits,
        tracks: [String: [String: DeviceTrack]], devices: Int
    ) {
        self.tenant = tenant
        self.store = store
        self.writer = writer
        self.limits = limits
        self.tracks = tracks
        self.devices = devices
        failuresSeen = writer.failures
    }

    /// Whether a device with these tracks may leave memory: in no feature on any layer, and
    /// silent for longer than `idle`.
    static func isIdle(_ layers: [String: DeviceTrack], now: Date, idle: Duration) -> Bool {
        layers.values.allSatisfy { $0.featureID == nil && now.timeIntervalSince($0.lastTime) > idle.timeInterval }
    }

    /// Applies `fixes` in order on `layer` and returns once what changed is committed. A failed
    /// commit fails this batch and those applied after it (they can be sent again), and memory
    /// is read from the store again. A batch that would give the tenant more devices than its
    /// cap is refused whole.
    func ingest(_ fixes: [Fix], layer: String, fences: Geofencer) async throws -> Change {
        try await forgetUnwrittenBatches()
        let touched = Set(fixes.map(\.device))
        let fresh = try readBack(touched)
        if devices + fresh.count > limits.maxDevicesPerTenant {
            throw TrackingLimitError.tooManyDevices(tenant: tenant, limit: limits.maxDevicesPerTenant)
        }
        var change = Change()
        for fix in fixes {
            let advance = Self.advance(&tracks[fix.device, default: [:]], on: layer, with: fix, fences: fences)
            if let ignored = advance.ignored { change.ignore(ignored) }
            change.events += advance.events
        }
        devices += fresh.count
        freshDuringRecount? += fresh.count
        touchedWhileSweeping?.formUnion(touched)
        // Made into rows here, not kept as tracks until the commit: a track's copy held across
        // the wait would be copied again by the next batch's change to it.
        var rows: [TrackRow] = []
        rows.reserveCapacity(touched.count)
        for device in touched {
            guard let layers = tracks[device] else { continue }
            if let track = layers[layer] {
                rows.append(FixIngest.trackRow(tenant: tenant, device: device, layer: layer, track: track))
            } else if layers.isEmpty {
                // A new device whose every fix was ignored has no track.
                tracks[device] = nil
            }
        }
        try await commit(rows, events: change.events)
        return change
    }

    /// Advances a device's track on `layer` where the dictionary keeps it: a copy taken out
    /// would share its buffers with the dictionary's and copy them at the first change, and an
    /// optional value's place is moved out and back (some hundreds of bytes), for every fix.
    private static func advance(
        _ layers: inout [String: DeviceTrack], on layer: String, with fix: Fix, fences: Geofencer
    ) -> Geofencer.Advance {
        if let kept = layers.index(forKey: layer) { return fences.advance(&layers.values[kept], with: fix) }
        var track: DeviceTrack?
        let advance = fences.advance(&track, with: fix)
        if let track { layers[layer] = track }
        return advance
    }

    /// Ends the stays of silent devices and of devices in features `fencer` no longer has
    /// (synthetic exits), then lets idle devices leave memory. Returns whether any event was made.
    func sweep(fencer: @Sendable (String) -> Geofencer?, now: Date) async throws -> Bool {
        try await forgetUnwrittenBatches()
        var fencers: [String: Geofencer?] = [:]
        var changed: [(String, String, DeviceTrack)] = []
        var events: [TrackingEvent] = []
        for (device, layers) in tracks {
            for (layer, track) in layers where track.featureID != nil {
                if fencers[layer] == nil { fencers[layer] = fencer(layer) }
                guard let fences = fencers[layer] ?? nil else { continue }
                var t = track
                var ended = fences.expire(&t, at: now)
                if ended.isEmpty { ended = fences.reconcile(&t, at: now) }
                guard !ended.isEmpty else { continue }
                changed.append((device, layer, t))
                events += ended
            }
        }
        for (device, layer, track) in changed { tracks[device]?[layer] = track }
        let rows = changed.map { FixIngest.trackRow(tenant: tenant, device: $0, layer: $1, track: $2) }
        // Committed before any device leaves memory, with every write handed over earlier, so
        // that a device read back later finds its last track (in the writer's unfolded tracks
        // or the tracks' table).
        touchedWhileSweeping = []
        defer { touchedWhileSweeping = nil }
        if changed.isEmpty && events.isEmpty {
            try await writer.barrier()
        } else {
            try await commit(rows, events: events)
        }
        let touched = touchedWhileSweeping ?? []
        for (device, layers) in tracks
        where !touched.contains(device) && Self.isIdle(layers, now: now, idle: limits.idleInMemory) {
            tracks[device] = nil
        }
        return !events.isEmpty
    }

    /// Erases `device` from the store (track, events, deliveries, in one transaction) and from memory.
    func erase(_ device: String) async throws -> Erasure {
        tracks[device] = nil
        // After every write of the device handed over before; a fix applied meanwhile starts anew.
        let erased = try await writer.erase(tenant: tenant, device: device)
        try await recountDevices()
        return erased
    }

    /// Forgets the devices last heard from before `instant` (the retention purged them).
    func forget(before instant: Date) async {
        for (device, layers) in tracks where layers.values.allSatisfy({ $0.lastTime < instant }) {
            tracks[device] = nil
        }
        try? await recountDevices()
    }

    /// Reads back from the store the tracks of those `devices` that are not in memory; returns
    /// the devices the store has no track of (new ones).
    private func readBack(_ wanted: Set<String>) throws -> Set<String> {
        var fresh: Set<String> = []
        let missing = wanted.filter { tracks[$0] == nil }
        // The writer's first: a track it folds meanwhile is then in the table.
        let unfolded = writer.unfolded.tracks(tenant: tenant, devices: missing)
        let stored: [String: [TrackRow]]
        do {
            stored = try openTables().deviceTracks(tenant: tenant, devices: Array(missing))
        } catch {
            tables = nil
            throw error
        }
        for device in missing {
            var rows: [String: TrackRow] = [:]
            for row in stored[device] ?? [] { rows[row.layer] = row }
            rows.merge(unfolded[device] ?? [:]) { $1 }
            if rows.isEmpty {
                fresh.insert(device)
                continue
            }
            for (layer, row) in rows {
                tracks[device, default: [:]][layer] = try DeviceTrack(storage: row.state)
            }
        }
        return fresh
    }

    /// Hands `rows` of tracks and `events` to the writer and waits for their commit.
    private func commit(_ rows: [TrackRow], events: [TrackingEvent]) async throws {
        guard !rows.isEmpty || !events.isEmpty else { return }
        try await writer.write(
            tracks: rows, events: FixIngest.storable(tenant: tenant, events: events), failuresSeen: failuresSeen)
    }

    /// After a failed commit: memory may hold batches that were never written, so it is
    /// dropped, and tracks are read from the store again as devices send fixes.
    private func forgetUnwrittenBatches() async throws {
        let failures = writer.failures
        guard failures != failuresSeen else { return }
        tracks = [:]
        // Tracks are read back from the tracks' table: what was committed to the log goes there
        // first. Meanwhile a batch of this tenant comes here too, and waits for its own fold.
        try await writer.fold()
        failuresSeen = failures
        try await recountDevices()
    }

    /// Reads the tenant's device count from the store, after every write handed over before;
    /// the new devices applied while it is read are added. One recount at a time: another
    /// asked meanwhile is answered by it.
    private func recountDevices() async throws {
        guard freshDuringRecount == nil else { return }
        freshDuringRecount = 0
        defer { freshDuringRecount = nil }
        let stored = try await writer.deviceCount(tenant: tenant)
        devices = stored + (freshDuringRecount ?? 0)
    }

    private func openTables() throws -> TrackingTables {
        if let tables { return tables }
        let opened = try store.connection()
        tables = opened
        return opened
    }
}
