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
///
/// Tracks go to the store's log (see `TrackingTables.commitLogged`), folded into the tracks'
/// table between commits: each device's latest logged track is kept in ``unfolded`` until
/// folded, a plan is made of them once `foldInterval` has passed since the last, then written
/// `foldSlice` tracks at a time, each slice in a group commit's transaction (one sync for both)
/// while the fold has taken at most `foldShare` of the writer's time, or in a row while nothing
/// waits, so that no batch waits behind a whole fold. A device read back after leaving memory
/// is found there too. ``fold()`` folds everything (after a failed commit, memory is read back
/// from the table).
final class TrackWriter: Sendable {
    /// The transactions run here, off Swift's cooperative threads: a sync takes milliseconds,
    /// and a cooperative thread waiting on it would hold up every request.
    private let queue: DispatchQueue
    private let tables: ConfinedTables
    private let state = Mutex(State())
    private let folding = ConfinedFold()
    /// The tracks logged and not yet folded: what the next plan folds, and where devices are
    /// read back from first.
    let unfolded = UnfoldedTracks()
    private let foldInterval: Duration
    private let foldSlice: Int
    /// The share of the writer's time a fold takes while batches wait: a fleet's first fold
    /// inserts every device's row, a second of the writer's work that, done at once, made every
    /// batch of that second wait behind it.
    private let foldShare: Double

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
        /// Nil for the writer's own jobs (a sorted fold plan).
        var done: CheckedContinuation<Answer, any Error>?
    }

    private enum Work {
        case write(tracks: [TrackRow], events: [StoredEvent])
        case erase(tenant: String, device: String)
        case countDevices(tenant: String)
        case fold
        /// Nothing but to wait for the writes handed over before.
        case barrier
        /// A fold plan sorted off the writer's queue.
        case plan(TrackingTables.FoldPlan)
        /// A look at the fold when no write came: the log is folded while the service is idle too.
        case tick
    }

    private enum Answer {
        case written
        case erased(Erasure)
        case devices(Int)
        case folded
    }

    /// `queue`: where the transactions run (tests hold it to gather a group).
    init(
        store: TrackingStore, queue: DispatchQueue = DispatchQueue(label: "geoq.track-writer"),
        foldInterval: Duration = .seconds(5), foldSlice: Int = 2_000, foldShare: Double = 0.25
    ) {
        tables = ConfinedTables(store: store)
        self.queue = queue
        self.foldInterval = foldInterval
        self.foldSlice = foldSlice
        self.foldShare = foldShare
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

    /// Returns once every write handed over before is committed (or has failed).
    func barrier() async throws {
        _ = try await submit(.barrier)
    }

    /// Folds the whole tracks' log into the tracks' table, after every write handed over before.
    func fold() async throws {
        _ = try await submit(.fold)
    }

    private func submit(_ work: Work, failuresSeen: Int? = nil) async throws -> Answer {
        let failuresSeen = failuresSeen ?? failures
        return try await withCheckedThrowingContinuation { done in
            enqueue(Job(work: work, failuresSeen: failuresSeen, done: done))
        }
    }

    private func enqueue(_ job: Job) {
        let start = state.withLock { state -> Bool in
            state.waiting.append(job)
            defer { state.draining = true }
            return !state.draining
        }
        if start { queue.async { self.drain() } }
    }

    /// Commits what is waiting, group after group, with a slice of the fold in progress after
    /// each, until nothing waits and no fold is in progress.
    private func drain() {
        while true {
            let folding = self.folding
            let jobs = state.withLock { state -> [Job] in
                defer { state.waiting = [] }
                if state.waiting.isEmpty && folding.plan == nil { state.draining = false }
                return state.waiting
            }
            if jobs.isEmpty && folding.plan == nil {
                scheduleTick()
                return
            }
            var group: [Job] = []
            for job in jobs {
                switch job.work {
                case .write: group.append(job)
                case .erase(let tenant, let device):
                    commit(group)
                    group = []
                    // The erasure folds the whole log first.
                    job.done?.resume(
                        with: Result {
                            let erased = try tables.use { try $0.erase(tenant: tenant, device: device) }
                            unfolded.foldedAll()
                            return .erased(erased)
                        })
                case .countDevices(let tenant):
                    commit(group)
                    group = []
                    job.done?.resume(with: Result { .devices(try tables.use { try $0.deviceCount(tenant: tenant) }) })
                case .fold:
                    commit(group)
                    group = []
                    folding.plan = nil
                    job.done?.resume(
                        with: Result {
                            _ = try tables.use { try $0.foldTrackLog() }
                            unfolded.foldedAll()
                            return .folded
                        })
                case .barrier:
                    commit(group)
                    group = []
                    job.done?.resume(returning: .written)
                case .plan(let plan):
                    folding.sorting = false
                    folding.plan = plan.isEmpty ? nil : plan
                    folding.began = .now
                    folding.spent = .zero
                case .tick:
                    folding.tickScheduled = false
                }
            }
            let wrote = commit(group, foldingAlong: folding.plan != nil && folding.mayWork(share: foldShare))
            foldStep(afterWriting: wrote)
        }
    }

    /// Comes back after `foldInterval` when tracks wait to be folded and nothing else will
    /// bring the writer back (at most one such visit pending).
    private func scheduleTick() {
        guard !folding.sorting, !folding.tickScheduled, !unfolded.isEmpty else { return }
        folding.tickScheduled = true
        queue.asyncAfter(deadline: .now() + foldInterval.timeInterval) {
            self.enqueue(Job(work: .tick, failuresSeen: 0, done: nil))
        }
    }

    /// Plans a fold when one is due, else writes the next slice of the one in progress unless
    /// the group commit just carried it. A failure drops the plan: the log stays as it is, and a
    /// later plan folds it.
    private func foldStep(afterWriting wrote: Bool) {
        do {
            if let plan = folding.plan {
                guard !wrote else { return }
                folding.plan = nil
                let started = ContinuousClock.now
                continueFold(try tables.use { try $0.applyFold(plan, count: foldSlice) })
                folding.spent += .now - started
            } else if !folding.sorting, ContinuousClock.now - folding.planned >= foldInterval,
                !unfolded.isEmpty
            {
                // Sorted on another thread: the batches waiting for this one do not wait for it.
                folding.planned = .now
                folding.sorting = true
                let planned = unfolded.plan()
                let through = folding.lastLogged
                DispatchQueue.global().async {
                    let plan = TrackingTables.FoldPlan(through: through, tracks: planned.sorted())
                    self.enqueue(Job(work: .plan(plan), failuresSeen: 0, done: nil))
                }
            }
        } catch {
            folding.plan = nil
        }
    }

    /// What is left of the fold in progress after a slice; when nothing is, the plan's tracks
    /// are in the table (written, or folded by another connection meanwhile).
    private func continueFold(_ left: TrackingTables.FoldPlan?) {
        folding.plan = left
        if left == nil { unfolded.folded() }
    }

    /// One transaction for `group`'s writes: their tracks to the log, in the order handed over,
    /// and, `foldingAlong`, the next slice of the fold in progress. Returns whether there was
    /// anything to write.
    @discardableResult
    private func commit(_ group: [Job], foldingAlong: Bool = false) -> Bool {
        let failures = state.withLock { $0.failures }
        var stale: [Job] = []
        var fresh: [Job] = []
        for job in group { if job.failuresSeen == failures { fresh.append(job) } else { stale.append(job) } }
        for job in stale { job.done?.resume(throwing: TrackWriterError.earlierCommitFailed) }
        guard !fresh.isEmpty else { return false }
        // Each batch's rows as they came, not copied into one array: a copy of each row takes
        // and lets go a hold on each of its names and its record.
        var batches: [[TrackRow]] = []
        var events: [StoredEvent] = []
        for job in fresh {
            guard case .write(let jobTracks, let jobEvents) = job.work else { continue }
            batches.append(jobTracks)
            events += jobEvents
        }
        let fold = foldingAlong ? folding.plan : nil
        let started = ContinuousClock.now
        // The whole commit counts as the fold's time: its slice is most of it.
        defer { if fold != nil { folding.spent += .now - started } }
        do {
            let now = Date()
            let written = try tables.use {
                try $0.commitLogged(
                    batches: batches, events: events, now: now, continuing: fold, foldCount: foldSlice)
            }
            if let logged = written.logRow {
                unfolded.keep(batches, at: now.timeIntervalSince1970)
                folding.lastLogged = logged
            }
            if fold != nil { continueFold(written.fold) }
            state.withLock { $0.commits += 1 }
            for job in fresh { job.done?.resume(returning: .written) }
        } catch {
            if fold != nil { folding.plan = nil }
            state.withLock { $0.failures += 1 }
            for job in fresh { job.done?.resume(throwing: error) }
        }
        return true
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

/// The fold in progress and when the last was planned, touched only on the writer's queue
/// (hence unchecked).
private final class ConfinedFold: @unchecked Sendable {
    var plan: TrackingTables.FoldPlan?
    var planned = ContinuousClock.now
    /// The log row of the last commit: a plan made now folds through it.
    var lastLogged: Int64 = 0
    /// A plan is being sorted off the queue.
    var sorting = false
    /// The writer will look again (``TrackWriter/scheduleTick()``).
    var tickScheduled = false
    /// When the plan in progress came, and how long the writer has spent on its slices since.
    var began = ContinuousClock.now
    var spent = Duration.zero

    /// Whether the fold has taken less than `share` of the writer's time since its plan came.
    func mayWork(share: Double) -> Bool {
        spent.timeInterval <= (ContinuousClock.now - began).timeInterval * share
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
