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
    /// Item `i` prepared for ``GeoqCore/KarneyGeodesic/wgs84`` (its reduced latitude worked out
    /// once), so that a long line from a query costs one solve and no set-up of its far end.
    let karneyEnds: [KarneyGeodesic.Endpoint]

    /// Builds the index over `points`; item `i` is `points[i]`.
    public init(_ points: [Point]) {
        self.points = points
        tree = PositionTree(
            points.indices.compactMap { i in
                Self.isGeographic(points[i]) ? (i, points[i].y, points[i].x) : nil
            })
        let karney = KarneyGeodesic.wgs84
        karneyEnds = points.map { karney.endpoint($0) }
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
    /// Karney's; longer ones are Karney's (`geodesic`), with geoq's own solver by its
    /// second-order last step (within a nanometre and 3.3·10⁻⁹ rad of the full solution, one
    /// evaluation of the line fewer on most); every item whose rank or inclusion those
    /// tolerances could change (a near-tie with its neighbour, a distance within 0.1 mm of
    /// `maxMetres`) is Karney's full solution. So the order is always Karney's.
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
        if let karney = geodesic as? KarneyGeodesic {
            return nearest(to: q, limit: limit, within: maxMetres, where: include, karney: karney)
        }
        return nearest(to: q, limit: limit, within: maxMetres, where: include) { item, _ in
            geodesic.distanceAndBearing(from: q, to: points[item])
        }
    }

    /// The search with geoq's own Karney solver: on WGS84 from the prepared ends.
    @usableFromInline
    func nearest(
        to q: Point, limit: Int, within maxMetres: Double?, where include: (Int) -> Bool, karney: KarneyGeodesic
    ) -> [NearestHit] {
        nearest(to: q, limit: limit, within: maxMetres, where: include, karney: karney, rankingStep: .secondOrder)
    }

    /// The same, the long lines ranked with their last Newton step taken by `rankingStep`
    /// (the benchmark's peer takes ``KarneyGeodesic/LastStep/firstOrder``, as a single line does).
    package func nearest(
        to q: Point, limit: Int, within maxMetres: Double?, where include: (Int) -> Bool, karney: KarneyGeodesic,
        rankingStep: KarneyGeodesic.LastStep
    ) -> [NearestHit] {
        guard karney.hasSameEllipsoid(as: .wgs84) else {
            return nearest(to: q, limit: limit, within: maxMetres, where: include) { item, _ in
                karney.distanceAndBearing(from: q, to: points[item])
            }
        }
        // The query's end is prepared at the first long line (near a city there is none).
        var start: KarneyGeodesic.Endpoint?
        return karneyEnds.withUnsafeBufferPointer { ends in
            nearest(to: q, limit: limit, within: maxMetres, where: include) { item, exact in
                let from = start ?? karney.endpoint(q)
                start = from
                // Ranking takes the last Newton step by the second-order correction (one
                // evaluation fewer on most lines); a near-tie is solved again in full.
                let line = karney.solve(from, ends[item], lastStep: exact ? .firstOrder : rankingStep)
                // The bearing from the azimuth's sine and cosine by the branch-free arctangent
                // (within 10⁻¹³° of atan2's).
                let bearing = ShortGeodesic.azimuth(east: line.salp1, north: line.calp1) * (180 / .pi)
                return (line.distance, bearing >= 360 ? bearing - 360 : bearing)
            }
        }
    }

    /// A hit in the making: its distance from the short-line formula (bearing to come, from
    /// what the formula kept of the line) or from Karney (with its bearing).
    struct Candidate {
        var item: Int
        var distance: Double
        /// Karney's bearing, or nil when the distance is the short-line formula's.
        var karneyBearing: Double?
        /// The short line, for its bearing (unused once `karneyBearing` is set).
        var line: ShortGeodesic.Line
        /// Whether distance and bearing are Karney's full solution; else the short-line
        /// formula's or Karney's by the second-order last step, within ``distanceTolerance``.
        var exact: Bool
    }

    @usableFromInline
    func nearest(
        to q: Point, limit: Int, within maxMetres: Double?, where include: (Int) -> Bool,
        solve: (_ item: Int, _ exact: Bool) -> (distance: Double, bearing: Double)
    ) -> [NearestHit] {
        guard limit > 0, Self.isGeographic(q), tree.count > 0 else { return [] }
        let tolerance = Self.distanceTolerance
        let shortLine = ShortGeodesic(latitude: q.y, longitude: q.x)

        // Phase 1, by chords only: every included point that can be among the answer (three
        // tolerances cover the short-line formula's error, as `settle` needs; a radius caps
        // the reach likewise). The rest on what it lends.
        var hits: [NearestHit] = []
        // The closure sees the rows and the prepared ends as lent buffers: had it captured
        // `self`, the index would be copied for it, a retain and a release of each of its arrays.
        tree.leafRows.withUnsafeBufferPointer { rows in
            karneyEnds.withUnsafeBufferPointer { ends in
                tree.pointsWithinReach(
                    of: shortLine.start, limit: limit, reach: (maxMetres ?? .infinity) + 2 * tolerance,
                    margin: 3 * tolerance, where: include
                ) { reached in
                    // The candidates and the long lines in room lent for the query (on the
                    // stack when small): an array would cost an allocation and a look-up of
                    // its type's metadata, every query.
                    withUnsafeTemporaryAllocation(of: Candidate.self, capacity: reached.count) { candidates in
                        withUnsafeTemporaryAllocation(of: LongLine.self, capacity: reached.count) { long in
                            hits = Self.answer(
                                reached: reached, rows: rows, ends: ends, candidates: candidates, long: long,
                                limit: limit, within: maxMetres ?? .infinity, shortLine: shortLine, solve: solve)
                        }
                    }
                }
            }
        }
        return hits
    }

    /// Phases 2 to 4 of a search, on the points phase 1 `reached` (by increasing chord), in
    /// `candidates` and `long`, room for as many uninitialized entries as there are points.
    ///
    /// Phase 2: distances for the points reached, short lines by formula; long ones wait.
    /// Phase 3: Karney for the long lines, by increasing chord (the order they were reached
    /// in), each only if its lower bound is within the k-th distance known (three tolerances,
    /// as in phase 1); once a chord passes it, so do all later ones. The k-th only falls, so
    /// every line passed over is farther than k others. Phase 4: ``settle(_:limit:within:shortLine:karney:)``.
    @inline(__always)
    static func answer(
        reached: UnsafeBufferPointer<PositionTree.Reached>, rows: UnsafeBufferPointer<SIMD8<Double>>,
        ends: UnsafeBufferPointer<KarneyGeodesic.Endpoint>, candidates: UnsafeMutableBufferPointer<Candidate>,
        long: UnsafeMutableBufferPointer<LongLine>, limit: Int, within maxMetres: Double, shortLine: ShortGeodesic,
        solve: (_ item: Int, _ exact: Bool) -> (distance: Double, bearing: Double)
    ) -> [NearestHit] {
        let tolerance = distanceTolerance
        var count = 0, longCount = 0
        for r in reached {
            let position = PositionTree.position(at: Int(r.position), in: rows)
            let item = Int(r.item)
            if let line = shortLine.line(to: position, squaredChord: r.squaredChord) {
                (candidates.baseAddress! + count).initialize(
                    to: Candidate(item: item, distance: line.distance, karneyBearing: nil, line: line, exact: false))
                count += 1
            } else {
                (long.baseAddress! + longCount).initialize(
                    to: LongLine(squaredChord: r.squaredChord, item: item, position: Int(r.position)))
                longCount += 1
                // Its prepared Karney end, read in phase 3, is somewhere in 9 MB: start fetching.
                geoq_prefetch(ends.baseAddress! + item)
            }
        }
        if longCount > 0 {
            var known = KSmallest(limit: limit, values: candidates[..<count].lazy.map(\.distance))
            let cap = maxMetres + 2 * tolerance
            for line in long[..<longCount] {
                let farthest = Swift.min(known.kth + 3 * tolerance, cap)
                guard line.squaredChord <= farthest * farthest else { break }
                let bound = shortestGeodesic(
                    from: shortLine.start, to: PositionTree.position(at: line.position, in: rows),
                    squaredChord: line.squaredChord)
                guard bound <= farthest else { continue }
                let solved = solve(line.item, false)
                (candidates.baseAddress! + count).initialize(
                    to: Candidate(
                        item: line.item, distance: solved.distance, karneyBearing: solved.bearing, line: noLine,
                        exact: false))
                count += 1
                known.insert(solved.distance)
            }
        }
        return settle(
            UnsafeMutableBufferPointer(rebasing: candidates[..<count]), limit: limit, within: maxMetres,
            shortLine: shortLine
        ) { solve($0, true) }
    }

    /// A reached point beyond the short-line formula, waiting for Karney.
    struct LongLine {
        var squaredChord: Double
        var item: Int
        /// Where the item sits in the tree.
        var position: Int
    }

    /// The line of a candidate whose distance and bearing are Karney's.
    static let noLine = ShortGeodesic.Line(
        distance: .nan, east: .nan, north: .nan, squaredChord: .nan, squaredSineOfMeanLatitude: .nan)

    /// A lower bound of the geodesic distance in metres between two prepared positions whose
    /// squared chord is `c2`, for lines beyond the short-line formula: the largest of three.
    ///
    /// - The chord.
    /// - b·σ, where σ is the angle between the ends' reduced-latitude directions (x/a, y/a,
    ///   z/b). The linear map (x, y, z) ↦ (x·b/a, y·b/a, z) takes the ellipsoid onto the sphere
    ///   of radius b, the point at reduced latitude β and longitude λ to b·(cos β cos λ, cos β
    ///   sin λ, sin β), and shortens every vector (its factors are b/a and 1), so the
    ///   geodesic's image is a curve on that sphere between those two points no longer than the
    ///   geodesic, and no shorter than their great-circle distance b·σ. It is within the
    ///   flattening (0.34 %) of the geodesic, where the chord falls short by c³/(24R²) (130 km
    ///   at 5,000 km).
    /// - For chords up to 10,000 km, Lambert's formula lowered by ``lambertMargin``: the
    ///   geodesic to first order in the flattening from the same σ and reduced latitudes,
    ///   a (σ − f/2 (X + Y)) with X = (σ − sin σ) sin²P cos²Q / cos²(σ/2) and Y = (σ + sin σ)
    ///   cos²P sin²Q / sin²(σ/2), P and Q the half sum and half difference of the reduced
    ///   latitudes (so sin P cos Q and cos P sin Q are the half sum and half difference of
    ///   z/b). What it leaves out is of order f² (1.1·10⁻⁵ of the length); measured against
    ///   Karney on two million lines, it is never more than 2.2·10⁻⁶ too long for such
    ///   chords (under 10⁻⁶ for lines under 10,000 km). So the bound sits within about
    ///   2·10⁻⁵ of the geodesic, where b·σ can be 3.4·10⁻³ short: most far candidates are
    ///   rejected without a solve.
    @inline(__always)
    static func shortestGeodesic(
        from a: EllipsoidPosition, to b: EllipsoidPosition, squaredChord c2: Double
    ) -> Double {
        let chord = c2.squareRoot()
        guard chord > ShortGeodesic.maximumChord else { return chord }
        let scale = SIMD4<Double>(1 / ShortGeodesic.a, 1 / ShortGeodesic.a, 1 / ShortGeodesic.b, 0)
        let ua = a * scale, ub = b * scale
        let d = ua - ub
        let half = Swift.min(1, (d * d).sum().squareRoot() / 2)
        let sigma = 2 * asin(half)
        // 10⁻¹² for the rounding of the positions and of asin.
        let proven = Swift.max(chord, ShortGeodesic.b * sigma * (1 - 1e-12))
        guard chord <= ChordBound.longestChord else { return proven }
        let cos2Half = 1 - half * half
        let sinSigma = 2 * half * cos2Half.squareRoot()
        let sinPcosQ = (ua.z + ub.z) / 2, cosPsinQ = (ub.z - ua.z) / 2
        let x = (sigma - sinSigma) * sinPcosQ * sinPcosQ / cos2Half
        let y = (sigma + sinSigma) * cosPsinQ * cosPsinQ / (half * half)
        let lambert = ShortGeodesic.a * (sigma - ShortGeodesic.f / 2 * (x + y))
        return Swift.max(proven, lambert * (1 - lambertMargin))
    }

    /// How far below Lambert's formula ``shortestGeodesic(from:to:squaredChord:)`` stays, as a
    /// fraction of the length: twice the order of what the formula leaves out (f² = 1.1·10⁻⁵),
    /// nine times the most it was measured too long.
    static let lambertMargin = 2e-5

    /// The final answer from the candidates (all the search found within reach of the k-th,
    /// in any order): Karney decides near-ties and the radius, then the first `limit`, with
    /// their bearings. The candidates are sorted in place.
    static func settle(
        _ candidates: UnsafeMutableBufferPointer<Candidate>, limit: Int, within maxMetres: Double,
        shortLine: ShortGeodesic, karney: (Int) -> (distance: Double, bearing: Double)
    ) -> [NearestHit] {
        let tolerance = distanceTolerance
        sortByDistance(candidates)
        // A value within two tolerances of a neighbour's, or of the radius, could rank
        // differently from Karney's: replace it. Neighbours are compared by the values first
        // computed, as the rank those allow is what is in doubt.
        var previous = -Double.infinity
        var replaced = false
        for i in candidates.indices {
            let distance = candidates[i].distance
            let next = i + 1 < candidates.count ? candidates[i + 1].distance : .infinity
            if !candidates[i].exact
                && (distance - previous <= 2 * tolerance || next - distance <= 2 * tolerance
                    || distance > maxMetres - tolerance)
            {
                let exact = karney(candidates[i].item)
                candidates[i].distance = exact.distance
                candidates[i].karneyBearing = exact.bearing
                candidates[i].exact = true
                replaced = true
            }
            previous = distance
        }
        // Values more than two tolerances apart keep their order whichever of the two
        // computations gave them, so one sort by the mixed values is Karney's order.
        if replaced { sortByDistance(candidates) }
        var count = 0
        while count < Swift.min(limit, candidates.count) && candidates[count].distance <= maxMetres { count += 1 }
        // The bearings in a loop of their own, inlined: each is a chain of dependent steps, and
        // the processor overlaps the chains of consecutive hits.
        return [NearestHit](unsafeUninitializedCapacity: count) { hits, initialized in
            for i in 0..<count {
                let c = candidates[i]
                let b = c.karneyBearing ?? shortLine.bearing(of: c.line)
                // -0 and 360 both mean north.
                (hits.baseAddress! + i).initialize(
                    to: NearestHit(item: c.item, distance: c.distance, bearing: b >= 360 ? 0 : b + 0))
            }
            initialized = count
        }
    }

    /// Sorts by (distance, item) in place: insertion sort, as there are about `limit`
    /// candidates, already nearly in order (they come sorted by chord).
    static func sortByDistance(_ c: UnsafeMutableBufferPointer<Candidate>) {
        guard c.count > 1 else { return }
        for i in 1..<c.count {
            let moving = c[i]
            var at = i
            while at > 0
                && (c[at - 1].distance > moving.distance
                    || (c[at - 1].distance == moving.distance && c[at - 1].item > moving.item))
            {
                c[at] = c[at - 1]
                at -= 1
            }
            c[at] = moving
        }
    }
}
