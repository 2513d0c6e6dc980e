import GeoqAPI
import Synchronization

/// The data the service answers from right now. A request takes the current snapshot once and
/// answers wholly from it; a reload swaps in a new snapshot, built aside, in one step.
public final class ServiceState: Sendable {
    private let current: Mutex<(data: ServiceData?, generation: Int)>
    /// The link to a shared store the snapshot follows (PostgreSQL); nil for a GeoPackage file.
    public let link: StoreLink?

    /// A state holding `data`, or not ready yet when nil.
    public init(_ data: ServiceData? = nil, link: StoreLink? = nil) {
        current = Mutex((data, data == nil ? 0 : 1))
        self.link = link
    }

    /// The current snapshot, or nil before the first load.
    public var data: ServiceData? { current.withLock { $0.data } }

    /// How many snapshots have been swapped in (0 before the first).
    public var generation: Int { current.withLock { $0.generation } }

    /// The current snapshot and its generation, read together (a reload between two reads
    /// would pair one snapshot with the other's generation).
    public var snapshot: (data: ServiceData?, generation: Int) { current.withLock { $0 } }

    /// Replaces the snapshot: requests that already took the old one finish with it, later
    /// ones get the new one.
    public func replace(with data: ServiceData) {
        current.withLock { $0 = (data, $0.generation + 1) }
    }
}
