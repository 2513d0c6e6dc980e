import CPrefetch
import GeoqCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A static index of points on the WGS84 ellipsoid for nearest-N queries by geodesic distance.
///
/// Contract: built once from all points, then immutable (a value; `Sendable`, so one index
/// can serve many tasks at once). Item `i` is `points[i]` of ``init(_:)``. Points are
/// positions with x = longitude in [-180, 180] and y = latitude in [-90, 90] (degrees); a point
/// outside those ranges, or not finite, is kept in the count but never found.
///
/// Layout: a `PositionTree`, a packed 3-D R-tree over the points' Earth-centred positions,
/// which are also what the short-line formula starts from.
///
/// Complexity: build O(n log n); a nearest-k query visits O(log n + k) nodes on well-spread
/// data with no trigonometry per node or point, then solves about k geodesics: the short-line
/// formula, or Karney's inverse problem for lines over 100 km.
public struct PointIndex: Sendable {
    /// The indexed points, item `i` at index `i`.
    public let points: [Point]
    let tree: PositionTree

    /// Builds the index over `points`; item `i` is `points[i]`.
    public init(_ points: [Point]) {
        self.points = points
        tree = PositionTree(
            points.indices.compactMap { i in
                Self.isGeographic(points[i]) ? (i, points[i].y, points[i].x) : nil
            })
    }

    /// Number of items (valid or not).
    public var count: Int { points.count }

    static func isGeographic(_ p: Point) -> Bool {
        p.x.isFinite && p.y.isFinite && (-180...180).contains(p.x) && (-90...90).contains(p.y)
    }

    /// How far a hit's distance may be from Karney's, in metres: the short-line formula's
    /// bound (lines over 100 km and near-ties are Karney's own). See `ShortGeodesic`.
    public static let distanceTolerance = ShortGeodesic.distanceError
    /// How far a hit's bearing may be from Karney's, in degrees.
    public static let bearingTolerance = ShortGeodesic.bearingError

    /// The `limit` items nearest to `q` by geodesic distance on WGS84, nearest first.
    ///
    /// Order: by distance, and items at equal distance by increasing index: exactly the first
    /// `limit` of a brute-force scan sorting every (included) item by (Karney distance, index).
    ///
    /// Distances and bearings: lines with a chord up to 100 km take the short-line formula of
    /// `ShortGeodesic`, within ``distanceTolerance`` (0.1 mm) and ``bearingTolerance`` of
    /// Karney's; longer ones, and every item whose rank or inclusion that tolerance could
    /// change (a near-tie with its neighbour, a distance within 0.1 mm of `maxMetres`), are
    /// Karney's (`geodesic`). So the order is always Karney's.
    ///
    /// Search: best first over the `PositionTree` (Hjaltason and Samet, "Distance Browsing in
    /// Spatial Databases", 1999), by the straight-line distance (chord) alone, which bounds the
    /// geodesic from below; `ChordBound` bounds it from above. Once k points are reached, the
    /// k-th chord c_k caps the search at the longest geodesic such a chord allows (plus three
    /// tolerances): farther points cannot be among the answer. Only the points within that cap
    /// (about k near cities: the bound exceeds the chord by 1 mm at 10 km) get a distance.
    ///
    /// - Parameters:
    ///   - q: the query position (x = longitude, y = latitude); an invalid position (outside the
    ///     ranges, or not finite) has no neighbours.
    ///   - limit: the most items to return; 0 or less returns none.
    ///   - maxMetres: when given, only items at a distance ≤ `maxMetres` metres.
    ///   - include: only items for which this returns `true` (it sees item indices; called
    ///     once per item the search reaches, before its distance is computed).
    ///   - geodesic: Karney's solver on WGS84 (`Geodesic.wgs84` from GeoqPROJ).
    /// - Returns: at most `limit` hits, nearest first.
    @inlinable
    public func nearest(
        to q: Point, limit: Int, within maxMetres: Double? = nil, where include: (Int) -> Bool = { _ in true },
        geodesic: some GeodesicSolving
    ) -> [NearestHit] {
        // A thin generic shell over one non-generic search (no generic metadata per query).
        nearest(to: q, limit: limit, within: maxMetres, where: include) { a, b in
            geodesic.distanceAndBearing(from: a, to: b)
        }
    }

    /// One entry of the search queue: a box of the tree and its squared-chord bound.
    struct QueueEntry: Comparable {
        var key: Double
        var level: Int32
        var entry: Int32

        static func < (a: QueueEntry, b: QueueEntry) -> Bool { a.key < b.key }
    }

    /// A point the search found within reach: its squared chord and where it sits in the tree.
    struct Reached {
        var squaredChord: Double
        var position: Int32
    }

    /// A hit in the making: its distance from the short-line formula (bearing to come, from
    /// the tree position) or from Karney (with its bearing).
    struct Candidate {
        var item: Int
        var distance: Double
        /// Karney's bearing, or nil when the distance is the short-line formula's.
        var karneyBearing: Double?
        /// Where the item sits in the tree.
        var position: Int
    }

    @usableFromInline
    func nearest(
        to q: Point, limit: Int, within maxMetres: Double?, where include: (Int) -> Bool,
        solve: (Point, Point) -> (distance: Double, bearing: Double)
    ) -> [NearestHit] {
        guard limit > 0, Self.isGeographic(q), tree.count > 0 else { return [] }
        let tolerance = Self.distanceTolerance
        let shortLine = ShortGeodesic(latitude: q.y, longitude: q.x)
        let query = shortLine.start * SIMD4(1, 1, 1, 0)

        // Phase 1, by chords only. `reached` holds, sorted by chord, every included point whose
        // chord is within `reach`: the k-th of them is at most `longestGeodesic(chord)` away, so
        // a point with a longer chord is farther than k others (three tolerances cover the
        // short-line formula's error, as `settle` needs). A radius caps the reach likewise.
        var reach = (maxMetres ?? .infinity) + 2 * tolerance
        var squaredReach = reach * reach
        var reached: [Reached] = []
        reached.reserveCapacity(Swift.min(limit, tree.count) + 8)

        func visit(point j: Int) {
            let c2 = shortLine.squaredChord(to: tree.positions[j])
            guard c2 <= squaredReach, include(Int(tree.positions[j].w)) else { return }
            var at = reached.count
            while at > 0 && reached[at - 1].squaredChord > c2 { at -= 1 }
            reached.insert(Reached(squaredChord: c2, position: Int32(j)), at: at)
            guard reached.count >= limit else { return }
            let kth = ChordBound.longestGeodesic(chord: reached[limit - 1].squaredChord.squareRoot())
            guard kth + 3 * tolerance < reach else { return }
            reach = kth + 3 * tolerance
            squaredReach = reach * reach
            while let last = reached.last, last.squaredChord > squaredReach { reached.removeLast() }
        }

        let root = tree.rootLevel
        var queue = MinHeap<QueueEntry>(capacity: 64)
        if root == 0 {
            visit(point: 0)
        } else {
            queue.push(
                QueueEntry(key: tree.squaredDistance(from: query, level: root, entry: 0), level: Int32(root), entry: 0))
        }
        while let next = queue.pop(), next.key <= squaredReach {
            let level = Int(next.level), entry = Int(next.entry)
            let first = entry * PositionTree.nodeSize
            let end = Swift.min(first + PositionTree.nodeSize, tree.levelCounts[level - 1])
            if level == 1 {
                for j in first..<end { visit(point: j) }
            } else {
                for child in first..<end {
                    let key = tree.squaredDistance(from: query, level: level - 1, entry: child)
                    if key <= squaredReach {
                        queue.push(QueueEntry(key: key, level: Int32(level - 1), entry: Int32(child)))
                        tree.prefetch(level: level - 1, entry: child)
                    }
                }
            }
        }

        // Phase 2: distances for the few reached, short lines by formula, long ones by Karney.
        var candidates = reached.map { r -> Candidate in
            let position = tree.positions[Int(r.position)]
            let item = Int(position.w)
            if let distance = shortLine.distance(to: position, squaredChord: r.squaredChord) {
                return Candidate(item: item, distance: distance, karneyBearing: nil, position: Int(r.position))
            }
            let exact = solve(q, points[item])
            return Candidate(
                item: item, distance: exact.distance, karneyBearing: exact.bearing, position: Int(r.position))
        }
        candidates.sort { ($0.distance, $0.item) < ($1.distance, $1.item) }
        return Self.settle(candidates, limit: limit, within: maxMetres ?? .infinity) { c in
            if let bearing = c.karneyBearing { return bearing }
            return shortLine.bearing(to: tree.positions[c.position])
        } karney: {
            solve(q, points[$0])
        }
    }

    /// The final answer from the candidates (sorted by distance, all the search found within
    /// reach of the k-th): Karney decides near-ties and the radius, then the first `limit`,
    /// with their bearings.
    static func settle(
        _ candidates: [Candidate], limit: Int, within maxMetres: Double,
        bearing: (Candidate) -> Double, karney: (Int) -> (distance: Double, bearing: Double)
    ) -> [NearestHit] {
        var candidates = candidates
        let tolerance = distanceTolerance
        var needsKarney = [Bool](repeating: false, count: candidates.count)
        for i in candidates.indices {
            if i > 0 && candidates[i].distance - candidates[i - 1].distance <= 2 * tolerance {
                needsKarney[i] = true
                needsKarney[i - 1] = true
            }
            if candidates[i].distance > maxMetres - tolerance { needsKarney[i] = true }
        }
        for i in candidates.indices where needsKarney[i] && candidates[i].karneyBearing == nil {
            let exact = karney(candidates[i].item)
            candidates[i].distance = exact.distance
            candidates[i].karneyBearing = exact.bearing
        }
        // Values more than two tolerances apart keep their order whichever of the two
        // computations gave them, so one sort by the mixed values is Karney's order.
        candidates.sort { ($0.distance, $0.item) < ($1.distance, $1.item) }
        return candidates.prefix { $0.distance <= maxMetres }.prefix(limit).map { c in
            let b = bearing(c)
            // -0 and 360 both mean north.
            return NearestHit(item: c.item, distance: c.distance, bearing: b >= 360 ? 0 : b + 0)
        }
    }
}
