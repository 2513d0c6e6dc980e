import Dispatch
import Foundation
import GeoqLayers
import GeoqStore
import Synchronization

/// The one writer of device tracks and events to a GeoPackage, with group commit: batches that
/// arrive while a commit is being synced wait together and go into the next transaction, so
/// that sixteen clients pay for one sync instead of sixteen. A batch is answered once the
/// transaction that holds it is on disk (the store's write-ahead log, synced at every commit).
///
/// The writes of all tenants go through it in the order they were handed over; each tenant's
/// actor hands them over in the order it applied its batches, so a device's tracks are written
/// in order. When a commit fails, every batch of it fails, and so does every batch handed over
/// before the failure was known: those were applied in memory on top of the failed ones.
/// ``failures`` counts the failed commits; a tenant's actor that sees it change reads its
/// tracks from the store again before its next batch.
final class TrackWriter: Sendable {
    /// The transactions run here, off Swift's cooperative threads: a sync takes milliseconds,
    /// and a cooperative thread waiting on it would hold up every request.
    private let queue: DispatchQueue
    private let tables: ConfinedTables
    private let state = Mutex(State())

    private struct State {
        var waiting: [Job] = []
        var draining = false
        var failures = 0
        var commits = 0
    }

    private struct Job {
        var work: Work
        /// ``failures`` when the job's batch was applied.
        var failuresSeen: Int
        var done: CheckedContinuation<Answer, any Error>
    }

    private enum Work {
        case write(tracks: [TrackRow], events: [StoredEvent])
        case erase(tenant: String, device: String)
        case countDevices(tenant: String)
    }

    private enum Answer {
        case written
        case erased(Erasure)
        case devices(Int)
    }

    /// `queue`: where the transactions run (tests hold it to gather a group).
    init(store: TrackingStore, queue: DispatchQueue = DispatchQueue(label: "geoq.track-writer")) {
        tables = ConfinedTables(store: store)
        self.queue = queue
    }

    /// How many commits have failed since the start.
    var failures: Int { state.withLock { $0.failures } }
    /// How many transactions of writes have been committed since the start.
    var commits: Int { state.withLock { $0.commits } }
    /// How many jobs wait for the writer.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Writes `tracks` and `events` (with their outbox rows) in the next group commit; returns
    /// once it is on disk. `failuresSeen`: ``failures`` when the caller applied the batch.
    func write(tracks: [TrackRow], events: [StoredEvent], failuresSeen: Int) async throws {
        guard !tracks.isEmpty || !events.isEmpty else { return }
        _ = try await submit(.write(tracks: tracks, events: events), failuresSeen: failuresSeen)
    }

    /// Erases `device` of `tenant` after every write handed over before, in a transaction of
    /// its own.
    func erase(tenant: String, device: String) async throws -> Erasure {
        guard case .erased(let erased) = try await submit(.erase(tenant: tenant, device: device)) else {
            throw TrackWriterError.unexpectedAnswer
        }
        return erased
    }

    /// How many devices `tenant` has in the store once every write handed over before is on disk.
    func deviceCount(tenant: String) async throws -> Int {
        guard case .devices(let count) = try await submit(.countDevices(tenant: tenant)) else {
            throw TrackWriterError.unexpectedAnswer
        }
        return count
    }

    private func submit(_ work: Work, failuresSeen: Int? = nil) async throws -> Answer {
        let failuresSeen = failuresSeen ?? failures
        return try await withCheckedThrowingContinuation { done in
            let start = state.withLock { state -> Bool in
                state.waiting.append(Job(work: work, failuresSeen: failuresSeen, done: done))
                defer { state.draining = true }
                return !state.draining
            }
            if start { queue.async { self.drain() } }
        }
    }

    /// Commits what is waiting, group after group, until nothing is.
    private func drain() {
        while true {
            let jobs = state.withLock { state -> [Job] in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.draining = false }
                return state.waiting
            }
            if jobs.isEmpty { return }
            var group: [Job] = []
            for job in jobs {
                switch job.work {
                case .write: group.append(job)
                case .erase(let tenant, let device):
                    commit(group)
                    group = []
                    job.done.resume(
                        with: Result { .erased(try tables.use { try $0.erase(tenant: tenant, device: device) }) })
                case .countDevices(let tenant):
                    commit(group)
                    group = []
                    job.done.resume(with: Result { .devices(try tables.use { try $0.deviceCount(tenant: tenant) }) })
                }
            }
            commit(group)
        }
    }

    /// One transaction for `group`'s writes; each device's last track of the group is the one
    /// written.
    private func commit(_ group: [Job]) {
        let failures = state.withLock { $0.failures }
        var stale: [Job] = []
        var fresh: [Job] = []
        for job in group { if job.failuresSeen == failures { fresh.append(job) } else { stale.append(job) } }
        for job in stale { job.done.resume(throwing: TrackWriterError.earlierCommitFailed) }
        guard !fresh.isEmpty else { return }
        var tracks: [TrackRow] = []
        var position: [String: Int] = [:]
        var events: [StoredEvent] = []
        for job in fresh {
            guard case .write(let jobTracks, let jobEvents) = job.work else { continue }
            for track in jobTracks {
                let key = "\(track.tenant)\u{0}\(track.device)\u{0}\(track.layer)"
                if let at = position[key] {
                    tracks[at] = track
                } else {
                    position[key] = tracks.count
                    tracks.append(track)
                }
            }
            events += jobEvents
        }
        // In key order: the rows' pages are then visited once each, in the order they lie.
        tracks.sort { ($0.tenant, $0.device, $0.layer) < ($1.tenant, $1.device, $1.layer) }
        do {
            try tables.use { try $0.commit(tracks: tracks, events: events) }
            state.withLock { $0.commits += 1 }
            for job in fresh { job.done.resume(returning: .written) }
        } catch {
            state.withLock { $0.failures += 1 }
            for job in fresh { job.done.resume(throwing: error) }
        }
    }
}

/// Why a batch was not written.
enum TrackWriterError: Error, CustomStringConvertible {
    /// A batch applied on top of one whose commit failed: send it again.
    case earlierCommitFailed
    /// The writer answered a job with another job's kind of answer (a bug).
    case unexpectedAnswer

    var description: String {
        switch self {
        case .earlierCommitFailed: "an earlier batch's commit failed; this one was not written (send it again)"
        case .unexpectedAnswer: "the store's writer gave an answer of the wrong kind"
        }
    }
}

/// The writer's connection to the store's tracking tables, touched only on the writer's queue
/// (hence unchecked): opened at the first commit with a write-ahead log, and opened again after
/// a failed one.
private final class ConfinedTables: @unchecked Sendable {
    let store: TrackingStore
    private var tables: TrackingTables?

    init(store: TrackingStore) { self.store = store }

    func use<T>(_ body: (TrackingTables) throws -> T) throws -> T {
        let open: TrackingTables
        if let tables {
            open = tables
        } else {
            open = try store.connection()
            try open.useWriteAheadLog()
            tables = open
        }
        do {
            return try body(open)
        } catch {
            tables = nil
            throw error
        }
    }
}
