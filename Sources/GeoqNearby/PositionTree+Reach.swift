/// The nearest-k search of ``PositionTree``: the points that can be among the k nearest, found
/// by chords alone, and the two small containers it keeps as it goes.
extension PositionTree {
    /// A point the search found within reach: its squared chord from the query (square metres)
    /// and its tree position.
    struct Reached {
        var squaredChord: Double
        var position: Int32
    }

    /// One entry of the search queue: a box of the tree and its squared-chord bound.
    struct QueueEntry {
        var key: Double
        var level: Int32
        var entry: Int32
    }

    /// Every point for which `include` (given the caller's index) is true whose chord from
    /// `query` is within the reach, sorted by chord: enough to find the `limit` geodesically
    /// nearest.
    ///
    /// The reach starts at `reach` metres. Once `limit` points are found, the `limit`-th
    /// shortest chord c_k lowers it to `ChordBound.longestGeodesic(c_k) + margin`: k points
    /// are at most that far, so a point with a longer chord (a lower bound of its geodesic) is
    /// farther than k others. Points whose chord exceeds the final reach are dropped.
    ///
    /// Search: best first by chord over boxes and points (Hjaltason and Samet, "Distance
    /// Browsing in Spatial Databases", 1999); stops when the nearest box left is beyond reach.
    func pointsWithinReach(
        of query: EllipsoidPosition, limit: Int, reach: Double, margin: Double, where include: (Int) -> Bool
    ) -> [Reached] {
        guard count > 0 else { return [] }
        let q = query * SIMD4(1, 1, 1, 0)
        var found = ReachList(limit: limit, reach: reach, margin: margin, capacity: Swift.min(limit, count) + 16)
        if rootLevel == 0 {
            found.offer(
                squaredChord: Self.squaredChord(q, positions[0]), position: 0, include: include,
                item: Int(positions[0].w))
            return found.sorted
        }
        var queue = SearchQueue(capacity: 64)
        queue.push(
            QueueEntry(key: squaredDistance(from: q, level: rootLevel, entry: 0), level: Int32(rootLevel), entry: 0))
        while let next = queue.pop(), next.key <= found.squaredReach {
            let level = Int(next.level)
            let first = Int(next.entry) * Self.nodeSize
            let end = Swift.min(first + Self.nodeSize, levelCounts[level - 1])
            if level == 1 {
                for j in first..<end {
                    let position = positions[j]
                    let c2 = Self.squaredChord(q, position)
                    if c2 <= found.squaredReach {
                        found.offer(squaredChord: c2, position: j, include: include, item: Int(position.w))
                    }
                }
            } else {
                let keys = squaredDistances(from: q, level: level - 1, group: Int(next.entry))
                for child in first..<end {
                    let lane = child - first
                    let key = lane < 4 ? keys.low[lane] : keys.high[lane - 4]
                    if key <= found.squaredReach {
                        queue.push(QueueEntry(key: key, level: Int32(level - 1), entry: Int32(child)))
                        prefetch(level: level - 1, entry: child)
                    }
                }
            }
        }
        return found.sorted
    }

    /// The squared straight-line distance between two positions (w ignored), square metres.
    @inline(__always)
    static func squaredChord(_ q: EllipsoidPosition, _ p: EllipsoidPosition) -> Double {
        let d = (p - q) * SIMD4(1, 1, 1, 0)
        return (d * d).sum()
    }

    /// The points found so far within reach, sorted by chord, and the reach itself: what
    /// ``pointsWithinReach(of:limit:reach:margin:where:)`` keeps between steps, in storage it
    /// owns (no uniqueness checks in the search's inner loop).
    ///
    /// Invariant: `entries[0 ..< count]` are sorted by squared chord, all at most
    /// `squaredReach`; once `count ≥ limit`, `reach` is at most
    /// `ChordBound.longestGeodesic(c_k) + margin` for the `limit`-th chord c_k.
    struct ReachList: ~Copyable {
        let limit: Int
        let margin: Double
        private(set) var reach: Double
        private(set) var squaredReach: Double
        private var entries: UnsafeMutablePointer<Reached>
        private var capacity: Int
        private var count = 0

        init(limit: Int, reach: Double, margin: Double, capacity: Int) {
            self.limit = limit
            self.margin = margin
            self.reach = reach
            squaredReach = reach * reach
            self.capacity = Swift.max(capacity, 1)
            entries = .allocate(capacity: self.capacity)
        }

        deinit { entries.deallocate() }

        /// The entries, shortest chord first.
        var sorted: [Reached] { Array(UnsafeBufferPointer(start: entries, count: count)) }

        /// Adds the point at tree `position` (the caller's `item`), whose squared chord is at
        /// most `squaredReach`, if `include` accepts it; lowers the reach once `limit` are held.
        @inline(__always)
        mutating func offer(squaredChord c2: Double, position: Int, include: (Int) -> Bool, item: Int) {
            guard include(item) else { return }
            if count == capacity { grow() }
            // Shift the longer chords up by one (a handful at most).
            var at = count
            while at > 0 && entries[at - 1].squaredChord > c2 {
                entries[at] = entries[at - 1]
                at -= 1
            }
            entries[at] = Reached(squaredChord: c2, position: Int32(position))
            count += 1
            // The k-th chord changes only when the new one lands among the first k (the bound
            // costs an asin beyond 634 km).
            guard count >= limit, at < limit else { return }
            let kth = ChordBound.longestGeodesic(chord: entries[limit - 1].squaredChord.squareRoot()) + margin
            guard kth < reach else { return }
            reach = kth
            squaredReach = kth * kth
            while count > limit && entries[count - 1].squaredChord > squaredReach { count -= 1 }
        }

        private mutating func grow() {
            let larger = UnsafeMutablePointer<Reached>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = larger
            capacity *= 2
        }
    }
}

/// The best-first search's queue: a binary min-heap of ``PositionTree/QueueEntry`` by key in
/// storage it owns, so that a push or a pop is a few moves with no uniqueness check or bounds
/// check (a `MinHeap` over an `Array` pays two runtime calls per push: an eighth of a query's instructions).
///
/// Invariant: `storage[0 ..< count]` is a heap (no entry's key below its parent's); `capacity`
/// slots are allocated.
struct SearchQueue: ~Copyable {
    private var storage: UnsafeMutablePointer<PositionTree.QueueEntry>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    mutating func push(_ entry: PositionTree.QueueEntry) {
        if count == capacity { grow() }
        // Sift up by moving parents down into the hole, then drop the entry in.
        var child = count
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.key < storage[parent].key else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = entry
        count += 1
    }

    /// Removes and returns the entry with the smallest key, or nil when empty.
    mutating func pop() -> PositionTree.QueueEntry? {
        guard count > 0 else { return nil }
        let top = storage[0]
        count -= 1
        let last = storage[count]
        // Sift `last` down from the root through the hole left by `top`.
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let smaller = right < count && storage[right].key < storage[left].key ? right : left
            guard storage[smaller].key < last.key else { break }
            storage[parent] = storage[smaller]
            parent = smaller
        }
        storage[parent] = last
        return top
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<PositionTree.QueueEntry>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
