import Foundation
import GeoqStore
import Synchronization

/// One row of the tracks' table: its key.
struct TrackKey: Hashable, Comparable, Sendable {
    var tenant: String
    var device: String
    var layer: String

    init(tenant: String, device: String, layer: String) {
        self.tenant = tenant
        self.device = device
        self.layer = layer
    }

    init(_ row: TrackRow) { self.init(tenant: row.tenant, device: row.device, layer: row.layer) }

    /// Byte order, as `COLLATE "C"` sorts them.
    static func < (a: TrackKey, b: TrackKey) -> Bool {
        if a.tenant != b.tenant { return a.tenant.utf8.lexicographicallyPrecedes(b.tenant.utf8) }
        if a.device != b.device { return a.device.utf8.lexicographicallyPrecedes(b.device.utf8) }
        return a.layer.utf8.lexicographicallyPrecedes(b.layer.utf8)
    }
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
/// (all forgotten at once when full: the next batches read theirs back).
final class RecentTracks: Sendable {
    struct Track: Sendable {
        var state: [UInt8]
        var open: Bool
        var version: Int64
    }

    let capacity: Int
    private let tracks = Mutex<[TrackKey: Track]>([:])

    init(capacity: Int = 500_000) { self.capacity = capacity }

    /// The remembered tracks among `keys`.
    func tracks(of keys: some Sequence<TrackKey>) -> [(key: TrackKey, track: Track)] {
        tracks.withLock { tracks in keys.compactMap { key in tracks[key].map { (key, $0) } } }
    }

    /// Remembers tracks just committed.
    func remember(_ written: [TrackKey: Track]) {
        guard !written.isEmpty else { return }
        tracks.withLock { tracks in
            if tracks.count + written.count > capacity { tracks = [:] }
            tracks.merge(written) { $1 }
        }
    }

    func forget(_ keys: some Sequence<TrackKey>) {
        tracks.withLock { tracks in for key in keys { tracks[key] = nil } }
    }

    func forget(where matches: (TrackKey) -> Bool) {
        tracks.withLock { tracks in tracks = tracks.filter { !matches($0.key) } }
    }

    func forgetAll() { tracks.withLock { $0 = [:] } }
}
