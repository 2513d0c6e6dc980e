import Dispatch
import GeoqStore
import Synchronization

/// Each device's latest track committed to the tracks' log and not yet folded into the tracks'
/// table: kept by the writer, which plans its folds from them, and read by a tenant's actor
/// reading back a device that left its memory (the device's tracks are those of the table
/// overlaid with these). So a device may leave memory at once, with no fold of the log first (a
/// whole fold of a busy log held every batch behind it for seconds).
///
/// Two maps: the tracks logged since the last plan, and those of the plan being folded. A plan
/// takes the first whole and leaves an empty one in its place; a finished fold drops the second
/// whole. So the writer's hot path is one insertion per track, and nothing is copied or removed
/// one by one (removing a fold's hundred thousand tracks one by one held the writer 0.2 s).
/// Read here first (logged, then planned), then from the table, a track is never missed.
final class UnfoldedTracks: Sendable {
    fileprivate struct Key: Hashable {
        var tenant: String
        var device: String
        var layer: String

        // The device alone: tenants and layers are few, and hashing them too cost a fleet's
        // writer 2 % of the CPU.
        func hash(into hasher: inout Hasher) { hasher.combine(device) }
    }

    fileprivate struct Entry {
        var row: TrackRow
        /// When it was committed (the table's `updated`).
        var updated: Double
    }

    private struct State {
        /// Logged since the last plan.
        var logged: [Key: Entry] = [:]
        /// The plan being folded (and what a failed plan left).
        var planned: [Key: Entry] = [:]
        /// Every layer a track was kept on: a read-back looks a device up on each.
        var layers: Set<String> = []
    }

    private let state = Mutex(State())

    var isEmpty: Bool { state.withLock { $0.logged.isEmpty && $0.planned.isEmpty } }

    /// `tracks`, committed at `time`. A thousand at a time: a tenant's actor reading back
    /// devices waits for one such slice, not for a whole group commit's.
    func keep(_ tracks: [TrackRow], at time: Double) {
        var start = 0
        while start < tracks.count {
            let slice = tracks[start..<min(start + 1_000, tracks.count)]
            state.withLock { state in
                var lastLayer: String?
                for track in slice {
                    if track.layer != lastLayer {
                        state.layers.insert(track.layer)
                        lastLayer = track.layer
                    }
                    state.logged[Key(tenant: track.tenant, device: track.device, layer: track.layer)] =
                        Entry(row: track, updated: time)
                }
            }
            start += slice.count
        }
    }

    /// The tracks to fold next: those logged since the last plan (with those a failed plan
    /// left), which are the plan's from now until ``folded()``. Sorted off the lock.
    func plan() -> Planned {
        state.withLock { state in
            if state.planned.isEmpty {
                swap(&state.planned, &state.logged)
                state.logged.reserveCapacity(state.planned.count)
            } else {
                state.planned.merge(state.logged) { $1 }
                state.logged = [:]
            }
            return Planned(tracks: state.planned)
        }
    }

    struct Planned: Sendable {
        fileprivate let tracks: [Key: Entry]

        /// Each track with the time it was committed, in key order (the table's pages are then
        /// visited once each, in the order they lie).
        func sorted() -> [(row: TrackRow, updated: Double)] {
            tracks.values.map { ($0.row, $0.updated) }.sorted {
                ($0.row.tenant, $0.row.device, $0.row.layer) < ($1.row.tenant, $1.row.device, $1.row.layer)
            }
        }
    }

    /// The plan's tracks are in the table. Its map is let go on another thread: freeing a
    /// hundred thousand tracks takes a while, and the writer waits for nothing here.
    func folded() {
        letGo(state.withLock { Self.take(&$0.planned) })
    }

    /// The whole log is in the table (or the device was erased from it).
    func foldedAll() {
        letGo(state.withLock { (Self.take(&$0.logged), Self.take(&$0.planned)) })
    }

    private static func take(_ map: inout [Key: Entry]) -> [Key: Entry] {
        defer { map = [:] }
        return map
    }

    private func letGo(_ maps: some Sendable) {
        DispatchQueue.global().async { withExtendedLifetime(maps) {} }
    }

    /// The unfolded tracks of `tenant`'s `devices` (those that have any), by device and layer.
    func tracks(tenant: String, devices wanted: some Collection<String>) -> [String: [String: TrackRow]] {
        guard !wanted.isEmpty else { return [:] }
        return state.withLock { state in
            var found: [String: [String: TrackRow]] = [:]
            for device in wanted {
                for layer in state.layers {
                    let key = Key(tenant: tenant, device: device, layer: layer)
                    if let kept = state.logged[key] ?? state.planned[key] {
                        found[device, default: [:]][layer] = kept.row
                    }
                }
            }
            return found
        }
    }
}
