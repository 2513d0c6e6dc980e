/// Room for the positions of many rings in one allocation, filled once from front to back and
/// then only read: the rings decoded from a store share it (each ring a range of it) instead of
/// each owning an array.
///
/// Why: a layer's polygon index needs every vertex of the layer in one buffer
/// (``LayerVertices``). When the rings already lie in one buffer, back to back in layer order,
/// the index uses that buffer as it is; otherwise it copies every vertex. On the world time
/// zones (8.2 million vertices) the shared buffer spares 131 MB of memory, the copy, and the
/// page faults of filling both in a new process.
///
/// Invariant: positions `0..<count` are written and never change; ``append(_:)`` writes only
/// beyond `count`. Rings are made only over written positions, so a ring never sees a write.
/// Filled by one owner before any ring over it is shared; after that it is read-only, hence
/// safe to share between threads.
public final class PointArena: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Point>
    /// How many positions fit.
    public let capacity: Int
    /// How many positions are written (``count``, which only ``append(_:)`` raises).
    @usableFromInline var filled = 0
    /// How many positions are written.
    public var count: Int { filled }

    /// Room for `capacity` positions (allocated as ``LargeAllocation`` does; pages are only
    /// taken from the system as positions are written). Call ``settle()`` once filled.
    public init(capacity: Int) {
        self.capacity = Swift.max(0, capacity)
        base =
            LargeAllocation.buffer(of: Point.self, count: self.capacity, populated: false).baseAddress
            ?? UnsafeMutablePointer<Point>.allocate(capacity: 0)
    }

    /// Positions from here on have no pages yet (see ``reserve(_:)``).
    private var populatedEnd = 0

    /// Takes the pages for the next `count` positions from the system, a few megabytes ahead
    /// at a time (see ``LargeAllocation/populate(_:)``), before a reader writes them; room that
    /// is never written costs no memory this way.
    public func reserve(_ count: Int) {
        let needed = Swift.min(capacity, filled + count)
        guard needed > populatedEnd else { return }
        let end = Swift.min(capacity, Swift.max(needed, populatedEnd + Self.populateStep))
        LargeAllocation.populate(
            UnsafeMutableRawBufferPointer(
                start: base + populatedEnd, count: (end - populatedEnd) * MemoryLayout<Point>.stride))
        populatedEnd = end
    }

    private static let populateStep = LargeAllocation.threshold / MemoryLayout<Point>.stride

    deinit { base.deallocate() }

    /// Room left.
    @inlinable public var free: Int { capacity - count }

    /// Writes `point` after the last position. The caller checks ``free`` first.
    @inlinable @inline(__always)
    public func append(_ point: Point) {
        precondition(filled < capacity, "PointArena is full")
        (base + filled).initialize(to: point)
        filled += 1
    }

    /// Says the filling is over (see ``LargeAllocation/settle(_:)``).
    public func settle() {
        LargeAllocation.settle(UnsafeMutableRawBufferPointer(start: base, count: capacity * MemoryLayout<Point>.stride))
    }

    /// The written positions `range` as a ring's positions.
    public func points(_ range: Range<Int>) -> RingPoints {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "positions not written yet")
        return RingPoints(buffer: self, start: range.lowerBound, count: range.count)
    }

    /// The written positions, for a reader that owns no ring (an index over the whole buffer).
    @usableFromInline var written: UnsafeMutableBufferPointer<Point> {
        UnsafeMutableBufferPointer(start: base, count: count)
    }
}
