import Foundation

/// The processors this process may run on, as Linux's affinity mask says (`taskset`,
/// systemd's `CPUAffinity=`). SwiftNIO's core count sees cgroup limits but not this mask; without
/// it, a service pinned to one core would start one event loop per core of the machine, which
/// then take turns on that core (measured: p99 2 ms → 5 ms at 16 connections).
enum CPUAffinity {
    /// How many processors the process may run on, or nil where Linux does not say.
    static func allowedProcessors() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return count(list: line.dropFirst("Cpus_allowed_list:".count))
        }
        return nil
    }

    /// The number of processors in a Linux CPU list such as `0-3,8,10-11` (7), or nil when
    /// the list is malformed.
    static func count(list: Substring) -> Int? {
        var total = 0
        for range in list.trimmingCharacters(in: .whitespaces).split(separator: ",", omittingEmptySubsequences: false) {
            let ends = range.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), let first = Int(ends[0]), let last = Int(ends[ends.count - 1]),
                first >= 0, first <= last
            else { return nil }
            total += last - first + 1
        }
        return total > 0 ? total : nil
    }
}
