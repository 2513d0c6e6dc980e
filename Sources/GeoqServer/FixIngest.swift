import Foundation
import GeoqAPI
import GeoqCore
import GeoqLayers
import GeoqParking
import GeoqQuery
import GeoqStore
import GeoqTracking

/// Device fixes into events: every device's track on every layer, advanced by the geofence engine
/// one fix at a time, and each batch's tracks, events and webhook outbox rows committed to the
/// store in one transaction before it is answered, so that nothing acknowledged can be lost.
///
/// An actor: fixes of one device must be applied in order, and a batch's commit must not
/// interleave with another's. On a GeoPackage the tracks are kept in memory, read from the
/// store at the first batch, so that a restarted service goes on where it stopped. On a shared
/// store (PostgreSQL, several replicas) nothing is kept: each batch and each sweep reads its
/// tracks under row locks and commits before it returns (see `TrackingStore.advanceLocked`),
/// so that any replica may take any device.
actor FixIngest {
    let store: TrackingStore
    let delivery: (@Sendable () -> Void)?
    let options: GeofenceOptions
    /// The store's tracking tables, opened at the first commit and kept (dropped after a failed
    /// commit, so that the next one opens them afresh).
    private var tables: TrackingTables?
    /// Tracks by device and layer; nil until read from the store.
    private var tracks: [TrackKey: DeviceTrack]?

    struct TrackKey: Hashable {
        var device: String
        var layer: String
    }

    /// What a batch did: the events it produced (in order), the fixes ignored as older or
    /// repeated, and the bad ones.
    struct Outcome: Encodable {
        var accepted: Int
        var ignored: Int
        var errors: [String]
        var events: [TrackingEvent]
    }

    init(store: TrackingStore, options: GeofenceOptions = GeofenceOptions(), wake: (@Sendable () -> Void)? = nil) {
        self.store = store
        self.options = options
        self.delivery = wake
    }

    /// The geofence engine over `layer` of `data`, with the park answer of the city whose
    /// sectors it is.
    func geofencer(layer: String, data: ServiceData) throws(Problem) -> Geofencer {
        guard let lookup = data.sectorLookups[layer] else {
            throw .unknownLayer(layer, kind: "polygon", known: data.sectorLookups.keys.sorted())
        }
        let city = data.tariffs.first { $0.value.sectorLayer == layer }
        let park = city.map { ParkQuery(tariffs: $0.value, sectors: lookup, zones: data.zoneLocators[$0.key]) }
        return Geofencer(layer: lookup.layer, geodesic: data.geodesic, options: options, parkQuery: park)
    }

    /// Applies `fixes` in order on `layer` and commits what changed.
    func ingest(_ batch: FixReader.Batch, layer: String, data: ServiceData) throws -> Outcome {
        let fences = try geofencer(layer: layer, data: data)
        if store.isShared { return try ingestLocked(batch, layer: layer, fences: fences) }
        var all = try takeTracks()
        var before: [TrackKey: DeviceTrack?] = [:]
        var events: [TrackingEvent] = []
        var ignored = 0
        for fix in batch.fixes {
            let key = TrackKey(device: fix.device, layer: layer)
            var track = all[key]
            if !before.keys.contains(key) { before[key] = track }
            let advance = fences.advance(&track, with: fix)
            if advance.ignored != nil { ignored += 1 }
            all[key] = track
            events += advance.events
        }
        try commit(&all, before: before, events: events)
        return Outcome(
            accepted: batch.fixes.count - ignored, ignored: ignored, errors: batch.errors.map(\.description),
            events: events)
    }

    /// Ends the stays of devices silent past the timeout, and of devices in a feature a reload
    /// removed (synthetic exits).
    func sweep(data: ServiceData, now: Date = Date()) throws {
        if store.isShared { return try sweepLocked(data: data, now: now) }
        var all = try takeTracks()
        var before: [TrackKey: DeviceTrack?] = [:]
        var events: [TrackingEvent] = []
        var fencers: [String: Geofencer?] = [:]
        for (key, track) in all where track.featureID != nil {
            if fencers[key.layer] == nil { fencers[key.layer] = try? geofencer(layer: key.layer, data: data) }
            guard let fences = fencers[key.layer] ?? nil else { continue }
            var t = track
            var ended = fences.expire(&t, at: now)
            if ended.isEmpty { ended = fences.reconcile(&t, with: fences.layer, at: now) }
            guard !ended.isEmpty else { continue }
            before[key] = track
            all[key] = t
            events += ended
        }
        try commit(&all, before: before, events: events)
    }

    /// A batch on a shared store: its devices' tracks locked, advanced and committed in one
    /// transaction.
    private func ingestLocked(_ batch: FixReader.Batch, layer: String, fences: Geofencer) throws -> Outcome {
        var events: [TrackingEvent] = []
        var ignored = 0
        let devices = Set(batch.fixes.map(\.device)).sorted()
        try store.advanceLocked(devices.map { (device: $0, layer: layer) }) { rows in
            var tracks: [String: DeviceTrack] = [:]
            for row in rows { tracks[row.device] = try Self.decoder.decode(DeviceTrack.self, from: row.state) }
            (events, ignored) = ([], 0)
            for fix in batch.fixes {
                var track = tracks[fix.device]
                let advance = fences.advance(&track, with: fix)
                if advance.ignored != nil { ignored += 1 }
                tracks[fix.device] = track
                events += advance.events
            }
            return try Self.storable(
                tracks: devices.compactMap { device in
                    tracks[device].map { (TrackKey(device: device, layer: layer), $0) }
                },
                events: events)
        }
        if !events.isEmpty { delivery?() }
        return Outcome(
            accepted: batch.fixes.count - ignored, ignored: ignored, errors: batch.errors.map(\.description),
            events: events)
    }

    /// The sweep on a shared store: the tracks no one else holds, locked, ended and committed in
    /// one transaction.
    private func sweepLocked(data: ServiceData, now: Date) throws {
        var ended = false
        try store.sweepLocked(now: now) { rows in
            var changed: [(TrackKey, DeviceTrack)] = []
            var events: [TrackingEvent] = []
            var fencers: [String: Geofencer?] = [:]
            for row in rows {
                var track = try Self.decoder.decode(DeviceTrack.self, from: row.state)
                guard track.featureID != nil else { continue }
                if fencers[row.layer] == nil { fencers[row.layer] = try? geofencer(layer: row.layer, data: data) }
                guard let fences = fencers[row.layer] ?? nil else { continue }
                var ends = fences.expire(&track, at: now)
                if ends.isEmpty { ends = fences.reconcile(&track, with: fences.layer, at: now) }
                guard !ends.isEmpty else { continue }
                changed.append((TrackKey(device: row.device, layer: row.layer), track))
                events += ends
            }
            ended = !events.isEmpty
            return try Self.storable(tracks: changed, events: events)
        }
        if ended { delivery?() }
    }

    static let decoder = JSONDecoder()

    /// Tracks and events as the store keeps them: the engine's JSON.
    static func storable(tracks: [(TrackKey, DeviceTrack)], events: [TrackingEvent]) throws -> (
        tracks: [TrackRow], events: [StoredEvent]
    ) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (
            try tracks.map { key, track in
                TrackRow(device: key.device, layer: key.layer, state: try encoder.encode(track))
            },
            try events.map { event in
                StoredEvent(
                    device: event.device, layer: event.layer, kind: event.event.rawValue,
                    body: try encoder.encode(event))
            }
        )
    }

    /// The tracks, moved out of the actor so that a batch changes them in place (a copy of every
    /// device's track per batch grew with the number of devices); ``commit`` puts them back.
    private func takeTracks() throws -> [TrackKey: DeviceTrack] {
        let all = try loadedTracks()
        tracks = nil
        return all
    }

    private func loadedTracks() throws -> [TrackKey: DeviceTrack] {
        if let tracks { return tracks }
        var read: [TrackKey: DeviceTrack] = [:]
        let decoder = JSONDecoder()
        for row in try store.tracks() {
            read[TrackKey(device: row.device, layer: row.layer)] = try decoder.decode(DeviceTrack.self, from: row.state)
        }
        tracks = read
        return read
    }

    /// Writes the changed tracks (those in `before`) and the events in one transaction, then
    /// keeps the new tracks; a failed commit puts back the tracks as they were `before`, so the
    /// fixes can be sent again.
    private func commit(
        _ all: inout [TrackKey: DeviceTrack], before: [TrackKey: DeviceTrack?], events: [TrackingEvent]
    ) throws {
        defer { tracks = all }
        guard !before.isEmpty else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let rows = try before.keys.sorted { ($0.device, $0.layer) < ($1.device, $1.layer) }.compactMap { key in
                try all[key].map { (device: key.device, layer: key.layer, state: try encoder.encode($0)) }
            }
            let stored = try events.map { event in
                StoredEvent(
                    device: event.device, layer: event.layer, kind: event.event.rawValue,
                    body: try encoder.encode(event))
            }
            let tables = try self.tables ?? store.connection()
            self.tables = tables
            do {
                try tables.commit(
                    tracks: rows.map { TrackRow(device: $0.device, layer: $0.layer, state: $0.state) }, events: stored)
            } catch {
                self.tables = nil
                throw error
            }
            if !stored.isEmpty { delivery?() }
        } catch {
            for (key, track) in before { all[key] = track }
            throw error
        }
    }
}
