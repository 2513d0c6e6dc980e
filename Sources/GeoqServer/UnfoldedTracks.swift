import GeoqStore
import Synchronization

/// Each device's latest track committed to the tracks' log and not yet folded into the tracks'
/// table, kept by the writer and read by a tenant's actor reading back a device that left its
/// memory: the device's tracks are those of the table overlaid with these. So a device may leave
/// memory at once, with no fold of the log first (a whole fold of a busy log held every batch
/// behind it for seconds).
///
/// An entry leaves once a fold through its log row has put it in the table (or another
/// connection's whole fold has): read here first, then from the table, a track is never missed
/// in between.
final class UnfoldedTracks: Sendable {
    private struct Key: Hashable {
        var tenant: String
        var device: String
        var layer: String

        // The device alone, as the fold's own map: tenants and layers are few.
        func hash(into hasher: inout Hasher) { hasher.combine(device) }
    }

    private struct State {
        /// One flat map (a map per device cost the writer an allocation per device).
        var tracks: [Key: (row: TrackRow, logRow: Int64)] = [:]
        /// Every layer a track was kept on: a read-back looks a device up on each.
        var layers: Set<String> = []
    }

    private let state = Mutex(State())

    /// `tracks`, just committed in log row `logRow`. A thousand at a time: a tenant's actor
    /// reading back devices waits for one such slice, not for a whole group commit's.
    func keep(_ tracks: [TrackRow], logRow: Int64) {
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
                    state.tracks[Key(tenant: track.tenant, device: track.device, layer: track.layer)] = (track, logRow)
                }
            }
            start += slice.count
        }
    }

    /// `tracks` are in the table, as of log row `through`: each leaves unless written again since.
    func folded(_ tracks: some Sequence<TrackRow>, through: Int64) {
        state.withLock { state in
            for track in tracks {
                let key = Key(tenant: track.tenant, device: track.device, layer: track.layer)
                if let kept = state.tracks[key], kept.logRow <= through { state.tracks[key] = nil }
            }
        }
    }

    /// The whole log is in the table (or the device was erased from it).
    func foldedAll() { state.withLock { $0.tracks = [:] } }

    /// The unfolded tracks of `tenant`'s `devices` (those that have any), by device and layer.
    func tracks(tenant: String, devices wanted: some Collection<String>) -> [String: [String: TrackRow]] {
        guard !wanted.isEmpty else { return [:] }
        return state.withLock { state in
            var found: [String: [String: TrackRow]] = [:]
            for device in wanted {
                for layer in state.layers {
                    if let kept = state.tracks[Key(tenant: tenant, device: device, layer: layer)] {
                        found[device, default: [:]][layer] = kept.row
                    }
                }
            }
            return found
        }
    }
}
