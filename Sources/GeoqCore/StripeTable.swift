/// The y-stripe edge index of any number of polygon parts, in flat arrays.
///
/// Each part's edges are bucketed into horizontal stripes of equal height: an edge is listed
/// in every stripe its y-range touches. A horizontal ray from a point can only cross edges
/// whose y-range contains the point's y, so a test reads one stripe (a few edges for
/// well-behaved data) instead of every edge: O(1) to find the stripe, O(k) for its k edges.
///
/// Layout (as flatbush keeps an R-tree): per part only plain values (box, stripe count and
/// scale, where its offsets start, how its edges are stored); all parts' stripe offsets in one
/// buffer and the striped edges, as edge numbers into the layer's ``LayerVertices``, in two
/// more. A part whose edges are numbered within 65,536 of its first (nearly every part: a
/// ring of a country or a time zone) has them in `narrowEdges`, two bytes each, as numbers
/// after its ``Part/edgeBase``; a longer part has them in `wideEdges`, four bytes each, as
/// they are. Stripe `s` of part `i` is `narrowEdges[offsets[b + s] ..< offsets[b + s + 1]]`
/// (each plus `edgeBase`), or the same range of `wideEdges`, with `b = parts[i].offsetBase`.
/// The buffers belong to one ``StripeStorage`` object, so a query reads plain memory and does
/// no reference counting per part or edge.
///
/// Invariants (checked by ``checkInvariants()``): each part has `stripeCount + 1` offsets,
/// non-decreasing, within the edges of its width; every edge number `e` (after `edgeBase`)
/// has `e + 1 < vertices.count`; every edge of a part whose closed y-range meets stripe `s`'s
/// y-range is listed in stripe `s`.
@usableFromInline
struct StripeTable: Sendable {
    @usableFromInline
    struct Part: Sendable {
        @usableFromInline let boundingBox: BoundingBox
        @usableFromInline let stripeCount: Int
        /// Stripes per unit of y: the stripe of `y` is `Int((y - minY) * stripesPerUnit)`, clamped.
        @usableFromInline let stripesPerUnit: Double
        /// Index in `offsets` of this part's first offset.
        @usableFromInline let offsetBase: Int
        /// The feature (item) this part belongs to.
        @usableFromInline let feature: Int32
        /// What the part's stored edge numbers count from when they are in `narrowEdges`; -1
        /// when they are in `wideEdges`. (It also fills the four bytes that would otherwise pad
        /// the part to its stride: written raw into a stored index, padding would carry whatever
        /// memory held, and the same layer would not give the same bytes twice.)
        @usableFromInline let edgeBase: Int32

        /// Whether the part's edges are in `narrowEdges`.
        @inlinable var isNarrow: Bool { edgeBase >= 0 }
    }

    /// Edges a part may number from its first for them to be stored in two bytes.
    static let narrowSpan = 1 << 16

    @usableFromInline let storage: StripeStorage

    /// Stripes per edge of a part (at most 2^20 stripes a part). About one stripe per edge
    /// makes a stripe hold the edges crossing its y-line (two for a convex shape) plus the few
    /// that start or end in it; fewer stripes list each edge in fewer of them (a smaller index)
    /// and leave more edges to scan per query.
    static let defaultStripesPerEdge = 1.0

    /// A part's stripes are never thinner than a third of its edges' mean height, whatever
    /// the stripes per edge. An edge is listed in every stripe its height meets, so a part
    /// whose edges climb and fall `c` times its height (its total |Δy| over its height; 2 for a
    /// convex shape, 4.6 for Natural Earth's coastlines) lists each edge in about `c + 1`
    /// stripes at one stripe per edge. Taking `3 / c` of them when `c > 3` lists each in about 4
    /// and scans about `c + c / 3` edges a query: on Natural Earth 3.8 entries an edge instead
    /// of 5.5 (the index, with four-byte edges, 13.4 MB instead of 17.8) for 6.2 edges scanned
    /// instead of 5.6; the city layers (2.4 to 2.7) keep nearly all their stripes.
    static let stripesPerEdgeHeight = 3.0

    /// - Parameters:
    ///   - vertices: the layer's vertices, which the edge numbers refer to.
    ///   - parts: each part's rings as vertex ranges in `vertices`, and its feature.
    ///   - stripesPerEdge: see ``defaultStripesPerEdge``.
    init(
        vertices: LayerVertices, parts rings: [(rings: [Range<Int>], feature: Int32)],
        stripesPerEdge: Double = StripeTable.defaultStripesPerEdge
    ) {
        // Two passes: every part's stripe sizes first, then all edges into one buffer of the
        // exact size (growing it part by part copied and faulted in tens of megabytes anew).
        // The first pass keeps each edge's first and last stripe for the second. It counts by
        // differences (one more from the first stripe on, one less after the last), so that an
        // edge costs the same whatever its stripes: a loop over them ends where the data decide.
        var parts: [Part] = []
        parts.reserveCapacity(rings.count)
        var allSizes: [[Int32]] = []
        allSizes.reserveCapacity(rings.count)
        var narrowTotal = 0
        var wideTotal = 0
        var offsetCount = 0
        let v = vertices.points
        // Edge e's stripes are lowest[e] ... highest[e] (e numbered as in `vertices`; the
        // closing vertex of a ring starts no edge, its slot left unwritten and unread).
        let lowest = UnsafeMutableBufferPointer<Int32>.allocate(capacity: vertices.count)
        let highest = UnsafeMutableBufferPointer<Int32>.allocate(capacity: vertices.count)
        defer {
            lowest.deallocate()
            highest.deallocate()
        }
        for (ranges, feature) in rings {
            // The shell's box (the first ring's), as ``Polygon/boundingBox`` has it.
            var box = BoundingBox.empty
            for i in ranges.first ?? 0..<0 { box.expand(toInclude: v[i]) }
            var partEdges = 0
            var climb = 0.0
            for range in ranges where range.count > 1 {
                partEdges += range.count - 1
                for e in range.lowerBound..<range.upperBound - 1 { climb += Swift.abs(v[e + 1].y - v[e].y) }
            }
            let coarsening = box.height > 0 ? Swift.min(1, Self.stripesPerEdgeHeight * box.height / climb) : 1
            let count =
                box.height > 0
                ? Swift.max(
                    1, Swift.min(Int((Double(partEdges) * stripesPerEdge * coarsening).rounded(.up)), 1 << 20)) : 1
            let perUnit = box.height > 0 ? Double(count) / box.height : 0
            let stripes = Stripes(minY: box.minY, perUnit: perUnit, count: count)
            // sizes[s + 1] ends as the number of edges in stripes 0 ... s (the offsets).
            var sizes = [Int32](repeating: 0, count: count + 2)
            sizes.withUnsafeMutableBufferPointer { sizes in
                for range in ranges where range.count > 1 {
                    for e in range.lowerBound..<range.upperBound - 1 {
                        let (a, b) = (v[e].y, v[e + 1].y)
                        let first = stripes.of(Swift.min(a, b)), last = stripes.of(Swift.max(a, b))
                        lowest[e] = Int32(truncatingIfNeeded: first)
                        highest[e] = Int32(truncatingIfNeeded: last)
                        sizes[first + 1] &+= 1
                        sizes[last + 2] &-= 1
                    }
                }
                // Differences to counts per stripe, then counts to offsets.
                for s in 0..<count { sizes[s + 2] &+= sizes[s + 1] }
                for s in 0..<count { sizes[s + 1] &+= sizes[s] }
            }
            sizes.removeLast()
            let firstEdge = ranges.lazy.map(\.lowerBound).min() ?? 0
            let lastEdge = ranges.lazy.map { $0.upperBound - 2 }.max() ?? 0
            let narrow = lastEdge - firstEdge < Self.narrowSpan
            // The part's offsets, as `sizes` gives them, count from its first edge in its buffer.
            let start = narrow ? narrowTotal : wideTotal
            for s in sizes.indices { sizes[s] &+= Int32(start) }
            parts.append(
                Part(
                    boundingBox: box, stripeCount: count, stripesPerUnit: perUnit, offsetBase: offsetCount,
                    feature: feature, edgeBase: narrow ? Int32(firstEdge) : -1))
            offsetCount += count + 1
            if narrow { narrowTotal += Int(sizes[count]) - start } else { wideTotal += Int(sizes[count]) - start }
            allSizes.append(sizes)
        }
        // The buffers become the table's own (a copy of the edges cost Natural Earth's import
        // 8 MB more written and as many pages taken).
        let offsets = LargeAllocation.buffer(of: Int32.self, count: offsetCount)
        let narrowEdges = LargeAllocation.buffer(of: UInt16.self, count: narrowTotal)
        let wideEdges = LargeAllocation.buffer(of: UInt32.self, count: wideTotal)
        var nextOffset = 0
        for (k, (ranges, _)) in rings.enumerated() {
            let part = parts[k]
            var cursor = allSizes[k]
            cursor.withUnsafeMutableBufferPointer { cursor in
                for range in ranges where range.count > 1 {
                    for e in range.lowerBound..<range.upperBound - 1 {
                        for s in Int(lowest[e])...Int(highest[e]) {
                            if part.isNarrow {
                                narrowEdges[Int(cursor[s])] = UInt16(truncatingIfNeeded: e - Int(part.edgeBase))
                            } else {
                                wideEdges[Int(cursor[s])] = UInt32(e)
                            }
                            cursor[s] &+= 1
                        }
                    }
                }
            }
            for offset in allSizes[k] {
                offsets[nextOffset] = offset
                nextOffset += 1
            }
        }
        self.storage = StripeStorage(
            parts: IndexArray(parts), offsets: IndexArray(adopting: offsets),
            narrowEdges: IndexArray(adopting: narrowEdges), wideEdges: IndexArray(adopting: wideEdges),
            vertices: vertices)
    }

    /// A table of its own over `polygons` (for one shape: ``IndexedPolygon``).
    init(_ polygons: [Polygon]) {
        let shapes = polygons.map { MultiPolygon([$0]) }
        let ranges = LayerVertices.ringRanges(of: shapes)
        self.init(
            vertices: LayerVertices(shapes), parts: ranges.enumerated().map { ($1, Int32($0)) })
    }

    @usableFromInline var count: Int { storage.parts.count }

    /// Location of `p` relative to part `part`, by the even–odd rule over its rings.
    @inlinable
    func locate(_ p: Point, part: Int) -> Location {
        let meta = storage.parts[part]
        guard meta.boundingBox.contains(p) else { return .exterior }
        let range = stripe(of: p.y, in: meta)
        // The edge numbers by their address: a copy of the array would retain its owner.
        return meta.isNarrow
            ? locate(p, edges: storage.narrowEdges.base, range, plus: Int(meta.edgeBase))
            : locate(p, edges: storage.wideEdges.base, range, plus: 0)
    }

    /// Where the edge numbers of the stripe of `y` lie in the part's edge buffer (the stripe
    /// clamped to the part's, so that any y has one).
    @inlinable @inline(__always)
    func stripe(of y: Double, in meta: Part) -> Range<Int> {
        var s = Int((y - meta.boundingBox.minY) * meta.stripesPerUnit)
        if s < 0 { s = 0 } else if s >= meta.stripeCount { s = meta.stripeCount - 1 }
        return Int(storage.offsets[meta.offsetBase + s])..<Int(storage.offsets[meta.offsetBase + s + 1])
    }

    /// Location of `p` by the ray over edges `base + edges[i]` for `i` in `range`.
    @inlinable @inline(__always)
    func locate<Number: FixedWidthInteger>(
        _ p: Point, edges: UnsafePointer<Number>?, _ range: Range<Int>, plus base: Int
    ) -> Location {
        let v = storage.vertices.points
        var counter = RayCrossingCounter(point: p)
        for i in range {
            let e = base + Int(edges.unsafelyUnwrapped[i])
            counter.count(v[e], v[e + 1])
            if counter.isOnBoundary { return .boundary }
        }
        return counter.location
    }

    /// Each edge (its start and end) that part `part` lists in the stripe of `p`'s y, until
    /// `body` returns false: the only edges a horizontal ray from `p` can cross. For a caller
    /// with a crossing rule of its own (the validity proof's, which must tell a certain answer
    /// from a near one).
    func forEachEdge(inStripeOf p: Point, part: Int, _ body: (Point, Point) -> Bool) {
        let meta = storage.parts[part]
        let v = storage.vertices.points
        for i in stripe(of: p.y, in: meta) {
            let e = meta.isNarrow ? Int(meta.edgeBase) + Int(storage.narrowEdges[i]) : Int(storage.wideEdges[i])
            guard body(v[e], v[e + 1]) else { return }
        }
    }

    /// The edge numbers stripe `stripe` of part `part` lists, in order; for tests.
    func edges(of part: Int, stripe: Int) -> [Int] {
        let meta = storage.parts[part]
        let range = Int(storage.offsets[meta.offsetBase + stripe])..<Int(storage.offsets[meta.offsetBase + stripe + 1])
        return meta.isNarrow
            ? storage.narrowEdges[range].map { Int(meta.edgeBase) + Int($0) } : storage.wideEdges[range].map { Int($0) }
    }

    /// Location of `p` relative to the multipolygon made of `parts`: interior of some part is
    /// interior, else on the boundary of some part is boundary (see ``MultiPolygon/locate(_:)``).
    @inlinable
    func locate(_ p: Point, parts range: Range<Int>) -> Location {
        var onBoundary = false
        for part in range {
            switch locate(p, part: part) {
            case .interior: return .interior
            case .boundary: onBoundary = true
            case .exterior: break
            }
        }
        return onBoundary ? .boundary : .exterior
    }

    /// True when some part in `range` covers `p`.
    @inlinable
    func covers(_ p: Point, parts range: Range<Int>) -> Bool {
        for part in range where locate(p, part: part) != .exterior { return true }
        return false
    }

    func boundingBox(of part: Int) -> BoundingBox { storage.parts[part].boundingBox }

    @inlinable
    func feature(of part: Int) -> Int32 { storage.parts[part].feature }

    /// Checks the invariants stated on the type; for tests, and for a stored table read back.
    func checkInvariants() -> Bool {
        let vertexCount = storage.vertices.count
        for part in storage.parts {
            let slice = storage.offsets[part.offsetBase...(part.offsetBase + part.stripeCount)]
            let edgeCount = part.isNarrow ? storage.narrowEdges.count : storage.wideEdges.count
            guard zip(slice, slice.dropFirst()).allSatisfy({ $0 <= $1 }),
                let first = slice.first, let last = slice.last, first >= 0, Int(last) <= edgeCount
            else { return false }
            // The largest edge number decides: one pass, no branch per edge.
            if part.isNarrow {
                let largest = storage.narrowEdges[Int(first)..<Int(last)].reduce(0, Swift.max)
                guard first == last || Int(part.edgeBase) + Int(largest) + 1 < vertexCount else { return false }
            }
        }
        let largest = storage.wideEdges.reduce(0, Swift.max)
        return storage.wideEdges.isEmpty || Int(largest) + 1 < vertexCount
    }
}

/// The stripe of a y in one part: `Int((y - minY) * perUnit)`, clamped to the part's stripes.
private struct Stripes {
    let minY: Double
    let perUnit: Double
    let count: Int

    @inline(__always)
    func of(_ y: Double) -> Int {
        let s = Int((y - minY) * perUnit)
        return s < 0 ? 0 : (s >= count ? count - 1 : s)
    }
}

/// The arrays of a ``StripeTable`` (its own, or where a stored index's bytes hold them) and
/// the vertices its edge numbers refer to. Immutable after `init` (hence safe to share between
/// threads).
@usableFromInline
final class StripeStorage: Sendable {
    @usableFromInline let parts: IndexArray<StripeTable.Part>
    @usableFromInline let offsets: IndexArray<Int32>
    @usableFromInline let narrowEdges: IndexArray<UInt16>
    @usableFromInline let wideEdges: IndexArray<UInt32>
    @usableFromInline let vertices: LayerVertices

    init(
        parts: IndexArray<StripeTable.Part>, offsets: IndexArray<Int32>, narrowEdges: IndexArray<UInt16>,
        wideEdges: IndexArray<UInt32>, vertices: LayerVertices
    ) {
        self.parts = parts
        self.offsets = offsets
        self.narrowEdges = narrowEdges
        self.wideEdges = wideEdges
        self.vertices = vertices
    }
}
