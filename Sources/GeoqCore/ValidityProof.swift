/// A quick proof that a polygonal geometry is valid in the OGC sense, for the common case in
/// which no two of its rings touch: it either proves validity or gives up, and the caller then
/// asks GEOS, whose verdict and reasons stay the reference.
///
/// The proof holds when
/// - no ring repeats a position twice in a row (GEOS tolerates it; the proof leaves it to GEOS);
/// - two consecutive edges of a ring meet only at their shared vertex (no spike);
/// - no other two edges of the geometry, in any ring of any part, intersect or touch at all;
/// - every hole lies inside its shell and outside the part's other holes;
/// - no part's shell lies inside another part's area.
///
/// Then every ring is simple and disjoint from the others, every hole is strictly inside its
/// shell, and every interior is connected: GEOS's `isValid` is true. Every sign it relies on is
/// certain: a floating-point orientation is used only when its error bound (Shewchuk's) shows
/// the sign cannot be wrong, so GEOS's own robust predicates give the same signs; anything
/// closer to collinear than that makes the proof give up.
///
/// Finding the edge pairs to compare: the edges go into a grid of cells about twice the mean
/// edge length, each edge into the cells its box covers (cell numbers grow monotonically with
/// the coordinates, so two edges whose boxes meet always share a cell). The few edges that
/// cover many cells are compared with every edge instead.
public enum ValidityProof {
    /// True when `polygons` (the parts of one feature) are shown valid; false when the proof
    /// cannot decide (then the geometry may be valid or not).
    public static func provesValid(_ polygons: [Polygon]) -> Bool {
        undecided(polygons) == nil
    }

    /// Why the proof gives up on `polygons`, or nil when it shows them valid.
    public enum Undecided: String, Sendable {
        case repeatedPosition = "a ring repeats a position"
        case spikeOrNearlyCollinear = "consecutive edges overlap or are nearly collinear"
        case edgesMeet = "two edges meet or come too close to tell"
        case tooManyLongEdges = "too many long edges"
        case ringNesting = "a ring lies outside its shell, in another hole, or a shell in another part"
    }

    public static func undecided(_ polygons: [Polygon]) -> Undecided? {
        switch decide(polygons, allowingTouchingParts: false) {
        case .proved: nil
        case .undecided(let why): why
        case .validIfValid: .edgesMeet
        }
    }

    /// What the proof can say about `polygons` (the parts of one feature).
    public enum Decision: Sendable, Equatable {
        /// Valid.
        case proved
        /// The proof gives up; only GEOS can tell.
        case undecided(Undecided)
        /// Valid exactly when these parts (indices into `polygons`, at least two), taken
        /// together as a multipolygon, are: some of their edges meet another part's (islands
        /// that touch), and the proof showed all the rest. GEOS decides on those parts alone.
        case validIfValid(parts: [Int])
    }

    /// ``undecided(_:)``, and when the only edges that meet belong to different parts, which
    /// parts those are: GEOS then checks them alone, not the whole feature (on Natural Earth,
    /// Canada's 412 parts and 68,193 vertices took GEOS 24 ms).
    ///
    /// Why that is the whole feature's verdict: every pair of edges within one part is
    /// certainly apart (consecutive ones aside), so each part is valid as the proof shows a
    /// polygon valid; the edges of a part outside the returned set meet no other part's, and
    /// no part's shell lies in another's area unless both are in the set (the nesting test
    /// below, certain when the two boundaries are apart). So the multipolygon is valid if and
    /// only if its parts in the set are: valid each, interiors apart, boundaries meeting in
    /// finitely many points, which is GEOS's test on them.
    public static func decide(_ polygons: [Polygon]) -> Decision {
        decide(polygons, allowingTouchingParts: true)
    }

    static func decide(_ polygons: [Polygon], allowingTouchingParts: Bool) -> Decision {
        var edges = EdgeSet()
        let vertexCount = polygons.reduce(0) { $0 + $1.vertexCount }
        edges.xs.reserveCapacity(vertexCount)
        edges.ys.reserveCapacity(vertexCount)
        for polygon in polygons {
            guard edges.add(polygon) else { return .undecided(.repeatedPosition) }
        }
        guard edges.ringsAreSimpleLocally() else { return .undecided(.spikeOrNearlyCollinear) }
        var touching: Set<Int> = []
        if let failure = edges.noTwoEdgesMeet(collectingTouchingParts: allowingTouchingParts, into: &touching) {
            return .undecided(failure)
        }
        var nesting = RingNesting(polygons, together: touching)
        guard nesting.isValid() else { return .undecided(.ringNesting) }
        return touching.isEmpty ? .proved : .validIfValid(parts: touching.sorted())
    }

    /// How many horizontal bands the sweep over monotone chains cuts a shape `height` high
    /// into: bands about four mean chains high, so that most chains lie in one or two, and at
    /// least sixteen chains a band. On Natural Earth's countries the proof took 0.95 of its
    /// time with bands (a chain met 15 others in x, of which 1.3 in y, with one band).
    static func sweepBands(chains: Int, height: Double, meanChainHeight: Double) -> Int {
        guard chains >= 64, height > 0, meanChainHeight > 0 else { return 1 }
        let byHeight = height / (4 * meanChainHeight)
        return max(1, min(Int(min(byHeight, Double(1 << 20))), chains / 16))
    }

    // MARK: - Certain orientation

    /// +1 when `q` is left of `p1 -> p2`, -1 when right, 0 when collinear; nil when the
    /// floating-point value is too close to zero for its sign to be certain.
    @inline(__always)
    static func certainOrientation(
        _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double, _ qx: Double, _ qy: Double
    ) -> Int? {
        let detLeft = (p1x - qx) * (p2y - qy)
        let detRight = (p1y - qy) * (p2x - qx)
        let det = detLeft - detRight
        // With both products of one sign the difference keeps it (or is exactly zero when
        // a factor is): no rounding can flip it.
        if (detLeft > 0 && detRight <= 0) || (detLeft < 0 && detRight >= 0) || detLeft == 0 {
            return det > 0 ? 1 : (det < 0 ? -1 : 0)
        }
        let detSum = abs(detLeft) + abs(detRight)
        let errorBound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53 * detSum
        if det > errorBound { return 1 }
        if -det > errorBound { return -1 }
        return nil
    }
}

/// Every edge of a geometry, as positions in flat arrays, with its ring.
private struct EdgeSet {
    var xs: [Double] = []
    var ys: [Double] = []
    /// The first vertex of each ring in `xs`/`ys`; the ring's closing vertex is its last.
    var ringStarts: [Int] = []
    /// The part (polygon) of each ring.
    var ringParts: [Int] = []
    private var partCount = 0

    /// Adds the rings of `polygon`; false when a ring repeats a position in a row.
    mutating func add(_ polygon: Polygon) -> Bool {
        defer { partCount += 1 }
        if !add(polygon.shell) { return false }
        for hole in polygon.holes where !add(hole) { return false }
        return true
    }

    /// The part of the ring that vertex `v` belongs to.
    func part(ofVertex v: Int) -> Int {
        // The last ring that starts at or before v.
        var low = 0, high = ringStarts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if ringStarts[mid] <= v { low = mid } else { high = mid }
        }
        return ringParts[low]
    }

    private mutating func add(_ ring: Ring) -> Bool {
        ringStarts.append(xs.count)
        ringParts.append(partCount)
        return ring.points.withUnsafeBufferPointer { points in
            var previous = points[0]
            xs.append(previous.x)
            ys.append(previous.y)
            for p in points.dropFirst() {
                if p == previous { return false }
                xs.append(p.x)
                ys.append(p.y)
                previous = p
            }
            return true
        }
    }

    /// Consecutive edges `a -> b -> c` meet only at `b`: not collinear, or collinear with
    /// `b` strictly between `a` and `c`. A ring of three edges that passes is a triangle.
    func ringsAreSimpleLocally() -> Bool {
        // Through buffer pointers, as the chains are cut below: every array read was checked
        // (both passes so, with 22-bit sort keys, the proof on Natural Earth took 47 ms, not 49).
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                for (r, start) in ringStarts.enumerated() {
                    let end = r + 1 < ringStarts.count ? ringStarts[r + 1] : xs.count
                    let last = end - 1  // the closing vertex, equal to `start`
                    for b in start..<last {
                        let a = b == start ? last - 1 : b - 1
                        let c = b + 1
                        // Going on beyond b (a positive dot product), the edges share only b, whether
                        // or not they are exactly collinear: no need to know.
                        let along = (xs[b] - xs[a]) * (xs[c] - xs[b])
                        let across = (ys[b] - ys[a]) * (ys[c] - ys[b])
                        if (along >= 0 && across >= 0 && along + across > 0)
                            || along + across > 8 * 0x1p-53 * (abs(along) + abs(across))
                        {
                            continue
                        }
                        guard
                            let turn = ValidityProof.certainOrientation(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c])
                        else { return false }
                        if turn != 0 { continue }
                        // Exactly collinear: fine only when b lies strictly between a and c.
                        let between =
                            xs[a] != xs[c]
                            ? (xs[a] < xs[b] && xs[b] < xs[c]) || (xs[a] > xs[b] && xs[b] > xs[c])
                            : (ys[a] < ys[b] && ys[b] < ys[c]) || (ys[a] > ys[b] && ys[b] > ys[c])
                        if !between { return false }
                    }
                }
                return true
            }
        }
    }

    /// Nil when no two edges that are not consecutive in one ring meet (cross or touch).
    ///
    /// Each ring is cut into monotone chains, runs of edges along which x and y each only grow
    /// or only shrink (GEOS's monotone chains). Two edges of one chain that do not follow each
    /// other cannot meet: the box of each edge ends where the next begins, and no edge is a
    /// single point. So only edges of different chains are compared, and only where the
    /// chains' boxes overlap; within two chains, the box of any run of edges is the box of its
    /// two end vertices, so halving the runs narrows them down to the edges that could meet.
    ///
    /// When `collecting`, chains of two different parts that may meet do not end the proof:
    /// both parts go into `touchingParts`, and the sweep goes on (chains of one part that may
    /// meet still end it).
    func noTwoEdgesMeet(collectingTouchingParts collecting: Bool, into touchingParts: inout Set<Int>)
        -> ValidityProof.Undecided?
    {
        // Chain c runs from vertex chainStarts[c] to vertex chainEnds[c].
        var chainStarts: [Int32] = []
        var chainEnds: [Int32] = []
        guard xs.count < Int(Int32.max) - 1 else { return .tooManyLongEdges }
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                for (r, start) in ringStarts.enumerated() {
                    let end = r + 1 < ringStarts.count ? ringStarts[r + 1] : xs.count
                    var chainStart = start
                    var sx = 0.0
                    var sy = 0.0
                    for v in start..<(end - 1) {
                        let dx = xs[v + 1] - xs[v]
                        let dy = ys[v + 1] - ys[v]
                        if dx * sx < 0 || dy * sy < 0 {
                            chainStarts.append(Int32(chainStart))
                            chainEnds.append(Int32(v))
                            chainStart = v
                            sx = 0
                            sy = 0
                        }
                        if sx == 0 { sx = dx }
                        if sy == 0 { sy = dy }
                    }
                    chainStarts.append(Int32(chainStart))
                    chainEnds.append(Int32(end - 1))
                }
            }
        }
        let chainCount = chainStarts.count
        var minX = Double.infinity
        var maxX = -Double.infinity
        for x in xs {
            minX = min(minX, x)
            maxX = max(maxX, x)
        }
        var minY = Double.infinity
        var maxY = -Double.infinity
        var chainHeights = 0.0
        for c in 0..<chainCount {
            let (y0, y1) = (ys[Int(chainStarts[c])], ys[Int(chainEnds[c])])
            minY = min(minY, y0, y1)
            maxY = max(maxY, y0, y1)
            chainHeights += abs(y1 - y0)
        }
        // Chains in order of their smallest x, as a 22-bit key that never decreases with x: two
        // passes of the radix sort. Chains whose x-ranges only share a key are compared as if
        // they overlapped, exactly, and found apart.
        let scale = maxX > minX ? Double((1 << 22) - 1) / (maxX - minX) : 0
        func key(_ x: Double) -> UInt32 { UInt32((x - minX) * scale) }
        var order: [GridEntry] = []
        order.reserveCapacity(chainCount)
        for c in 0..<chainCount {
            let left = min(xs[Int(chainStarts[c])], xs[Int(chainEnds[c])])
            order.append(GridEntry(cell: UInt64(key(left)), edge: Int32(c)))
        }
        GridEntry.sortByCell(&order)
        // Horizontal bands, each swept on its own: a chain is compared only with the chains
        // of its bands, not with every chain its x-range meets from the top of the shape to
        // its bottom. A pair of chains in several bands is compared in one: the band of the
        // lowest y they share.
        let bands = ValidityProof.sweepBands(
            chains: chainCount, height: maxY - minY, meanChainHeight: chainHeights / Double(max(1, chainCount)))
        let bandScale = maxY > minY ? Double(bands) / (maxY - minY) : 0
        func band(_ y: Double) -> Int { min(bands - 1, Int((y - minY) * bandScale)) }
        var bandStarts = [Int](repeating: 0, count: bands + 1)
        if bands > 1 {
            for c in 0..<chainCount {
                let (y0, y1) = (ys[Int(chainStarts[c])], ys[Int(chainEnds[c])])
                for k in band(min(y0, y1))...band(max(y0, y1)) { bandStarts[k + 1] += 1 }
            }
            for k in 0..<bands { bandStarts[k + 1] += bandStarts[k] }
        } else {
            bandStarts[1] = chainCount
        }
        // Each band's boxes in x order, side by side in memory: the sweep reads them in a row.
        var fill = bandStarts
        let boxes = [ChainBox](unsafeUninitializedCapacity: bandStarts[bands]) { boxes, initialized in
            for entry in order {
                let (v0, v1) = (Int(chainStarts[Int(entry.edge)]), Int(chainEnds[Int(entry.edge)]))
                let box = ChainBox(
                    minKey: UInt32(entry.cell), maxKey: key(max(xs[v0], xs[v1])), minY: min(ys[v0], ys[v1]),
                    maxY: max(ys[v0], ys[v1]), first: Int32(v0), last: Int32(v1))
                for k in (bands > 1 ? band(box.minY)...band(box.maxY) : 0...0) {
                    (boxes.baseAddress! + fill[k]).initialize(to: box)
                    fill[k] += 1
                }
            }
            initialized = bandStarts[bands]
        }

        return xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                boxes.withUnsafeBufferPointer { boxes in
                    let pairs = EdgePairs(xs: xs, ys: ys, ringStarts: ringStarts)
                    // Chains whose boxes overlap: for each chain, the chains after it in its band's x
                    // order that start before it ends (a budget keeps pathological layouts bounded).
                    var budget = 64 * chainCount + 1_000_000
                    for k in 0..<bands {
                        let end = bandStarts[k + 1]
                        for i in bandStarts[k]..<end {
                            let a = boxes[i]
                            var j = i + 1
                            while j < end && boxes[j].minKey <= a.maxKey {
                                let b = boxes[j]
                                j += 1
                                if b.maxY < a.minY || b.minY > a.maxY { continue }
                                if bands > 1 && band(max(a.minY, b.minY)) != k { continue }
                                // Most pairs that overlap are neighbours in a ring, joined at a vertex.
                                if a.last == b.first
                                    ? pairs.meetOnlyAtJoint(Int(a.last))
                                    : b.last == a.first && pairs.meetOnlyAtJoint(Int(b.last))
                                {
                                    continue
                                }
                                budget -= 1
                                if budget < 0 { return .tooManyLongEdges }
                                if !pairs.chainsApart(
                                    Int(a.first), Int(a.last), Int(b.first), Int(b.last), budget: &budget)
                                {
                                    if budget < 0 { return .tooManyLongEdges }
                                    let (p, q) = (part(ofVertex: Int(a.first)), part(ofVertex: Int(b.first)))
                                    guard collecting, p != q else { return .edgesMeet }
                                    touchingParts.insert(p)
                                    touchingParts.insert(q)
                                }
                            }
                            budget -= (j - i) >> 4
                            if budget < 0 { return .tooManyLongEdges }
                        }
                    }
                    return nil
                }
            }
        }
    }
}

/// A monotone chain's box, and its first and last vertex.
private struct ChainBox {
    var minKey: UInt32
    var maxKey: UInt32
    var minY: Double
    var maxY: Double
    var first: Int32
    var last: Int32
}

/// A value to sort by and what it belongs to.
private struct GridEntry {
    var cell: UInt64
    var edge: Int32

    /// Sorts by `cell`: a least-significant-digit radix sort, 11 bits a pass, over the bits the
    /// keys use (a comparison sort of hundreds of thousands of entries is several times slower;
    /// wider digits spend more on clearing their counts than they save in passes).
    static func sortByCell(_ entries: inout [GridEntry]) {
        guard entries.count > 256 else {
            entries.sort { $0.cell < $1.cell }
            return
        }
        let highest = entries.reduce(UInt64(0)) { max($0, $1.cell) }
        var scratch = entries
        var shift: UInt64 = 0
        var inScratch = false
        var counts = [Int](repeating: 0, count: 1 << 11 + 1)
        while shift == 0 || (shift < 64 && highest >> shift != 0) {
            for d in counts.indices { counts[d] = 0 }
            if inScratch {
                radixPass(from: scratch, to: &entries, shift: shift, counts: &counts)
            } else {
                radixPass(from: entries, to: &scratch, shift: shift, counts: &counts)
            }
            inScratch.toggle()
            shift += 11
        }
        if inScratch { entries = scratch }
    }

    private static func radixPass(
        from source: [GridEntry], to target: inout [GridEntry], shift: UInt64, counts: inout [Int]
    ) {
        for entry in source { counts[Int((entry.cell >> shift) & 0x7FF) + 1] += 1 }
        for d in 1..<counts.count { counts[d] += counts[d - 1] }
        target.withUnsafeMutableBufferPointer { out in
            for entry in source {
                let digit = Int((entry.cell >> shift) & 0x7FF)
                out[counts[digit]] = entry
                counts[digit] += 1
            }
        }
    }
}

/// The pair test: whether two edges certainly share no point.
private struct EdgePairs {
    let xs: UnsafeBufferPointer<Double>
    let ys: UnsafeBufferPointer<Double>
    let ringStarts: [Int]

    /// True when edges `e` and `f` (by their start vertex) certainly do not meet, or are
    /// consecutive in one ring (checked apart, see ``EdgeSet/ringsAreSimpleLocally()``).
    @inline(__always)
    func disjoint(_ e: Int32, _ f: Int32) -> Bool {
        let a = Int(e)
        let b = Int(f)
        if a == b { return true }
        let ax0 = xs[a], ay0 = ys[a], ax1 = xs[a + 1], ay1 = ys[a + 1]
        let bx0 = xs[b], by0 = ys[b], bx1 = xs[b + 1], by1 = ys[b + 1]
        // Boxes apart (exact comparisons): the segments are apart.
        if max(ax0, ax1) < min(bx0, bx1) || max(bx0, bx1) < min(ax0, ax1) { return true }
        if max(ay0, ay1) < min(by0, by1) || max(by0, by1) < min(ay0, ay1) { return true }
        if consecutive(a, b) { return true }
        guard let o1 = ValidityProof.certainOrientation(ax0, ay0, ax1, ay1, bx0, by0),
            let o2 = ValidityProof.certainOrientation(ax0, ay0, ax1, ay1, bx1, by1)
        else { return false }
        if o1 * o2 > 0 { return true }
        guard let o3 = ValidityProof.certainOrientation(bx0, by0, bx1, by1, ax0, ay0),
            let o4 = ValidityProof.certainOrientation(bx0, by0, bx1, by1, ax1, ay1)
        else { return false }
        return o3 * o4 > 0
    }

    /// True when the chain that ends at vertex `joint` and the one that starts there share no
    /// point but the joint, their edges at it aside: the joint's neighbours lie strictly on
    /// either side of it in x or in y. Each chain being monotone, every other vertex of the
    /// first then lies beyond the vertex before the joint, and of the second beyond the one
    /// after it: on the two sides of a line through the joint that only the joint's edges reach.
    @inline(__always)
    func meetOnlyAtJoint(_ joint: Int) -> Bool {
        let (x0, x1, x2) = (xs[joint - 1], xs[joint], xs[joint + 1])
        let (y0, y1, y2) = (ys[joint - 1], ys[joint], ys[joint + 1])
        return (y0 < y1 && y1 < y2) || (y0 > y1 && y1 > y2) || (x0 < x1 && x1 < x2) || (x0 > x1 && x1 > x2)
    }

    /// True when no edge of the run of vertices `a0...a1` certainly meets one of `b0...b1`,
    /// consecutive edges aside; both runs lie on monotone chains, so the box of a run is the box
    /// of its end vertices.
    func chainsApart(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, budget: inout Int) -> Bool {
        if max(xs[a0], xs[a1]) < min(xs[b0], xs[b1]) || max(xs[b0], xs[b1]) < min(xs[a0], xs[a1]) { return true }
        if max(ys[a0], ys[a1]) < min(ys[b0], ys[b1]) || max(ys[b0], ys[b1]) < min(ys[a0], ys[a1]) { return true }
        budget -= 1
        if budget < 0 { return false }
        let aEdges = a1 - a0
        let bEdges = b1 - b0
        if aEdges == 1 && bEdges == 1 { return disjoint(Int32(a0), Int32(b0)) }
        if aEdges >= bEdges {
            let mid = a0 + aEdges / 2
            return chainsApart(a0, mid, b0, b1, budget: &budget) && chainsApart(mid, a1, b0, b1, budget: &budget)
        }
        let mid = b0 + bEdges / 2
        return chainsApart(a0, a1, b0, mid, budget: &budget) && chainsApart(a0, a1, mid, b1, budget: &budget)
    }

    /// Edges starting at vertices `a` and `b` follow each other in one ring (the ring's last
    /// edge and its first are consecutive too). A ring's closing vertex starts no edge, so
    /// edges one vertex apart are always in one ring.
    @inline(__always)
    private func consecutive(_ a: Int, _ b: Int) -> Bool {
        if a + 1 == b || b + 1 == a { return true }
        let (first, other) = a < b ? (a, b) : (b, a)
        // The ring that starts at `first`, if one does.
        var low = 0
        var high = ringStarts.count
        while low < high {
            let mid = (low + high) / 2
            if ringStarts[mid] < first { low = mid + 1 } else { high = mid }
        }
        guard low < ringStarts.count, ringStarts[low] == first else { return false }
        let end = low + 1 < ringStarts.count ? ringStarts[low + 1] : xs.count
        return other == end - 2
    }
}

/// Where rings lie in one another, once no two rings meet: each is then wholly inside or
/// wholly outside another, and one vertex tells which.
private struct RingNesting {
    let polygons: [Polygon]
    /// Parts whose nesting among themselves is left to GEOS (their boundaries may meet).
    let together: Set<Int>
    let shellBoxes: [BoundingBox]
    /// Rings asked about often (a mainland's shell, for each of its islands) get a stripe table
    /// of their own, the same one the layers' point-in-polygon reads.
    private var locators: [Int: StripeTable] = [:]
    private var questions: [Int: Int] = [:]

    init(_ polygons: [Polygon], together: Set<Int> = []) {
        self.polygons = polygons
        self.together = together
        shellBoxes = polygons.map(\.shell.boundingBox)
    }

    mutating func isValid() -> Bool {
        for (p, polygon) in polygons.enumerated() {
            let holeBoxes = polygon.holes.map(\.boundingBox)
            for (h, hole) in polygon.holes.enumerated() {
                let vertex = hole.points[0]
                guard inside(vertex, polygon: p, ring: -1) == true else { return false }
                for k in polygon.holes.indices where k != h && holeBoxes[k].contains(vertex) {
                    guard inside(vertex, polygon: p, ring: k) == false else { return false }
                }
            }
        }
        guard polygons.count > 1 else { return true }
        // A part's shell inside another part's shell must be in one of its holes. The parts
        // whose box holds a shell's first vertex come from an R-tree (thousands of islands).
        let tree = PackedRTree(boxes: shellBoxes)
        for i in polygons.indices {
            let vertex = polygons[i].shell.points[0]
            var candidates: [Int] = []
            tree.search(containing: vertex) { j in
                if j != i && !(together.contains(i) && together.contains(j)) { candidates.append(j) }
                return true
            }
            for j in candidates {
                guard let inShell = inside(vertex, polygon: j, ring: -1) else { return false }
                guard inShell else { continue }
                var inHole = false
                for (k, hole) in polygons[j].holes.enumerated() where hole.boundingBox.contains(vertex) {
                    guard let inThisHole = inside(vertex, polygon: j, ring: k) else { return false }
                    if inThisHole {
                        inHole = true
                        break
                    }
                }
                if !inHole { return false }
            }
        }
        return true
    }

    /// Whether `p` is strictly inside ring `ring` of part `polygon` (-1: its shell); nil when
    /// on an edge or too close to one for a certain answer.
    private mutating func inside(_ p: Point, polygon: Int, ring: Int) -> Bool? {
        let theRing = ring < 0 ? polygons[polygon].shell : polygons[polygon].holes[ring]
        guard theRing.points.count > 64 else { return RayCrossing.inside(p, theRing.points.array[...]) }
        let id = polygon &* 1_000_003 &+ ring
        if let locator = locators[id] { return RayCrossing.inside(p, locator) }
        questions[id, default: 0] += 1
        if questions[id]! < 4 { return RayCrossing.inside(p, theRing.points.array[...]) }
        let locator = StripeTable([Polygon(shell: theRing)])
        locators[id] = locator
        return RayCrossing.inside(p, locator)
    }
}

/// The even-odd rule with certain answers only: a point on a ring's edge, or too close to one
/// for the orientation to be certain, gets nil (the proof then leaves the polygon to GEOS).
private enum RayCrossing {
    /// Whether `p` is strictly inside the one ring of `table` (a table over one ring): the edges
    /// of `p`'s stripe are the only ones the ray from `p` can cross.
    static func inside(_ p: Point, _ table: StripeTable) -> Bool? {
        guard table.boundingBox(of: 0).contains(p) else { return false }
        var crossings = 0
        var certain = true
        table.forEachEdge(inStripeOf: p, part: 0) { a, b in
            guard let crossing = crosses(p, a, b) else {
                certain = false
                return false
            }
            if crossing { crossings += 1 }
            return true
        }
        return certain ? crossings % 2 == 1 : nil
    }

    /// Whether `p` is strictly inside the ring `points` by the even-odd rule; nil when `p` is
    /// on an edge or too close to one for the answer to be certain.
    static func inside(_ p: Point, _ points: ArraySlice<Point>) -> Bool? {
        var crossings = 0
        var i = points.startIndex
        while i + 1 < points.endIndex {
            guard let crossing = crosses(p, points[i], points[i + 1]) else { return nil }
            if crossing { crossings += 1 }
            i += 1
        }
        return crossings % 2 == 1
    }

    /// Whether edge `a -> b` crosses the ray from `p` towards +x (half-open in y, so a ray
    /// through a vertex counts once); nil when `p` is on the edge or too close to tell.
    @inline(__always)
    static func crosses(_ p: Point, _ a: Point, _ b: Point) -> Bool? {
        guard (a.y > p.y) != (b.y > p.y) else {
            if a.y == p.y && b.y == p.y && min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) { return nil }
            return false
        }
        if a.x < p.x && b.x < p.x { return false }
        guard let side = ValidityProof.certainOrientation(a.x, a.y, b.x, b.y, p.x, p.y), side != 0 else {
            return nil
        }
        // The ray crosses an upward edge with p on its left, a downward one with p on its right.
        return (b.y > a.y) == (side > 0)
    }
}
