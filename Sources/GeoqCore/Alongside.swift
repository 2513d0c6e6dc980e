import Dispatch

/// Work started on another thread at `init`, whose result the caller waits for (an import's
/// index built while its rows are written, a stored index read while the rows are, the second
/// half of a large JSON array).
package final class Alongside<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the worker before it signals `done`; read after waiting for it.
    private var value: Value?

    package init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.value = work()
            self.done.signal()
        }
    }

    /// Waits for the work and returns what it gave (call once).
    package func result() -> Value {
        done.wait()
        return value!
    }
}
