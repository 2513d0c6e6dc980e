import Foundation
import GeoqStore
import Synchronization

/// One row of the tracks' table: its key.
struct TrackKey: Hashable, Sendable {
    var tenant: String
    var device: String
    var layer: String

    init(tenant: String, device: String, layer: String) {
        self.tenant = tenant
        self.device = device
        self.layer = layer
    }

    init(_ row: TrackRow) { self.init(tenant: row.tenant, device: row.device, layer: row.layer) }
}

/// Which version of a row was read or remembered, and where it is (`ctid`) when read in this
/// transaction: the write goes straight to the place, with no search of the key's index, and
/// finds that version there or writes nothing. A remembered row (no place) is found through the
/// key's index.
struct RowVersion: Sendable, Hashable {
    var version: Int64
    var place: String?
}

/// The tracks this process wrote last, each with its row's version, so that the next batch of
/// the same devices need not read them back: it advances them as remembered and writes each only
/// where the row still has that version (another replica may have written it since; then the
/// batch is applied again under locks).
///
/// Never trusted without that check, so it may hold anything stale; at most `capacity` rows
/// (all forgotten at once when full: the next batches read theirs back). Kept by tenant and layer,
/// then device, as a batch comes (one tenant's devices on one layer): a batch looks up each of
/// its devices by its name alone.
final class RecentTracks: Sendable {
    struct Track: Sendable {
        var track: StoredTrack
        var version: Int64
    }

    /// A tenant's devices on one layer.
    struct Group: Hashable, Sendable {
        var tenant: String
        var layer: String
    }

    let capacity: Int
    private let groups = Mutex<(tracks: [Group: [String: Track]], count: Int)>(([:], 0))

    init(capacity: Int = 500_000) { self.capacity = capacity }

    /// The remembered tracks of `devices` of `tenant` on `layer`, in their order (nil: none).
    func tracks(tenant: String, layer: String, devices: [String]) -> [Track?] {
        groups.withLock { groups in
            guard let tracks = groups.tracks[Group(tenant: tenant, layer: layer)] else {
                return Array(repeating: nil, count: devices.count)
            }
            return devices.map { tracks[$0] }
        }
    }

    /// Remembers tracks just committed: `written[i]` (nil: not written) is that of `devices[i]`.
    func remember(tenant: String, layer: String, devices: [String], written: [Track?]) {
        let added = written.count { $0 != nil }
        guard added > 0 else { return }
        groups.withLock { groups in
            if groups.count + added > capacity { groups = ([:], 0) }
            let group = Group(tenant: tenant, layer: layer)
            var tracks = groups.tracks.removeValue(forKey: group) ?? [:]
            let before = tracks.count
            for (device, track) in zip(devices, written) {
                if let track { tracks[device] = track }
            }
            groups.count += tracks.count - before
            groups.tracks[group] = tracks
        }
    }

    /// Forgets the tracks of these rows.
    func forget(_ keys: some Sequence<TrackKey>) {
        groups.withLock { groups in
            for key in keys {
                let group = Group(tenant: key.tenant, layer: key.layer)
                if groups.tracks[group]?.removeValue(forKey: key.device) != nil { groups.count -= 1 }
            }
        }
    }

    /// Forgets every track of `device` of `tenant`, on every layer.
    func forget(tenant: String, device: String) {
        groups.withLock { groups in
            for group in groups.tracks.keys where group.tenant == tenant {
                if groups.tracks[group]?.removeValue(forKey: device) != nil { groups.count -= 1 }
            }
        }
    }

    func forgetAll() { groups.withLock { $0 = ([:], 0) } }
}
