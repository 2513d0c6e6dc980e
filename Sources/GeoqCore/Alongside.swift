import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work started on another thread at `init`, whose result the caller waits for (an import's
/// index built while its rows are written, a stored index read while the rows are, the second
/// half of a large JSON array).
///
/// Each piece of work gets a thread of its own, not one of Dispatch's global queue: such work
/// may itself wait for other work started alongside (an import's rows wait for its index), and
/// on Linux Dispatch does not add a worker when one blocks, so with as many waiting as there
/// are processors nothing would run the work they wait for.
package final class Alongside<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the worker before it signals `done`; read after waiting for it.
    private var value: Value?

    package init(_ work: @escaping @Sendable () -> Value) {
        let job: @Sendable () -> Void = {
            self.value = work()
            self.done.signal()
        }
        if !Self.startThread(job) {
            // No thread to be had (the process is at its limit): Dispatch's queue, as before.
            DispatchQueue.global().async(execute: job)
        }
    }

    /// Waits for the work and returns what it gave (at once when called again).
    package func result() -> Value {
        done.wait()
        // For the next call: the value stays.
        done.signal()
        return value!
    }

    /// Runs `job` on a new detached thread; false when none could be made.
    private static func startThread(_ job: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(ThreadJob(job))
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, nil,
            { raw in
                #if canImport(Darwin)
                    let box = Unmanaged<ThreadJob>.fromOpaque(raw).takeRetainedValue()
                #else
                    let box = Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue()
                #endif
                box.job()
                return nil
            }, box.toOpaque())
        guard status == 0 else {
            box.release()
            return false
        }
        #if canImport(Darwin)
            pthread_detach(thread!)
        #else
            pthread_detach(thread)
        #endif
        return true
    }
}

/// A job handed to a new thread through `pthread_create`'s one pointer.
private final class ThreadJob: Sendable {
    let job: @Sendable () -> Void
    init(_ job: @escaping @Sendable () -> Void) { self.job = job }
}
