import GeoqTracking
import Synchronization

/// Fixes posted to the service, taken or not and why, for `/metrics`: a fleet whose phones send
/// fixes out of order, twice, or with a wrong clock shows it here before it shows as missing events.
final class FixCounters: Sendable {
    /// Why a posted fix was not used.
    enum Reason: String, CaseIterable, Sendable {
        /// Older than its device's last fix.
        case older
        /// At the same time as its device's last fix.
        case duplicate
        /// Dated further ahead than the clock's skew allows.
        case future
        /// Dated before the retention of tracks.
        case pastRetention = "past_retention"
        /// A device id longer than the service keeps.
        case deviceTooLong = "device_too_long"
        /// Not a fix: a field missing, not a number, out of range.
        case malformed
    }

    private struct Counts {
        var accepted = 0
        var ignored: [Reason: Int] = [:]
    }

    private let counts = Mutex(Counts())

    /// Counts a batch: the fixes the engine used, and those it or the reader set aside.
    func record(accepted: Int, ignored: [Reason: Int]) {
        counts.withLock { counts in
            counts.accepted += accepted
            for (reason, n) in ignored { counts.ignored[reason, default: 0] += n }
        }
    }

    /// The counters in the Prometheus text format.
    func exposition() -> String {
        let counts = counts.withLock { $0 }
        var out = "# HELP geoq_fixes_accepted_total Posted fixes the geofence engine used.\n"
        out += "# TYPE geoq_fixes_accepted_total counter\ngeoq_fixes_accepted_total \(counts.accepted)\n"
        out += PrometheusText.counter("geoq_fixes_ignored_total", help: "Posted fixes not used, by reason.") {
            counts.ignored[$0] ?? 0
        }
        return out
    }
}

extension FixCounters.Reason {
    /// The reason of a fix the engine ignored.
    init(_ reason: IgnoredFix.Reason) {
        switch reason {
        case .older: self = .older
        case .duplicate: self = .duplicate
        }
    }

    /// The reason of a fix the reader refused.
    init(_ kind: FixError.Kind) {
        switch kind {
        case .malformed: self = .malformed
        case .future: self = .future
        case .pastRetention: self = .pastRetention
        case .deviceTooLong: self = .deviceTooLong
        }
    }
}
