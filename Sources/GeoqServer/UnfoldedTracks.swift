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
    private struct Device: Hashable {
        var tenant: String
        var device: String
    }

    private let devices = Mutex<[Device: [String: (row: TrackRow, logRow: Int64)]]>([:])

    /// `tracks`, just committed in log row `logRow`. A thousand at a time: a tenant's actor
    /// reading back devices waits for one such slice, not for a whole group commit's.
    func keep(_ tracks: [TrackRow], logRow: Int64) {
        var start = 0
        while start < tracks.count {
            let slice = tracks[start..<min(start + 1_000, tracks.count)]
            devices.withLock { devices in
                for track in slice {
                    devices[Device(tenant: track.tenant, device: track.device), default: [:]][track.layer] = (
                        track, logRow
                    )
                }
            }
            start += slice.count
        }
    }

    /// `tracks` are in the table, as of log row `through`: each leaves unless written again since.
    func folded(_ tracks: some Sequence<TrackRow>, through: Int64) {
        devices.withLock { devices in
            for track in tracks {
                let device = Device(tenant: track.tenant, device: track.device)
                guard let kept = devices[device]?[track.layer], kept.logRow <= through else { continue }
                devices[device]?[track.layer] = nil
                if devices[device]?.isEmpty == true { devices[device] = nil }
            }
        }
    }

    /// The whole log is in the table (or the device was erased from it).
    func foldedAll() { devices.withLock { $0 = [:] } }

    func erased(tenant: String, device: String) {
        _ = devices.withLock { $0.removeValue(forKey: Device(tenant: tenant, device: device)) }
    }

    /// The unfolded tracks of `tenant`'s `devices` (those that have any), by device and layer.
    func tracks(tenant: String, devices wanted: some Collection<String>) -> [String: [String: TrackRow]] {
        guard !wanted.isEmpty else { return [:] }
        return devices.withLock { devices in
            var found: [String: [String: TrackRow]] = [:]
            for device in wanted {
                if let layers = devices[Device(tenant: tenant, device: device)] {
                    found[device] = layers.mapValues(\.row)
                }
            }
            return found
        }
    }
}
