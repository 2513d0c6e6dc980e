extension PackedRTree {
    /// Visits items in increasing order of `itemDistance`, best first (Hjaltason and Samet,
    /// "Distance Browsing in Spatial Databases", 1999).
    ///
    /// - Parameters:
    ///   - boxDistance: a lower bound of `itemDistance` for every item inside a box (for
    ///     example the distance from the query point to the box). It must never exceed the
    ///     true distance of an item in the box, or the order is wrong.
    ///   - itemDistance: the exact distance of an item; called at most once per item, and
    ///     only for items whose box could still hold the next nearest.
    ///   - body: receives each item and its distance, nearest first; return `false` to stop.
    ///     Items at equal distance whose exact distances are known by then come in increasing
    ///     index order; an item still inside an unopened box at that same distance may come
    ///     later (``nearestItem(boxDistance:itemDistance:within:)`` settles such ties).
    public func nearest(
        boxDistance: (BoundingBox) -> Double,
        itemDistance: (Int) -> Double,
        _ body: (_ item: Int, _ distance: Double) -> Bool
    ) {
        guard let root = rootEntry(boxDistance) else { return }
        var queue = MinHeap<QueueEntry>()
        queue.push(root)
        while let next = queue.pop() {
            switch next.kind {
            case 0:
                if !body(next.reference, next.distance) { return }
            case 1:
                let d = itemDistance(next.reference)
                queue.push(QueueEntry(distance: d, kind: 0, reference: next.reference))
            default:
                forEachChild(of: next, boxDistance) { queue.push($0) }
            }
        }
    }

    /// The item nearest by `itemDistance` among those at most `maxDistance` away; of several
    /// at that same smallest distance, the lowest index. Nil when no item is that close.
    ///
    /// Unlike ``nearest(boxDistance:itemDistance:_:)``, whose order among equal distances
    /// depends on which entries the queue held, this answer is what a linear scan keeping the
    /// first strictly smaller distance returns: the search goes on while the queue still holds
    /// entries no farther than the best item, and boxes beyond `maxDistance` are never opened.
    /// `boxDistance` and `itemDistance` are as for ``nearest(boxDistance:itemDistance:_:)``.
    func nearestItem(
        boxDistance: (BoundingBox) -> Double,
        itemDistance: (Int) -> Double,
        within maxDistance: Double
    ) -> (item: Int, distance: Double)? {
        guard let root = rootEntry(boxDistance) else { return nil }
        var queue = MinHeap<QueueEntry>()
        func push(_ entry: QueueEntry) {
            if entry.distance <= maxDistance { queue.push(entry) }
        }
        push(root)
        var best: (item: Int, distance: Double)?
        while let top = queue.min, top.distance <= best?.distance ?? .infinity {
            let next = queue.pop()!
            switch next.kind {
            case 0:
                if let b = best, b.distance == next.distance, b.item < next.reference { continue }
                best = (next.reference, next.distance)
            case 1:
                push(QueueEntry(distance: itemDistance(next.reference), kind: 0, reference: next.reference))
            default:
                forEachChild(of: next, boxDistance, push)
            }
        }
        return best
    }

    /// The root's queue entry (an item when the tree is one leaf), or nil for an empty tree.
    @inline(__always)
    private func rootEntry(_ boxDistance: (BoundingBox) -> Double) -> QueueEntry? {
        guard let root = boxes.indices.last else { return nil }
        let topLevel = levelEnds.count - 1
        let distance = boxDistance(Self.decode(boxes[root]))
        return topLevel == 0
            ? QueueEntry(distance: distance, kind: 1, reference: Int(children[root]))
            : QueueEntry(distance: distance, kind: 2 + topLevel, reference: root)
    }

    /// The queue entries of a node's children: items not measured yet below a level-1 node, nodes
    /// above.
    @inline(__always)
    private func forEachChild(
        of node: QueueEntry, _ boxDistance: (BoundingBox) -> Double, _ push: (QueueEntry) -> Void
    ) {
        let level = node.kind - 2
        let first = Int(children[node.reference])
        let end = Swift.min(first + nodeSize, levelEnds[level - 1])
        for child in first..<end {
            let d = boxDistance(Self.decode(boxes[child]))
            push(
                level == 1
                    ? QueueEntry(distance: d, kind: 1, reference: Int(children[child]))
                    : QueueEntry(distance: d, kind: 2 + level - 1, reference: child))
        }
    }

    /// A search queue entry: (distance, kind, reference). kind 0 = an item whose exact distance is
    /// known, 1 = an item whose exact distance is not known yet, 2 + level = a node. Exact items
    /// sort before bounds at equal distance, and items by index, so ties come out in a stable
    /// order.
    struct QueueEntry: Comparable {
        var distance: Double
        var kind: Int
        var reference: Int

        static func < (a: QueueEntry, b: QueueEntry) -> Bool {
            if a.distance != b.distance { return a.distance < b.distance }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.reference < b.reference
        }
    }
}
