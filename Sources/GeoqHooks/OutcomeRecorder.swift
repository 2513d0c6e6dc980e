import GeoqStore
import Synchronization

/// Records the outcomes of the workers' tries in groups: whoever records while no write is in
/// progress writes every outcome queued meanwhile in one transaction, and each caller returns
/// once its own is written (so a worker still records before it takes its next delivery).
///
/// Why: on a GeoPackage each commit waits for the disk (a rollback journal, synchronous FULL:
/// about 12 ms on the test machine), so one commit per delivery held every hook to a few dozen
/// deliveries a second whatever their number.
final class OutcomeRecorder: Sendable {
    private struct State {
        var queued: [(OutboxOutcome, CheckedContinuation<Void, any Error>)] = []
        var writing = false
    }

    private let state = Mutex(State())
    private let write: @Sendable ([OutboxOutcome]) throws -> Void

    init(write: @escaping @Sendable ([OutboxOutcome]) throws -> Void) { self.write = write }

    /// Returns once `outcome` is in the store (or throws what the store threw for its group).
    func record(_ outcome: OutboxOutcome) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let leads = state.withLock { state -> Bool in
                state.queued.append((outcome, continuation))
                if state.writing { return false }
                state.writing = true
                return true
            }
            if leads { writeQueued() }
        }
    }

    /// Writes group after group until none is queued.
    private func writeQueued() {
        while true {
            let group = state.withLock { state -> [(OutboxOutcome, CheckedContinuation<Void, any Error>)] in
                defer { state.queued = [] }
                if state.queued.isEmpty { state.writing = false }
                return state.queued
            }
            if group.isEmpty { return }
            do {
                try write(group.map(\.0))
                for (_, waiter) in group { waiter.resume() }
            } catch {
                for (_, waiter) in group { waiter.resume(throwing: error) }
            }
        }
    }
}
