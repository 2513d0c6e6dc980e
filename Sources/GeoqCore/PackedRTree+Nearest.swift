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
    ///     Items at equal distance come in increasing index order.
    public func nearest(
        boxDistance: (BoundingBox) -> Double,
        itemDistance: (Int) -> Double,
        _ body: (_ item: Int, _ distance: Double) -> Bool
    ) {
        guard let root = boxes.indices.last else { return }
        // Queue entries: (distance, kind, reference). kind 0 = exact item, 1 = item whose exact
        // distance is not known yet, 2 + level = node. Exact items sort before bounds at equal
        // distance, and items by index, so ties come out in a stable order.
        var queue = MinHeap<QueueEntry>()
        let topLevel = levelEnds.count - 1
        if topLevel == 0 {
            queue.push(
                QueueEntry(distance: boxDistance(Self.decode(boxes[root])), kind: 1, reference: Int(children[root])))
        } else {
            queue.push(QueueEntry(distance: boxDistance(Self.decode(boxes[root])), kind: 2 + topLevel, reference: root))
        }
        while let next = queue.pop() {
            switch next.kind {
            case 0:
                if !body(next.reference, next.distance) { return }
            case 1:
                let d = itemDistance(next.reference)
                queue.push(QueueEntry(distance: d, kind: 0, reference: next.reference))
            default:
                let level = next.kind - 2
                let first = Int(children[next.reference])
                let end = Swift.min(first + nodeSize, levelEnds[level - 1])
                for child in first..<end {
                    let d = boxDistance(Self.decode(boxes[child]))
                    if level == 1 {
                        queue.push(QueueEntry(distance: d, kind: 1, reference: Int(children[child])))
                    } else {
                        queue.push(QueueEntry(distance: d, kind: 2 + level - 1, reference: child))
                    }
                }
            }
        }
    }

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
