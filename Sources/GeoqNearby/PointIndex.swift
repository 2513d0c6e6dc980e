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
/// Layout: a `NormalTree`, a packed 3-D R-tree over the points' unit surface normals, with
/// each point's Earth-centred coordinates prepared for the short-line formula.
///
/// Complexity: build O(n log n); a nearest-k query visits O(log n + k) nodes on well-spread
/// data, with no trigonometry per node, and solves about k short geodesics (or Karney's
/// inverse problem for lines over 100 km).
public struct PointIndex: Sendable {
    /// The indexed points, item `i` at index `i`.
    public let points: [Point]
    let tree: NormalTree

    /// Builds the index over `points`; item `i` is `points[i]`.
    public init(_ points: [Point]) {
        self.points = points
        tree = NormalTree(
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
    /// Search: best first over the `NormalTree` (Hjaltason and Samet, "Distance Browsing in
    /// Spatial Databases", 1999). Boxes and points are ranked by the squared chord between unit
    /// normals, which bounds the distance from below: with σ the angle between the normals,
    /// every curve from the query to a point is at least R_min·σ long (R_min = b²/a, see
    /// `SphericalBound`). The search stops once the next box's bound passes the k-th hit's
    /// distance plus three tolerances.
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

    /// One entry of the search queue: a box or point of the tree and its squared-chord bound.
    struct QueueEntry: Comparable {
        var key: Double
        var level: Int32
        var entry: Int32

        static func < (a: QueueEntry, b: QueueEntry) -> Bool { a.key < b.key }
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
        let maxMetres = maxMetres ?? .infinity
        let tolerance = Self.distanceTolerance
        let shortLine = ShortGeodesic(latitude: q.y, longitude: q.x)
        let query = shortLine.normal

        // Candidates sorted by (distance, item), all within `cutoff`.
        var candidates: [Candidate] = []
        candidates.reserveCapacity(Swift.min(limit, tree.count) + 8)
        var cutoff = maxMetres + tolerance
        var stopKey = Self.squaredChordBound(metres: cutoff + tolerance)

        // Adds an item with its distance, and tightens the cutoff once `limit` are held.
        func consider(_ candidate: Candidate) {
            guard candidate.distance <= cutoff else { return }
            var at = candidates.count
            while at > 0
                && (candidates[at - 1].distance, candidates[at - 1].item) > (candidate.distance, candidate.item)
            {
                at -= 1
            }
            candidates.insert(candidate, at: at)
            if candidates.count >= limit {
                // Anything more than two tolerances beyond the k-th can neither precede it nor
                // tie with it; finding everything within three covers the k-th's own error.
                cutoff = Swift.min(cutoff, candidates[limit - 1].distance + 2 * tolerance)
                while let last = candidates.last, last.distance > cutoff { candidates.removeLast() }
                stopKey = Self.squaredChordBound(metres: cutoff + tolerance)
            }
        }

        // A point: short lines are solved at once (tens of nanoseconds, cheaper than queueing
        // them); long ones wait in the queue for Karney, which may never be needed.
        var queue = MinHeap<QueueEntry>(capacity: 64)
        // The straight line is shorter than the geodesic: a point whose chord is beyond the
        // cutoff is beyond it too.
        func visit(point j: Int) {
            let position = tree.positions[j]
            let c2 = shortLine.squaredChord(to: position)
            let reach = cutoff + tolerance
            guard c2 <= reach * reach else { return }
            let item = Int(position.w)
            guard include(item) else { return }
            if let distance = shortLine.distance(to: position, squaredChord: c2) {
                consider(Candidate(item: item, distance: distance, karneyBearing: nil, position: j))
            } else {
                let key = Self.squaredChordBound(metres: c2.squareRoot())
                queue.push(QueueEntry(key: key, level: 0, entry: Int32(j)))
            }
        }

        let root = tree.rootLevel
        if root == 0 {
            visit(point: 0)
        } else {
            queue.push(
                QueueEntry(key: tree.squaredDistance(from: query, level: root, entry: 0), level: Int32(root), entry: 0))
        }
        while let next = queue.pop(), next.key <= stopKey {
            let level = Int(next.level), entry = Int(next.entry)
            if level == 0 {
                let item = Int(tree.positions[entry].w)
                let exact = solve(q, points[item])
                consider(Candidate(item: item, distance: exact.distance, karneyBearing: exact.bearing, position: entry))
                continue
            }
            let first = entry * NormalTree.nodeSize
            let end = Swift.min(first + NormalTree.nodeSize, tree.levelCounts[level - 1])
            if level == 1 {
                for j in first..<end { visit(point: j) }
            } else {
                for child in first..<end {
                    let key = tree.squaredDistance(from: query, level: level - 1, entry: child)
                    if key <= stopKey { queue.push(QueueEntry(key: key, level: Int32(level - 1), entry: Int32(child))) }
                }
            }
        }
        return Self.settle(candidates, limit: limit, within: maxMetres) { c in
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

    /// The squared chord between unit normals that no point within `metres` of the query
    /// exceeds: (2 sin(σ/2))² for σ = metres / R_min, plus a margin for rounding (about 10⁻¹⁵
    /// in a squared chord, that is 0.2 m of extra search near the query).
    static func squaredChordBound(metres: Double) -> Double {
        let halfAngle = metres / (2 * SphericalBound.radius)
        guard halfAngle < .pi / 2 else { return .infinity }
        let chord = 2 * sin(halfAngle)
        return chord * chord * (1 + 1e-12) + 1e-15
    }
}
