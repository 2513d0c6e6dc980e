import Synchronization

/// Wakes the delivery loops when events are committed, so that they need not poll.
///
/// A loop reads `generation`, looks for work, then waits "since" that generation: a wake-up
/// that came in between ends the wait at once, so none is lost.
final class WakeSignal: Sendable {
    private struct State {
        var generation = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    var generation: Int { state.withLock { $0.generation } }

    func notify() {
        let waiters = state.withLock { s in
            s.generation += 1
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns on the first notification after `seen`, after `timeout`, or on cancellation.
    func wait(since seen: Int, upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.notification(since: seen) }
            await group.next()
            group.cancelAll()
        }
    }

    private func notification(since seen: Int) async {
        let id = state.withLock { s in
            defer { s.nextWaiter += 1 }
            return s.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.generation != seen || Task.isCancelled { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
