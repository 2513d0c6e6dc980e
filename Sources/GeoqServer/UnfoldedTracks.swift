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
    /// A tenant's layer: a map of its devices' entries each. The rows of one batch share one,
    /// so a track kept is one insertion by device, with no tenant's or layer's name copied into
    /// its entry (the layer's name is one object for every row, and taking and letting go of it
    /// from two threads for every track cost the writer a tenth of its time).
    fileprivate struct Place: Hashable {
        var tenant: String
        var layer: String
    }

    fileprivate struct Entry {
        var state: [UInt8]
        var open: Bool
        /// When it was committed (the table's `updated`).
        var updated: Double
    }

    fileprivate typealias Tracks = [Place: [String: Entry]]

    private struct State {
        /// Logged since the last plan.
        var logged: Tracks = [:]
        /// The plan being folded (and what a failed plan left).
        var planned: Tracks = [:]
    }

    private let state = Mutex(State())

    var isEmpty: Bool {
        state.withLock { state in
            state.logged.values.allSatisfy(\.isEmpty) && state.planned.values.allSatisfy(\.isEmpty)
        }
    }

    /// The tracks of `batches`, committed at `time`. A thousand at a time: a tenant's actor
    /// reading back devices waits for one such slice, not for a whole group commit's. Rows are
    /// read where they lie in their batches: a row taken out is a copy, with a hold on each of
    /// its names and its record taken and let go (a fifth of the writer's time).
    func keep(_ batches: [[TrackRow]], at time: Double) {
        var (batch, row) = (0, 0)
        while batch < batches.count {
            state.withLock { state in
                var slice = 1_000
                while batch < batches.count, slice > 0 {
                    batches[batch].withUnsafeBufferPointer { rows in
                        while row < rows.count, slice > 0 {
                            let place = Place(tenant: rows[row].tenant, layer: rows[row].layer)
                            Self.put(
                                rows, from: &row, upTo: &slice, at: time, of: place,
                                into: &state.logged[place, default: [:]])
                        }
                    }
                    if row == batches[batch].count { (batch, row) = (batch + 1, 0) }
                }
            }
        }
    }

    /// Puts the rows from `row` on into `devices` while they are of `place`.
    private static func put(
        _ rows: UnsafeBufferPointer<TrackRow>, from row: inout Int, upTo slice: inout Int, at time: Double,
        of place: Place, into devices: inout [String: Entry]
    ) {
        while row < rows.count, slice > 0, rows[row].layer == place.layer, rows[row].tenant == place.tenant {
            devices[rows[row].device] = Entry(state: rows[row].state, open: rows[row].open, updated: time)
            slice -= 1
            row += 1
        }
    }

    /// The tracks to fold next: those logged since the last plan (with those a failed plan
    /// left), which are the plan's from now until ``folded()``. Sorted off the lock.
    func plan() -> Planned {
        state.withLock { state in
            if state.planned.isEmpty {
                swap(&state.planned, &state.logged)
                // The same devices are likely to come again: room for them at once, not grown.
                for (place, devices) in state.planned {
                    state.logged[place] = Dictionary(minimumCapacity: devices.count)
                }
            } else {
                for (place, devices) in state.logged {
                    state.planned[place, default: [:]].merge(devices) { $1 }
                }
                state.logged = [:]
            }
            return Planned(tracks: state.planned)
        }
    }

    struct Planned: Sendable {
        fileprivate let tracks: Tracks

        /// Each track with the time it was committed, in key order (the table's pages are then
        /// visited once each, in the order they lie).
        func sorted() -> [(row: TrackRow, updated: Double)] {
            var all: [(row: TrackRow, updated: Double)] = []
            all.reserveCapacity(tracks.values.reduce(0) { $0 + $1.count })
            for (place, devices) in tracks {
                for (device, entry) in devices {
                    all.append(
                        (
                            TrackRow(
                                tenant: place.tenant, device: device, layer: place.layer, state: entry.state,
                                open: entry.open),
                            entry.updated
                        ))
                }
            }
            return all.sorted {
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

    private static func take(_ map: inout Tracks) -> Tracks {
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
            let places = Set(state.logged.keys).union(state.planned.keys).filter { $0.tenant == tenant }
            for place in places {
                let logged = state.logged[place], planned = state.planned[place]
                for device in wanted {
                    if let kept = logged?[device] ?? planned?[device] {
                        found[device, default: [:]][place.layer] = TrackRow(
                            tenant: tenant, device: device, layer: place.layer, state: kept.state, open: kept.open)
                    }
                }
            }
            return found
        }
    }
}
