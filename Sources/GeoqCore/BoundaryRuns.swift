/// Each item's boundary, for "which point of item i's boundary is nearest to p" queries: its
/// edges cut into runs of up to ``runLength`` consecutive edges of one ring, and one packed
/// R-tree per item over its runs' boxes.
///
/// Consecutive edges of a ring lie close together, so a run's box is nearly as tight as its
/// edges' own boxes (TG's "natural" index rests on the same observation), while the tree has
/// a leaf per run rather than per edge: an eighth of the boxes, and no copy of the edges (a
/// run is its first edge's number into the layer's ``LayerVertices`` and its length).
///
/// Invariants: item `i`'s runs are `firstRun[i] ..< firstRun[i + 1]`, in ring order; item `i`'s
/// tree indexes exactly those runs, run `firstRun[i] + k` being the tree's item `k`; every
/// run's edges `start ..< start + length` lie in one ring, so `start + length < vertices.count`.
/// Immutable once built.
@usableFromInline
struct BoundaryRuns: Sendable {
    /// Edges a run holds at most.
    static let runLength = 8

    /// The first edge of each run.
    let runStarts: IndexArray<UInt32>
    /// The number of edges of each run, 1 ... ``runLength``.
    let runLengths: IndexArray<UInt8>
    /// Item `i`'s runs are `firstRun[i] ..< firstRun[i + 1]`.
    let firstRun: [Int]
    /// Per item, an R-tree over its runs.
    let trees: [PackedRTree]
    let vertices: LayerVertices

    /// - Parameter items: for each item, the vertex range of each of its rings in `vertices`.
    init(vertices: LayerVertices, items: [[Range<Int>]]) {
        var runStarts: [UInt32] = []
        var runLengths: [UInt8] = []
        var firstRun = [0]
        var trees: [PackedRTree] = []
        trees.reserveCapacity(items.count)
        let v = vertices.points
        for rings in items {
            var boxes: [BoundingBox] = []
            for ring in rings where ring.count > 1 {
                var start = ring.lowerBound
                let lastEdge = ring.upperBound - 2
                while start <= lastEdge {
                    let length = Swift.min(Self.runLength, lastEdge - start + 1)
                    runStarts.append(UInt32(start))
                    runLengths.append(UInt8(length))
                    boxes.append(BoundingBox(around: v[start...(start + length)]))
                    start += length
                }
            }
            firstRun.append(runStarts.count)
            trees.append(PackedRTree(boxes: boxes))
        }
        self.init(
            runStarts: IndexArray(runStarts), runLengths: IndexArray(runLengths), firstRun: firstRun, trees: trees,
            vertices: vertices)
    }

    /// Assembles runs already built or read; the caller vouches for the invariants.
    init(
        runStarts: IndexArray<UInt32>, runLengths: IndexArray<UInt8>, firstRun: [Int], trees: [PackedRTree],
        vertices: LayerVertices
    ) {
        self.runStarts = runStarts
        self.runLengths = runLengths
        self.firstRun = firstRun
        self.trees = trees
        self.vertices = vertices
    }

    /// The point of item `item`'s boundary nearest to `p` under `metric`, and its distance, when
    /// that distance is at most `maxDistance`; nil otherwise (and for an item without edges).
    ///
    /// Ties: of edges at the same smallest distance the one that comes first in ring order wins;
    /// two edges whose distances differ only in the last bit of their squares count as tied.
    /// Best first over the item's tree by squared distances, a queue of nodes on the stack, each
    /// run's edges measured in place; allocates nothing.
    func nearestBoundaryPoint(
        to p: Point, item: Int, metric: LocalMetric, within maxDistance: Double = .infinity
    ) -> (point: Point, distance: Double)? {
        let base = firstRun[item]
        guard firstRun[item + 1] > base else { return nil }
        // A hair looser than `maxDistance`: the final check below is on the distance itself,
        // so that an edge exactly at `maxDistance` counts whatever its square rounds to.
        let limit = maxDistance.isFinite ? maxDistance * maxDistance * (1 + 1e-12) : .infinity
        let v = vertices.points
        return runStarts.withUnsafeBufferPointer { starts in
            runLengths.withUnsafeBufferPointer { lengths in
                // The run's nearest edge (the first of equals) and its squared distance.
                func nearestEdge(ofRun run: Int) -> (edge: Int, squaredDistance: Double) {
                    let start = Int(starts[base + run])
                    var best = (edge: start, squaredDistance: Double.infinity)
                    for e in start..<start + Int(lengths[base + run]) {
                        let d = metric.squaredDistance(p, Segment(v[e], v[e + 1]))
                        if d < best.squaredDistance { best = (e, d) }
                    }
                    return best
                }
                let found = trees.withUnsafeBufferPointer { trees -> PackedRTree.FirstNearest in
                    let tree = UnsafePointer(trees.baseAddress! + item)
                    let first = tree.pointee.nearestSegment(
                        boxDistance: { metric.squaredDistance(p, $0) },
                        // Squared, and a hair loose so that rounding never cuts off the nearest edge.
                        boxUpperBound: {
                            let far = metric.farEndOfNearestSide(p, $0)
                            return far * far * (1 + 1e-9)
                        },
                        segmentDistance: { nearestEdge(ofRun: $0).squaredDistance },
                        within: limit)
                    guard case .queueFull = first else { return first }
                    var best: PackedRTree.FirstNearest = .none
                    tree.pointee.nearest(
                        boxDistance: { metric.distance(p, $0) },
                        itemDistance: { nearestEdge(ofRun: $0).squaredDistance.squareRoot() }
                    ) { run, distance in
                        best = .item(run, distance: distance)
                        return false
                    }
                    return best
                }
                guard case .item(let run, _) = found else { return nil }
                let closest = metric.closestPoint(on: vertices.edge(nearestEdge(ofRun: run).edge), to: p)
                return closest.distance <= maxDistance ? closest : nil
            }
        }
    }

    /// Checks the invariants stated on the type; for tests and stored indexes.
    func checkInvariants(itemCount: Int) -> Bool {
        guard firstRun.count == itemCount + 1, trees.count == itemCount, firstRun.first == 0,
            firstRun.last == runStarts.count, runLengths.count == runStarts.count
        else { return false }
        for item in 0..<itemCount {
            guard firstRun[item] <= firstRun[item + 1], trees[item].count == firstRun[item + 1] - firstRun[item]
            else { return false }
        }
        for (start, length) in zip(runStarts, runLengths) {
            guard length >= 1, Int(length) <= Self.runLength, Int(start) + Int(length) < vertices.count else {
                return false
            }
        }
        return true
    }
}
