import GeoqAPI
import Synchronization

/// The data the service answers from right now. A request takes the current snapshot once and
/// answers wholly from it; a reload swaps in a new snapshot, built aside, in one step.
public final class ServiceState: Sendable {
    private let current: Mutex<ServiceData?>

    /// A state holding `data`, or not ready yet when nil.
    public init(_ data: ServiceData? = nil) { current = Mutex(data) }

    /// The current snapshot, or nil before the first load.
    public var data: ServiceData? { current.withLock { $0 } }

    /// Replaces the snapshot.
    public func replace(with data: ServiceData) { current.withLock { $0 = data } }
}
