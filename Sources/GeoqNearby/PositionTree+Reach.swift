import GeoqCore

/// The nearest-k search of ``PositionTree``: the points that can be among the k nearest, found
/// by chords alone, and the small containers it keeps as it goes.
extension PositionTree {
    /// A point the search found within reach: its squared chord from the query (square metres)
    /// and its tree position.
    struct Reached {
        var squaredChord: Double
        var position: Int32
        /// The caller's index of the point.
        var item: Int32
    }

    /// One entry of the search queue: a sibling group (its slot in ``SiblingGroups``) keyed
    /// by the squared-chord bound of its nearest child not yet taken.
    struct QueueEntry {
        var key: Double
        var slot: Int32
    }

    /// Calls `body` with every point for which `include` (given the caller's index) is true
    /// whose chord from `query` is within the reach, sorted by chord: enough to find the
    /// `limit` geodesically nearest. (A buffer lent for the call: no array is made.)
    ///
    /// The reach starts at `reach` metres. Once `limit` points are found, the `limit`-th
    /// shortest chord c_k lowers it to `ChordBound.longestGeodesic(c_k) + margin`: k points
    /// are at most that far, so a point with a longer chord (a lower bound of its geodesic) is
    /// farther than k others. Points whose chord exceeds the final reach are dropped.
    ///
    /// Search: best first by chord over boxes and points (Hjaltason and Samet, "Distance
    /// Browsing in Spatial Databases", 1999); stops when the nearest box left is beyond reach.
    /// The queue holds sibling groups rather than boxes (see ``SiblingGroup``); the boxes come
    /// out in the same order.
    func pointsWithinReach(
        of query: EllipsoidPosition, limit: Int, reach: Double, margin: Double, where include: (Int) -> Bool,
        _ body: (UnsafeBufferPointer<Reached>) -> Void
    ) {
        guard count > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let q = query * SIMD4(1, 1, 1, 0)
        var found = ReachList(limit: limit, reach: reach, margin: margin, capacity: Swift.min(limit, count) + 32)
        // A leaf's eight chords at once; NaN lanes (past the last point) are within no reach.
        let qx = SIMD8(repeating: q.x), qy = SIMD8(repeating: q.y), qz = SIMD8(repeating: q.z)
        func scan(leaf: Int) {
            let chords = leafRows.withUnsafeBufferPointer { rows in
                let row = rows.baseAddress! + 3 * leaf
                let dx = row[0] - qx, dy = row[1] - qy, dz = row[2] - qz
                return dx * dx + dy * dy + dz * dz
            }
            let first = leaf * Self.nodeSize
            found.makeRoom(for: Self.nodeSize)
            items.withUnsafeBufferPointer { items in
                for lane in 0..<Swift.min(Self.nodeSize, count - first) {
                    found.consider(
                        squaredChord: chords[lane], position: first + lane, item: items[first + lane])
                }
            }
            found.admit(include)
        }
        if rootLevel <= 1 {
            scan(leaf: 0)
            return body(found.sortKept())
        }
        // The queue holds sibling groups, each keyed by its nearest child not yet taken: a
        // group goes back in with its next child's key when one is taken, so an expansion
        // costs one push rather than one per child (most children are never taken).
        var groups = SiblingGroups(capacity: 32)
        var queue = SearchQueue(capacity: 32)
        func open(level: Int, entry: Int) {
            let halves = squaredDistances(from: q, level: level - 1, group: entry)
            let keys = SIMD8<Double>(lowHalf: halves.low, highHalf: halves.high)
            let nearest = Self.smallest(keys)
            guard nearest <= found.squaredReach && nearest < .infinity else { return }
            let first = entry * Self.nodeSize
            // Every child, within reach or not: a test per child is a branch the keys decide,
            // which costs more than the few needless fetches.
            for lane in 0..<(Swift.min(first + Self.nodeSize, levelCounts[level - 1]) - first) {
                prefetch(level: level - 1, entry: first + lane)
            }
            let slot = groups.append(SiblingGroup(keys: keys, level: Int32(level - 1), first: Int32(first)))
            queue.push(QueueEntry(key: nearest, slot: Int32(slot)))
        }
        open(level: rootLevel, entry: 0)
        while let next = queue.pop(), next.key <= found.squaredReach {
            let slot = Int(next.slot)
            let (lane, following) = groups.take(slot, key: next.key)
            // Taken children and lanes past the end are infinite, and so may the reach be.
            if following <= found.squaredReach && following < .infinity {
                queue.push(QueueEntry(key: following, slot: Int32(slot)))
            }
            let level = Int(groups[slot].level)
            let entry = Int(groups[slot].first) + lane
            if level == 1 {
                scan(leaf: entry)
            } else {
                open(level: level, entry: entry)
            }
        }
        body(found.sortKept())
    }

    /// The smallest of eight keys, by a tree of minimums: the standard library's `min()` is a
    /// call and a loop whose branches the data decide.
    @inline(__always)
    static func smallest(_ k: SIMD8<Double>) -> Double {
        Swift.min(
            Swift.min(Swift.min(k[0], k[4]), Swift.min(k[1], k[5])),
            Swift.min(Swift.min(k[2], k[6]), Swift.min(k[3], k[7])))
    }

    /// The points found so far within reach, and the reach itself: what
    /// ``pointsWithinReach(of:limit:reach:margin:where:)`` keeps between steps, in storage it
    /// owns (no uniqueness checks in the search's inner loop).
    ///
    /// Written so that the data decide as few branches as possible (mispredictions, not
    /// arithmetic, are what a query in a new place pays most for): a leaf's points are written
    /// in turn and kept by advancing the count by the comparison with the reach; the `limit`
    /// smallest chords are kept sorted by a fixed sequence of minimums and maximums; the reach
    /// is lowered once per leaf, from the `limit`-th of them. Points that a lower reach would
    /// have turned away are dropped at the end.
    ///
    /// Invariant: `entries[0 ..< count]` are included points (those from `admitted` on not yet
    /// asked), each with a squared chord at most the squared reach of when it came;
    /// `smallest[0 ..< limit]` holds the `limit` smallest squared chords of the admitted points,
    /// ascending, infinity where fewer; once `limit` are admitted, `reach` is at most
    /// `ChordBound.longestGeodesic(c_k) + margin` for the `limit`-th chord c_k.
    struct ReachList: ~Copyable {
        let limit: Int
        let margin: Double
        private(set) var reach: Double
        private(set) var squaredReach: Double
        private var entries: UnsafeMutablePointer<Reached>
        private var capacity: Int
        private var count = 0
        private var admitted = 0
        private var smallest: UnsafeMutablePointer<Double>

        init(limit: Int, reach: Double, margin: Double, capacity: Int) {
            self.limit = limit
            self.margin = margin
            self.reach = reach
            squaredReach = reach * reach
            self.capacity = Swift.max(capacity, 16)
            entries = .allocate(capacity: self.capacity)
            smallest = .allocate(capacity: limit)
            smallest.initialize(repeating: .infinity, count: limit)
        }

        deinit {
            entries.deallocate()
            smallest.deallocate()
        }

        /// Drops the entries beyond the final reach and sorts the others, shortest chord first;
        /// returns them (valid while the list lives and is not changed).
        mutating func sortKept() -> UnsafeBufferPointer<Reached> {
            var kept = 0
            for i in 0..<count {
                entries[kept] = entries[i]
                kept &+= Int(unsafeBitCast(entries[i].squaredChord <= squaredReach, to: UInt8.self))
            }
            count = kept
            admitted = kept
            if kept <= Self.longestRanked {
                Self.sortByRank(entries, count: kept)
            } else {
                Self.insertionSort(entries, count: kept)
            }
            return UnsafeBufferPointer(start: entries, count: kept)
        }

        /// The most entries sorted by rank: beyond, the rank's n² comparisons cost more than
        /// insertion sort's mispredicted branches.
        static let longestRanked = 24

        /// Sorts by chord by counting, for each entry, the entries that go before it, and
        /// moving it there: n² comparisons, none of them a branch. An insertion sort of the
        /// ten or so points a query keeps (in the order the leaves gave them) exits its inner
        /// loop at a place the chords decide, a misprediction per entry.
        @inline(__always)
        static func sortByRank(_ entries: UnsafeMutablePointer<Reached>, count n: Int) {
            withUnsafeTemporaryAllocation(of: Reached.self, capacity: n) { copy in
                guard let from = copy.baseAddress else { return }
                from.initialize(from: entries, count: n)
                for i in 0..<n {
                    let key = from[i].squaredChord
                    var rank = 0
                    // Entries before i with the same chord go first too, so that no two
                    // entries get the same rank.
                    for j in 0..<i { rank &+= Int(unsafeBitCast(from[j].squaredChord <= key, to: UInt8.self)) }
                    for j in (i + 1)..<n { rank &+= Int(unsafeBitCast(from[j].squaredChord < key, to: UInt8.self)) }
                    entries[rank] = from[i]
                }
            }
        }

        static func insertionSort(_ entries: UnsafeMutablePointer<Reached>, count n: Int) {
            for i in Swift.min(1, n)..<n {
                let moving = entries[i]
                var at = i
                while at > 0 && entries[at - 1].squaredChord > moving.squaredChord {
                    entries[at] = entries[at - 1]
                    at -= 1
                }
                entries[at] = moving
            }
        }

        /// Makes sure `n` more points can be considered.
        @inline(__always)
        mutating func makeRoom(for n: Int) {
            if count + n > capacity { grow() }
        }

        /// Writes the point at tree `position` (the caller's `item`) after the others, and keeps
        /// it when its squared chord is within the squared reach (room made beforehand).
        @inline(__always)
        mutating func consider(squaredChord c2: Double, position: Int, item: Int32) {
            // Tree positions fit in 32 bits: the tree's items do.
            entries[count] = Reached(squaredChord: c2, position: Int32(truncatingIfNeeded: position), item: item)
            // The comparison's byte (0 or 1) added as a number: written `? 1 : 0`, it was
            // compiled to a branch, which the chords decide.
            count &+= Int(unsafeBitCast(c2 <= squaredReach, to: UInt8.self))
        }

        /// Asks `include` about the points kept since the last call, drops those it refuses,
        /// counts the others among the smallest chords, then lowers the reach if it can.
        @inline(__always)
        mutating func admit(_ include: (Int) -> Bool) {
            var i = admitted
            while i < count {
                guard include(Int(entries[i].item)) else {
                    count -= 1
                    entries[i] = entries[count]
                    continue
                }
                insertAmongSmallest(entries[i].squaredChord)
                i += 1
            }
            admitted = count
            let kth = smallest[limit - 1]
            guard kth < .infinity else { return }
            let lowered = ChordBound.longestGeodesic(chord: kth.squareRoot()) + margin
            reach = Swift.min(reach, lowered)
            squaredReach = reach * reach
        }

        /// Inserts `c2` into the sorted `smallest`, the largest falling off: entry i becomes
        /// max(old i − 1, min(old i, c2)), the same for every chord (for a chord at least the
        /// largest nothing changes), so no branch depends on it. For long lists, only the
        /// chords that belong there do the work.
        @inline(__always)
        private mutating func insertAmongSmallest(_ c2: Double) {
            if limit > 16 {
                guard c2 < smallest[limit - 1] else { return }
                var at = limit - 1
                while at > 0 && smallest[at - 1] > c2 {
                    smallest[at] = smallest[at - 1]
                    at -= 1
                }
                smallest[at] = c2
                return
            }
            var previous = -Double.infinity
            for i in 0..<limit {
                let old = smallest[i]
                smallest[i] = Swift.max(previous, Swift.min(old, c2))
                previous = old
            }
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

/// The best-first search's queue of ``PositionTree/QueueEntry`` by key, in storage it owns (no
/// uniqueness or bounds checks: a `MinHeap` over an `Array` pays two runtime calls per push).
///
/// Short, it is an unordered list: a push appends, a pop scans every key for the smallest by
/// conditional moves. A query near a city keeps about ten entries, and a binary heap's sift
/// steps branch on the keys, which a new query's keys mispredict; the scan's cost is only its
/// length. Past ``listLength`` entries (wide searches: many hits, a large radius) the list is
/// made a binary min-heap once, for the rest of the search, so no search pays the list's
/// quadratic cost.
///
/// Invariant: `storage[0 ..< count]` are the entries, in any order while `isHeap` is false,
/// a heap (no entry's key below its parent's) once it is true; `capacity` slots are allocated.
struct SearchQueue: ~Copyable {
    /// The most entries kept as a list.
    static let listLength = 32

    private var storage: UnsafeMutablePointer<PositionTree.QueueEntry>
    private var capacity: Int
    private(set) var count = 0
    private(set) var isHeap = false

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    mutating func push(_ entry: PositionTree.QueueEntry) {
        if count == capacity { grow() }
        if isHeap {
            siftUp(entry, from: count)
            count += 1
            return
        }
        storage[count] = entry
        count += 1
        if count > Self.listLength { makeHeap() }
    }

    /// Removes and returns the entry with the smallest key, or nil when empty.
    @inline(__always)
    mutating func pop() -> PositionTree.QueueEntry? {
        guard count > 0 else { return nil }
        if isHeap { return popHeap() }
        var best = storage[0].key
        var at = 0
        for i in 1..<count {
            let key = storage[i].key
            let less = key < best
            best = less ? key : best
            at = less ? i : at
        }
        let top = storage[at]
        count -= 1
        storage[at] = storage[count]
        return top
    }

    /// Puts `entry` at `child` or above it, moving parents with larger keys down.
    private mutating func siftUp(_ entry: PositionTree.QueueEntry, from child: Int) {
        HeapSift.up(entry, from: child, in: storage) { $0.key < $1.key }
    }

    private mutating func makeHeap() {
        for i in 1..<count { siftUp(storage[i], from: i) }
        isHeap = true
    }

    private mutating func popHeap() -> PositionTree.QueueEntry {
        let top = storage[0]
        count -= 1
        // The last entry goes down from the root through the hole left by `top`.
        HeapSift.down(storage[count], in: storage, count: count) { $0.key < $1.key }
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

/// One sibling group in the search: the squared-chord keys of up to eight children (lanes
/// past the end of the level, and children already taken, infinite), their level and the
/// entry number of lane 0.
struct SiblingGroup {
    var keys: SIMD8<Double>
    var level: Int32
    var first: Int32
}

/// The search's sibling groups, in storage it owns (no uniqueness checks in the inner loop).
struct SiblingGroups: ~Copyable {
    private var storage: UnsafeMutablePointer<SiblingGroup>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    subscript(slot: Int) -> SiblingGroup { storage[slot] }

    /// Adds `group`; returns its slot.
    @inline(__always)
    mutating func append(_ group: SiblingGroup) -> Int {
        if count == capacity {
            let larger = UnsafeMutablePointer<SiblingGroup>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        storage[count] = group
        count += 1
        return count - 1
    }

    /// Takes the child of group `slot` whose key is `key`, the group's smallest (the first
    /// such lane): marks it taken, and returns its lane and the group's next smallest key.
    ///
    /// The next smallest is the second smallest of the keys read before the mark (a network
    /// of minimums and maximums): reading the keys again right after writing one lane would
    /// wait for the write, the wider reads unable to take their data from the narrower store.
    @inline(__always)
    mutating func take(_ slot: Int, key: Double) -> (lane: Int, following: Double) {
        let k = storage[slot].keys
        // The first lane with the key, by conditional moves: a loop that stops at it would
        // stop at a place the keys decide, a misprediction for most takes.
        var lane = 7
        for i in stride(from: 6, through: 0, by: -1) { lane = k[i] == key ? i : lane }
        storage[slot].keys[lane] = .infinity
        @inline(__always)
        func merge(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
            (Swift.min(a.0, b.0), Swift.min(Swift.max(a.0, b.0), Swift.min(a.1, b.1)))
        }
        let pairs = (
            (Swift.min(k[0], k[4]), Swift.max(k[0], k[4])), (Swift.min(k[1], k[5]), Swift.max(k[1], k[5])),
            (Swift.min(k[2], k[6]), Swift.max(k[2], k[6])), (Swift.min(k[3], k[7]), Swift.max(k[3], k[7]))
        )
        let two = merge(merge(pairs.0, pairs.1), merge(pairs.2, pairs.3))
        return (lane, two.1)
    }
}
