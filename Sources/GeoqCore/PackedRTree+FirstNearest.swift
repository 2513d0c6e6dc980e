extension PackedRTree {
    /// Entries the queue of ``firstNearest(boxDistance:itemDistance:within:)`` holds on the
    /// stack (16 bytes each). Best-first searches over city layers keep a few dozen.
    static let stackQueueCapacity = 256

    /// What ``firstNearest(boxDistance:itemDistance:within:)`` found.
    enum FirstNearest {
        /// The first item ``nearest(boxDistance:itemDistance:_:)`` would report, and its distance.
        case item(Int, distance: Double)
        /// No item within the limit (or none at all).
        case none
        /// The queue outgrew its stack room: ask ``nearest(boxDistance:itemDistance:_:)``.
        case queueFull
    }

    /// The first item of ``nearest(boxDistance:itemDistance:_:)``, by the same search in the
    /// same order (so the same item on ties), without allocating: the queue lives on the stack.
    /// Entries farther than `limit()` when they would enter the queue are dropped, which
    /// cannot change the first item as long as it is within every limit given; so `limit` may
    /// shrink during the search, for example to the smallest item distance measured so far,
    /// and `itemDistance` may return any value above the current limit for an item it knows to
    /// be farther.
    ///
    /// Item and node indexes must fit in 32 bits (``children`` holds them as `Int32` already).
    @inline(__always)
    func firstNearest(
        boxDistance: (BoundingBox) -> Double,
        itemDistance: (Int) -> Double,
        within limit: () -> Double
    ) -> FirstNearest {
        guard let root = boxes.indices.last else { return .none }
        let topLevel = levelEnds.count - 1
        let rootDistance = boxDistance(Self.decode(boxes[root]))
        guard rootDistance <= limit() else { return .none }
        return withUnsafeTemporaryAllocation(of: StackQueueEntry.self, capacity: Self.stackQueueCapacity) {
            buffer -> FirstNearest in
            var queue = StackQueue(buffer)
            _ = queue.push(
                topLevel == 0
                    ? StackQueueEntry(distance: rootDistance, kind: 1, reference: children[root])
                    : StackQueueEntry(distance: rootDistance, kind: Int32(2 + topLevel), reference: Int32(root)))
            while let next = queue.pop() {
                switch next.kind {
                case 0:
                    return .item(Int(next.reference), distance: next.distance)
                case 1:
                    let d = itemDistance(Int(next.reference))
                    if d <= limit() {
                        guard queue.push(StackQueueEntry(distance: d, kind: 0, reference: next.reference)) else {
                            return .queueFull
                        }
                    }
                default:
                    let level = Int(next.kind) - 2
                    let first = Int(children[Int(next.reference)])
                    let end = Swift.min(first + nodeSize, levelEnds[level - 1])
                    let maxDistance = limit()
                    for child in first..<end {
                        let d = boxDistance(Self.decode(boxes[child]))
                        guard d <= maxDistance else { continue }
                        let entry =
                            level == 1
                            ? StackQueueEntry(distance: d, kind: 1, reference: children[child])
                            : StackQueueEntry(distance: d, kind: Int32(2 + level - 1), reference: Int32(child))
                        guard queue.push(entry) else { return .queueFull }
                    }
                }
            }
            return .none
        }
    }
}

extension PackedRTree {
    /// The item of smallest `segmentDistance` (of several at exactly that distance, the lowest
    /// index), at most `maxDistance`: best first over the nodes, with only nodes in the queue
    /// (on the stack); a leaf's items are measured in place when their box is no farther than
    /// the best so far. `boxDistance` must bound `segmentDistance` from below for every item in
    /// the box (squared distances serve as well as distances).
    ///
    /// `boxUpperBound`, when it is not infinite, bounds from above the distance of the nearest
    /// item in a node's box (for example ``LocalMetric/farEndOfNearestSide(_:_:)``'s square for
    /// segments, which touch every side of their node's box): boxes and items beyond the
    /// smallest such bound are never opened, before any item is measured.
    @inline(__always)
    func nearestSegment(
        boxDistance: (BoundingBox) -> Double,
        boxUpperBound: (BoundingBox) -> Double,
        segmentDistance: (Int) -> Double,
        within maxDistance: Double
    ) -> FirstNearest {
        guard let root = boxes.indices.last else { return .none }
        var best = (item: -1, distance: maxDistance)
        if levelEnds.count == 1 {
            let item = Int(children[root])
            let d = segmentDistance(item)
            return d <= maxDistance ? .item(item, distance: d) : .none
        }
        let rootDistance = boxDistance(Self.decode(boxes[root]))
        guard rootDistance <= maxDistance else { return .none }
        let full = withUnsafeTemporaryAllocation(of: StackQueueEntry.self, capacity: Self.stackQueueCapacity) {
            buffer -> Bool in
            var queue = StackQueue(buffer)
            _ = queue.push(
                StackQueueEntry(distance: rootDistance, kind: Int32(levelEnds.count - 1), reference: Int32(root)))
            while let next = queue.pop(), next.distance <= best.distance {
                let level = Int(next.kind)
                let first = Int(children[Int(next.reference)])
                let end = Swift.min(first + nodeSize, levelEnds[level - 1])
                for child in first..<end {
                    let d = boxDistance(Self.decode(boxes[child]))
                    guard d <= best.distance else { continue }
                    if level == 1 {
                        let item = Int(children[child])
                        let exact = segmentDistance(item)
                        if exact < best.distance || (exact == best.distance && (best.item < 0 || item < best.item)) {
                            best = (item, exact)
                        }
                    } else {
                        let entry = StackQueueEntry(distance: d, kind: Int32(level - 1), reference: Int32(child))
                        guard queue.push(entry) else { return true }
                        let upper = boxUpperBound(Self.decode(boxes[child]))
                        if best.item < 0 && upper < best.distance { best.distance = upper }
                    }
                }
            }
            return false
        }
        if full { return .queueFull }
        return best.item < 0 ? .none : .item(best.item, distance: best.distance)
    }
}

/// ``PackedRTree/QueueEntry`` in 16 bytes, ordered the same way: distance, then kind (known
/// items, unknown items, nodes), then reference.
struct StackQueueEntry {
    var distance: Double
    var kind: Int32
    var reference: Int32

    @inline(__always)
    static func < (a: Self, b: Self) -> Bool {
        if a.distance != b.distance { return a.distance < b.distance }
        if a.kind != b.kind { return a.kind < b.kind }
        return a.reference < b.reference
    }
}

/// A binary min-heap in a buffer the caller owns (see ``MinHeap`` for the invariant); push
/// refuses an entry when the buffer is full.
struct StackQueue {
    let heap: UnsafeMutableBufferPointer<StackQueueEntry>
    var count = 0

    init(_ heap: UnsafeMutableBufferPointer<StackQueueEntry>) { self.heap = heap }

    @inline(__always)
    mutating func push(_ element: StackQueueEntry) -> Bool {
        guard count < heap.count else { return false }
        HeapSift.up(element, from: count, in: heap.baseAddress!, by: <)
        count += 1
        return true
    }

    @inline(__always)
    mutating func pop() -> StackQueueEntry? {
        guard count > 0 else { return nil }
        let top = heap[0]
        count -= 1
        guard count > 0 else { return top }
        HeapSift.down(heap[count], in: heap.baseAddress!, count: count, by: <)
        return top
    }
}
