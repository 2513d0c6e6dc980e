import GeoqCore

/// A static index of points on the WGS84 ellipsoid for nearest-N queries by geodesic distance.
///
/// Contract: built once from all points, then immutable (a value; `Sendable`, so one index
/// can serve many tasks at once). Item `i` is `points[i]` of ``init(_:)``. Points are
/// positions with x = longitude in [-180, 180] and y = latitude in [-90, 90] (degrees); a point
/// outside those ranges, or not finite, is kept in the count but never found.
///
/// Layout: a ``PackedRTree`` (STR-packed, flatbush-like) over degenerate boxes, one per point.
///
/// Complexity: build O(n log n); a nearest-k query visits O(log n + k) nodes on
/// well-spread data and solves about k geodesic inverse problems (each item's exact distance is
/// computed only when the search reaches it, see ``nearest(to:limit:within:where:geodesic:)``).
public struct PointIndex: Sendable {
    /// The indexed points, item `i` at index `i`.
    public let points: [Point]
    let tree: PackedRTree

    /// Builds the index over `points`; item `i` is `points[i]`.
    public init(_ points: [Point]) {
        self.points = points
        tree = PackedRTree(
            boxes: points.map { p in
                Self.isGeographic(p) ? BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) : .empty
            })
    }

    /// Number of items (valid or not).
    public var count: Int { points.count }

    static func isGeographic(_ p: Point) -> Bool {
        p.x.isFinite && p.y.isFinite && (-180...180).contains(p.x) && (-90...90).contains(p.y)
    }

    /// The `limit` items nearest to `q` by geodesic distance on WGS84, nearest first.
    ///
    /// Order: by distance, and items at equal distance by increasing index: exactly the first
    /// `limit` of a brute-force scan sorting every (included) item by (Karney distance, index).
    ///
    /// Search: best first over the R-tree (``PackedRTree/nearest(boxDistance:itemDistance:_:)``).
    /// Boxes and items are ranked by a spherical lower bound of the geodesic distance, never
    /// above it anywhere, across the antimeridian and at the poles included (the bound and its
    /// justification: `SphericalBound`, radius b²/a rounded down to 6,335,000 m per radian, one
    /// haversine for a point); an item's exact distance and bearing (`geodesic`, Karney) are
    /// computed only when it comes to the front of the queue, so only the items whose bound
    /// falls below the k-th answer's distance (about 1 % beyond it) are solved exactly. The
    /// bound only orders the search: every returned distance is the geodesic's.
    ///
    /// - Parameters:
    ///   - q: the query position (x = longitude, y = latitude); an invalid position (outside the
    ///     ranges, or not finite) has no neighbours.
    ///   - limit: the most items to return; 0 or less returns none.
    ///   - maxMetres: when given, only items at a distance ≤ `maxMetres` metres.
    ///   - include: only items for which this returns `true` (it sees item indices; called
    ///     once per item the search reaches, before its distance is computed).
    ///   - geodesic: the geodesic solver (`Geodesic.wgs84` from GeoqPROJ).
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

    @usableFromInline
    func nearest(
        to q: Point, limit: Int, within maxMetres: Double?, where include: (Int) -> Bool,
        solve: (Point, Point) -> (distance: Double, bearing: Double)
    ) -> [NearestHit] {
        guard limit > 0, Self.isGeographic(q), !points.isEmpty else { return [] }
        let bound = SphericalBound(query: q)
        let maxMetres = maxMetres ?? .infinity
        var hits: [NearestHit] = []
        hits.reserveCapacity(Swift.min(limit, points.count))
        // Bearings of the items solved so far (a few more than `limit`): a short linear list.
        var bearings: [(item: Int, bearing: Double)] = []
        bearings.reserveCapacity(limit + 8)
        points.withUnsafeBufferPointer { points in
            tree.nearest(
                boxDistance: { box in
                    // Boxes wholly beyond the radius can hold no answer: rank them last.
                    let d = bound.distance(to: box)
                    return d > maxMetres ? .infinity : d
                },
                itemDistance: { item in
                    guard include(item) else { return .infinity }
                    let solved = solve(q, points[item])
                    bearings.append((item, solved.bearing))
                    return solved.distance
                }
            ) { item, distance in
                // Excluded items come last at infinity, and infinity <= an unset radius (also
                // infinity): only finite distances are hits.
                guard distance.isFinite, distance <= maxMetres else { return false }
                let bearing = bearings.last { $0.item == item }?.bearing ?? 0
                // -0 and 360 both mean north.
                hits.append(NearestHit(item: item, distance: distance, bearing: bearing >= 360 ? 0 : bearing + 0))
                return hits.count < limit
            }
        }
        return hits
    }
}
