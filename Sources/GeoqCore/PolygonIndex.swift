/// A layer of areal features indexed for point queries.
///
/// Point queries go through an R-tree over the *parts* (the polygons of each multipolygon)
/// rather than over whole features: a country with overseas territories has a box spanning
/// half the world, but each of its parts has a tight one. All parts' y-stripe edge indexes
/// live in one ``StripeTable``; nearest-feature queries use a second R-tree over the
/// features' boxes and, per feature, an R-tree over runs of its edges (``BoundaryRuns``).
/// Both refer to edges by number into one ``LayerVertices`` buffer, the only copy of the
/// layer's vertices the index holds.
///
/// Items are identified by their position in the array given to ``init(_:gridFromVertices:)``.
/// Immutable once built, so one index can be shared by any number of concurrent readers.
public struct PolygonIndex: Sendable {
    /// All parts of all items; an item's parts are consecutive.
    @usableFromInline let stripes: StripeTable
    /// Item `i`'s parts are `firstPart[i] ..< firstPart[i + 1]`.
    @usableFromInline let firstPart: [Int]
    @usableFromInline let partTree: PackedRTree
    let itemBoxes: [BoundingBox]
    let itemTree: PackedRTree
    let boundaries: BoundaryRuns
    /// For a layer of at least ``soleCoverGridMinimumVertices`` vertices (the world's time
    /// zones), the cells far from every boundary, each answered by one array read.
    @usableFromInline internal(set) var soleCover: SoleCoverGrid?

    /// Layers smaller than this are answered by the R-tree and stripes alone (a grid would
    /// not pay for its memory and build time).
    public static let soleCoverGridMinimumVertices = 1_000_000

    /// The size from which the boundary runs are built on a thread of their own.
    static let concurrentBuildMinimumVertices = 100_000

    /// - Parameter gridFromVertices: the size from which a ``SoleCoverGrid`` is built (tests
    ///   lower it to compare the grid's answers with the index's on small layers).
    public init(_ shapes: [MultiPolygon], gridFromVertices: Int = PolygonIndex.soleCoverGridMinimumVertices) {
        self.init(withoutGrid: shapes, gridFromVertices: gridFromVertices)
        if wantsGrid(gridFromVertices) { soleCover = soleCoverGrid(of: shapes) }
    }

    /// Everything but the sole-cover grid, with stripes as many as `gridFromVertices` asks for
    /// (fewer when a grid is to come, see ``stripesPerEdgeWithGrid``).
    init(withoutGrid shapes: [MultiPolygon], gridFromVertices: Int) {
        let vertices = LayerVertices(shapes)
        let partRings = LayerVertices.ringRanges(of: shapes)
        let partFeatures = shapes.enumerated().flatMap { item, shape in
            Array(repeating: Int32(item), count: shape.polygons.count)
        }
        let firstPart = shapes.reduce(into: [0]) { $0.append($0.last! + $1.polygons.count) }
        // A large layer's boundary runs are built on a second thread beside the stripes (on
        // Natural Earth a fifth of the build); for a small one a thread costs more than it saves.
        let items = (0..<shapes.count).map { item in partRings[firstPart[item]..<firstPart[item + 1]].flatMap { $0 } }
        let runs =
            vertices.count >= Self.concurrentBuildMinimumVertices
            ? Alongside { BoundaryRuns(vertices: vertices, items: items) } : nil
        stripes = StripeTable(
            vertices: vertices, parts: Array(zip(partRings, partFeatures)),
            stripesPerEdge: vertices.count >= gridFromVertices
                ? Self.stripesPerEdgeWithGrid : StripeTable.defaultStripesPerEdge)
        self.firstPart = firstPart
        partTree = PackedRTree(boxes: (0..<stripes.count).map(stripes.boundingBox(of:)))
        itemBoxes = shapes.map(\.boundingBox)
        itemTree = PackedRTree(boxes: itemBoxes)
        boundaries = runs?.result() ?? BoundaryRuns(vertices: vertices, items: items)
        soleCover = nil
    }

    /// Whether a layer of this index's size gets a ``SoleCoverGrid``.
    func wantsGrid(_ gridFromVertices: Int) -> Bool { stripes.storage.vertices.count >= gridFromVertices }

    /// The sole-cover grid of `shapes`, the shapes this index was built from.
    func soleCoverGrid(of shapes: [MultiPolygon]) -> SoleCoverGrid {
        let (stripes, partTree) = (stripes, partTree)
        // About one cell per two vertices: 4 million cells (16 MB) of 0.13° for the time zones.
        return SoleCoverGrid(
            rings: shapes.flatMap { $0.polygons.flatMap(\.rings) }, box: itemTree.boundingBox,
            cellCount: stripes.storage.vertices.count / 2
        ) { p in
            var items: [Int32] = []
            partTree.search(containing: p) { part in
                let item = stripes.feature(of: part)
                if !items.contains(item) && stripes.locate(p, part: part) != .exterior { items.append(item) }
                return true
            }
            return items
        }
    }

    /// Stripes per edge for a layer large enough for a ``SoleCoverGrid``: the grid answers most
    /// points, so the stripes can be fewer (each edge listed in fewer of them, a smaller index).
    /// On the time zones a quarter of a stripe per edge stores 129 MB where one stored 237 MB.
    static let stripesPerEdgeWithGrid = 0.25

    /// The share of the grid's cells answered without a point-in-polygon test (nil without a grid).
    public var soleCoverShare: Double? { soleCover?.soleShare }

    /// The number of cells of the sole-cover grid (0 without one).
    public var soleCoverCellCount: Int { soleCover?.cells.count ?? 0 }

    /// Number of items.
    public var count: Int { itemBoxes.count }

    /// The extent of all items.
    public var boundingBox: BoundingBox { itemTree.boundingBox }

    public func boundingBox(of item: Int) -> BoundingBox { itemBoxes[item] }

    /// Where `p` lies relative to item `item`.
    @inlinable
    public func locate(_ p: Point, item: Int) -> Location {
        stripes.locate(p, parts: firstPart[item]..<firstPart[item + 1])
    }

    /// Calls `body` once with each item that covers `p` (interior or boundary), in no
    /// particular order. Allocates nothing unless more than 4 items cover the point.
    @inlinable
    public func forEachCovering(_ p: Point, _ body: (Int) -> Void) {
        // The closure uses locals only: capturing `self` would copy the whole index (and
        // retain every array in it) on each query.
        if let item = soleCover?.soleItem(at: p) {
            body(Int(item))
            return
        }
        let stripes = self.stripes
        var reported = SmallInt32Set()
        partTree.search(containing: p) { part in
            let item = stripes.feature(of: part)
            // A feature's parts may touch at the very point; report the feature once.
            if !reported.contains(item) && stripes.locate(p, part: part) != .exterior {
                reported.insert(item)
                body(Int(item))
            }
            return true
        }
    }

    /// The items that cover `p`, in increasing index order.
    public func covering(_ p: Point) -> [Int] {
        var result: [Int] = []
        forEachCovering(p) { result.append($0) }
        return result.sorted()
    }

    /// The first item found that covers `p`, if any: the fast path for layers whose features
    /// do not overlap.
    @inlinable
    public func firstCovering(_ p: Point) -> Int? {
        if let item = soleCover?.soleItem(at: p) { return Int(item) }
        var found: Int?
        let stripes = self.stripes
        partTree.search(containing: p) { part in
            guard stripes.locate(p, part: part) != .exterior else { return true }
            found = Int(stripes.feature(of: part))
            return false
        }
        return found
    }

    /// The point of item `item`'s boundary nearest to `p` under `metric`, and its distance.
    public func nearestBoundaryPoint(to p: Point, item: Int, metric: LocalMetric) -> (point: Point, distance: Double) {
        boundaries.nearestBoundaryPoint(to: p, item: item, metric: metric) ?? (p, .infinity)
    }

    /// Items ordered by the distance from `p` to their boundary under `metric`, nearest first,
    /// at most `limit` of them. Meant for points outside every feature, where that distance is
    /// the distance to the feature.
    public func nearestByBoundary(
        to p: Point, metric: LocalMetric, limit: Int
    ) -> [(item: Int, point: Point, distance: Double)] {
        var result: [(item: Int, point: Point, distance: Double)] = []
        guard limit > 0 else { return result }
        itemTree.nearest(
            boxDistance: { metric.distance(p, $0) },
            itemDistance: { nearestBoundaryPoint(to: p, item: $0, metric: metric).distance }
        ) { item, _ in
            let nearest = nearestBoundaryPoint(to: p, item: item, metric: metric)
            result.append((item, nearest.point, nearest.distance))
            return result.count < limit
        }
        return result
    }
}

/// A set of small integers that lives on the stack up to 4 members (the usual case: a point is
/// in one feature, or on the edge between a few), and spills to an array beyond. Nothing is
/// allocated or reference-counted until it spills.
@usableFromInline
struct SmallInt32Set {
    @usableFromInline var a: Int32 = -1, b: Int32 = -1, c: Int32 = -1, d: Int32 = -1
    @usableFromInline var count = 0
    @usableFromInline var overflow: [Int32]? = nil

    @inlinable init() {}

    @inlinable
    func contains(_ value: Int32) -> Bool {
        value == a || value == b || value == c || value == d || (overflow?.contains(value) ?? false)
    }

    /// Members must be non-negative (-1 marks an empty slot).
    @inlinable
    mutating func insert(_ value: Int32) {
        switch count {
        case 0: a = value
        case 1: b = value
        case 2: c = value
        case 3: d = value
        default: overflow = (overflow ?? []) + [value]
        }
        count += 1
    }
}
