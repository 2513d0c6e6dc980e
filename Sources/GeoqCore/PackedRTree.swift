/// A static R-tree bulk-loaded by Sort-Tile-Recursive (Leutenegger, Lopez and Edgington,
/// "STR: A Simple and Efficient Algorithm for R-Tree Packing", 1997).
///
/// Contract: build once from all boxes, then query; the tree never changes (like GEOS's
/// STRtree, but without its "first query builds" surprise). Items are identified by their
/// position in the array given to ``init(boxes:nodeSize:)``.
///
/// Layout (as in flatbush): one flat array of node boxes, level by level from the leaves
/// (the items themselves, reordered) up to the root, which is the last entry. Each entry of
/// level L > 0 covers `nodeSize` consecutive entries of level L - 1 (fewer for the last one
/// of a level); `children[i]` is the first of them, and for a leaf entry the item's index.
/// Queries walk down with an explicit stack, so they never recurse and never allocate beyond
/// that small stack.
///
/// Complexity: build O(n log n); a point or box query O(log n + k) on well-distributed data.
public struct PackedRTree: Sendable {
    /// Maximum children per node.
    public let nodeSize: Int
    /// Number of items indexed.
    public let count: Int
    /// Entry boxes as (minX, minY, -maxX, -maxY): a box meets a query box q exactly when
    /// `all(box .<= (q.maxX, q.maxY, -q.minX, -q.minY))`, one vector comparison and no
    /// unpredictable branches (a point is the query box of zero size).
    @usableFromInline let boxes: IndexArray<SIMD4<Double>>
    /// For leaf entries the item index; for inner entries the index of the first child.
    @usableFromInline let children: IndexArray<Int32>
    /// `levelEnds[L]` is one past the last entry of level L (level 0 holds the items).
    @usableFromInline let levelEnds: [Int]

    /// Builds the tree over `boxes`; `boxes[i]` is item `i`. Empty boxes are allowed and are
    /// never found.
    public init(boxes itemBoxes: [BoundingBox], nodeSize: Int = 16) {
        precondition(nodeSize >= 2, "an R-tree node needs room for at least two children")
        self.nodeSize = nodeSize
        self.count = itemBoxes.count
        var boxes: [SIMD4<Double>] = []
        var children: [Int32] = []
        var levelEnds: [Int] = []

        // Level 0: the items in STR order.
        var level: [(box: BoundingBox, child: Int32)] = itemBoxes.enumerated().map { ($1, Int32($0)) }
        while true {
            Self.sortTileRecursive(&level, nodeSize: nodeSize)
            let levelStart = boxes.count
            for entry in level {
                boxes.append(Self.encode(entry.box))
                children.append(entry.child)
            }
            levelEnds.append(boxes.count)
            if level.count <= 1 { break }
            // Next level up: one entry per run of nodeSize entries.
            var parents: [(box: BoundingBox, child: Int32)] = []
            parents.reserveCapacity((level.count + nodeSize - 1) / nodeSize)
            var i = 0
            while i < level.count {
                let end = Swift.min(i + nodeSize, level.count)
                var box = BoundingBox.empty
                for j in i..<end { box = box.union(level[j].box) }
                parents.append((box, Int32(levelStart + i)))
                i = end
            }
            level = parents
        }
        self.boxes = IndexArray(boxes)
        self.children = IndexArray(children)
        self.levelEnds = levelEnds
    }

    /// Orders entries so that runs of `nodeSize` are spatially compact: sort by centre x,
    /// cut into vertical slices of about sqrt(n / nodeSize) nodes each, sort each slice by y.
    static func sortTileRecursive(_ entries: inout [(box: BoundingBox, child: Int32)], nodeSize: Int) {
        let n = entries.count
        guard n > nodeSize else { return }
        let nodeCount = (n + nodeSize - 1) / nodeSize
        let sliceCount = Int(Double(nodeCount).squareRoot().rounded(.up))
        let sliceSize = nodeSize * ((nodeCount + sliceCount - 1) / sliceCount)
        func cx(_ b: BoundingBox) -> Double { b.isEmpty ? .infinity : b.minX + b.maxX }
        func cy(_ b: BoundingBox) -> Double { b.isEmpty ? .infinity : b.minY + b.maxY }
        sortStably(&entries[...], by: cx)
        var start = 0
        while start < n {
            let end = Swift.min(start + sliceSize, n)
            sortStably(&entries[start..<end], by: cy)
            start = end
        }
    }

    /// Sorts `entries` by `key` of their boxes, ties kept in their order: the order of a stable
    /// sort by that key, found by sorting the keys computed once, with each entry's position as
    /// the tie-break (comparing boxes through the key function is most of a large layer's build).
    static func sortStably(
        _ entries: inout ArraySlice<(box: BoundingBox, child: Int32)>, by key: (BoundingBox) -> Double
    ) {
        let base = entries.startIndex
        var keyed = entries.indices.map { (key: key(entries[$0].box), position: Int32($0 - base)) }
        keyed.sort { $0.key < $1.key || (!($1.key < $0.key) && $0.position < $1.position) }
        let original = Array(entries)
        for (k, entry) in keyed.enumerated() { entries[base + k] = original[Int(entry.position)] }
    }

    @inlinable
    static func encode(_ b: BoundingBox) -> SIMD4<Double> { SIMD4(b.minX, b.minY, -b.maxX, -b.maxY) }

    @inlinable
    static func decode(_ v: SIMD4<Double>) -> BoundingBox {
        BoundingBox(minX: v[0], minY: v[1], maxX: -v[2], maxY: -v[3])
    }

    /// The query vector that ``boxes`` are compared with (see there).
    @inlinable
    static func query(_ b: BoundingBox) -> SIMD4<Double> { SIMD4(b.maxX, b.maxY, -b.minX, -b.minY) }

    /// True when an encoded box meets the query (see ``boxes``). Four scalar comparisons:
    /// extracting a SIMD mask costs more instructions than it saves here.
    @inlinable @inline(__always)
    static func meets(_ box: SIMD4<Double>, _ q: SIMD4<Double>) -> Bool {
        box.x <= q.x && box.y <= q.y && box.z <= q.z && box.w <= q.w
    }

    /// The root entry's box: the extent of all items.
    public var boundingBox: BoundingBox { boxes.last.map(Self.decode) ?? .empty }

    /// Calls `body` with every item whose box contains `p` (border included). Return `false`
    /// from `body` to stop early.
    @inlinable
    public func search(containing p: Point, _ body: (Int) -> Bool) {
        search(query: SIMD4(p.x, p.y, -p.x, -p.y), body)
    }

    /// Calls `body` with every item whose box intersects `box`. Return `false` to stop.
    @inlinable
    public func search(intersecting box: BoundingBox, _ body: (Int) -> Bool) {
        guard !box.isEmpty else { return }
        search(query: Self.query(box), body)
    }

    /// Item indices whose box intersects `box`, in tree order.
    public func items(intersecting box: BoundingBox) -> [Int] {
        var result: [Int] = []
        search(intersecting: box) {
            result.append($0); return true
        }
        return result
    }

    @inlinable
    func search(query q: SIMD4<Double>, _ body: (Int) -> Bool) {
        guard let root = boxes.indices.last, Self.meets(boxes[root], q) else { return }
        if levelEnds.count == 1 {  // a single item: the root is the leaf
            _ = body(Int(children[root]))
            return
        }
        // Depth-first with an explicit stack of entries whose children are still to scan.
        // Each level pushes at most nodeSize entries, so the stack never exceeds
        // nodeSize * levels; it lives on the machine stack, not the heap.
        let capacity = nodeSize * levelEnds.count + 1
        let nodeSize = self.nodeSize  // a local, so the closures below do not capture `self`
        boxes.withUnsafeBufferPointer { boxes in
            children.withUnsafeBufferPointer { children in
                levelEnds.withUnsafeBufferPointer { levelEnds in
                    withUnsafeTemporaryAllocation(of: (entry: Int32, level: Int32).self, capacity: capacity) { stack in
                        stack[0] = (Int32(root), Int32(levelEnds.count - 1))
                        var top = 1
                        while top > 0 {
                            top -= 1
                            let (entry, level) = (Int(stack[top].entry), Int(stack[top].level))
                            let first = Int(children[entry])
                            let end = Swift.min(first + nodeSize, levelEnds[level - 1])
                            for child in first..<end where Self.meets(boxes[child], q) {
                                if level == 1 {
                                    if !body(Int(children[child])) { return }
                                } else {
                                    stack[top] = (Int32(child), Int32(level - 1))
                                    top += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
