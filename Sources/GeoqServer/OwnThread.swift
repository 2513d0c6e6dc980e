import Foundation

/// Runs `work`, which may wait on the store, on a thread of its own, and resumes when it is done.
/// Swift's cooperative pool has as many threads as the machine has cores: a loop that waited
/// there on a database that went away (the keys' refresh twice a second, the retention's purge)
/// would hold a thread for as long as the database takes to answer or fail, and with every
/// thread held nothing else of the process runs, the store link's reconnection among it.
func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
