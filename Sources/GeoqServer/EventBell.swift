import Synchronization

/// Rung when this process commits tracking events (a batch of fixes, the sweep's synthetic
/// exits): the event streams wait for it instead of reading the store in a loop.
final class EventBell: Sendable {
    private let rings = Atomic<UInt64>(0)

    func ring() { rings.add(1, ordering: .releasing) }

    /// How many times it has rung: a stream reads the store again when this has moved.
    var count: UInt64 { rings.load(ordering: .acquiring) }
}
