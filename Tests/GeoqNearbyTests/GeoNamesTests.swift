import Foundation
import GeoqCore
import GeoqNearby
import GeoqPROJ
import GeoqTestSupport
import Testing

/// Nearest-10 over the real GeoNames cities500 (234,908 places), against brute force.
///
/// A full brute force (Karney to every city) costs about a quarter of a second per query, so
/// it runs on the first 24 queries only. The other queries use a brute force with a prefilter
/// that cannot change its answer: with σ the central angle between geodetic normals,
/// R_lower · σ ≤ s ≤ R_upper · σ for every WGS84 geodesic of length s (R_lower = b²/a and
/// R_upper = a²/b are the smallest and largest radii of curvature; both inequalities are also
/// checked on GeodTest-short in ``ChordBoundTests``). If σ₁₀ is the 10th smallest angle,
/// ten cities lie within R_upper · σ₁₀, so no city with R_lower · σ > R_upper · σ₁₀ can be
/// among the ten nearest, nor tie with the 10th: Karney runs only on the cities with
/// σ ≤ σ₁₀ · R_upper / R_lower (about 1 % farther than the 10th). The angles come from chord
/// lengths between unit vectors (well-conditioned at any distance), with a margin of 10⁻¹²
/// on the chord for rounding. The 24 full queries also check the prefilter itself.
@Suite struct GeoNamesTests {
    static let file = TestData.external("geonames/cities500.json")
    static let available = FileManager.default.fileExists(atPath: file.path)
    /// a²/b of WGS84 rounded up: no geodesic is longer than this many metres per radian of σ.
    static let upperRadius = 6_399_594.0
    /// b²/a of WGS84 rounded down (the index uses 6,335,000).
    static let lowerRadius = 6_335_439.0

    /// The cities, ordered by geonameid (item i is the i-th smallest id).
    static let cities: [Point] = {
        guard available, let data = try? Data(contentsOf: file),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        var rows: [(id: Int, point: Point)] = []
        rows.reserveCapacity(json.count)
        for (key, value) in json {
            guard let city = value as? [String: Any], let lat = city["latitude"] as? Double,
                let lon = city["longitude"] as? Double, let id = Int(key)
            else { continue }
            rows.append((id, Point(latitude: lat, longitude: lon)))
        }
        rows.sort { $0.id < $1.id }
        return rows.map(\.point)
    }()

    static let index = PointIndex(cities)

    /// Unit vectors of the geodetic normals, for the prefilter (x, y, z in three arrays: plain
    /// doubles stay fast in a debug build).
    static let normals: (x: [Double], y: [Double], z: [Double]) = (
        cities.map { normal($0).x }, cities.map { normal($0).y }, cities.map { normal($0).z }
    )

    static func normal(_ p: Point) -> (x: Double, y: Double, z: Double) {
        let lat = p.y * .pi / 180, lon = p.x * .pi / 180
        return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }

    /// 300 queries uniform on the sphere, seed 500.
    static let queries: [Point] = {
        var rng = SeededRandom(seed: 500)
        return (0..<300).map { _ in rng.pointOnSphere() }
    }()

    static let limit = 10
    static let fullCount = 24

    /// The brute force with the safe prefilter described above.
    static func prefilteredBruteForce(_ q: Point) -> [NearestHit] {
        let n = normal(q)
        var best: [Double] = []  // the `limit` smallest squared chords, ascending
        var chords = [Double](repeating: 0, count: cities.count)
        normals.x.withUnsafeBufferPointer { xs in
            normals.y.withUnsafeBufferPointer { ys in
                normals.z.withUnsafeBufferPointer { zs in
                    chords.withUnsafeMutableBufferPointer { chords in
                        for i in 0..<xs.count {
                            let dx = xs[i] - n.x, dy = ys[i] - n.y, dz = zs[i] - n.z
                            let c = dx * dx + dy * dy + dz * dz
                            chords[i] = c
                            guard best.count < limit || c < best[limit - 1] else { continue }
                            if best.count == limit { best.removeLast() }
                            var at = best.count
                            while at > 0 && best[at - 1] > c { at -= 1 }
                            best.insert(c, at: at)
                        }
                    }
                }
            }
        }
        let sigma10 = 2 * asin(min(1, best[best.count - 1].squareRoot() / 2))
        let sigmaMax = sigma10 * upperRadius / lowerRadius
        let chordMax = sigmaMax >= .pi ? 2 : 2 * sin(sigmaMax / 2) + 1e-12
        var hits: [NearestHit] = []
        for i in chords.indices where chords[i] <= chordMax * chordMax {
            let r = Geodesic.wgs84.distanceAndBearing(from: q, to: cities[i])
            hits.append(NearestHit(item: i, distance: r.distance, bearing: r.bearing))
        }
        hits.sort { ($0.distance, $0.item) < ($1.distance, $1.item) }
        return Array(hits.prefix(limit))
    }

    @Test(.enabled(if: available, "GeoNames not fetched: run tools/fetch-benchmark-data.sh geonames"))
    func citiesAreAllThere() {
        #expect(Self.cities.count == 234_908)
        #expect(Self.index.count == 234_908)
    }

    /// Full brute force: Karney to all 234,908 cities, for the first 24 queries (4 chunks, so
    /// they run in parallel).
    @Test(
        .enabled(if: available, "GeoNames not fetched: run tools/fetch-benchmark-data.sh geonames"),
        arguments: 0..<4)
    func nearestTenMatchesFullBruteForce(chunk: Int) {
        let size = Self.fullCount / 4
        var agree = 0
        for q in Self.queries[(chunk * size)..<((chunk + 1) * size)] {
            let expected = BruteForce.nearest(Self.cities, to: q, limit: Self.limit)
            let hits = Self.index.nearest(to: q, limit: Self.limit, geodesic: Geodesic.wgs84)
            #expect(hits.agrees(with: expected), "query \(q)")
            #expect(Self.prefilteredBruteForce(q) == expected, "the prefilter must not change the answer: \(q)")
            if hits.agrees(with: expected) { agree += 1 }
        }
        #expect(agree == size)
    }

    /// The other 276 queries against the prefiltered brute force.
    @Test(
        .enabled(if: available, "GeoNames not fetched: run tools/fetch-benchmark-data.sh geonames"),
        arguments: 0..<4)
    func nearestTenMatchesPrefilteredBruteForce(chunk: Int) {
        let rest = Array(Self.queries[Self.fullCount...])
        let size = (rest.count + 3) / 4
        var agree = 0, total = 0
        for q in rest[(chunk * size)..<min(rest.count, (chunk + 1) * size)] {
            let hits = Self.index.nearest(to: q, limit: Self.limit, geodesic: Geodesic.wgs84)
            #expect(hits.count == Self.limit)
            let expected = Self.prefilteredBruteForce(q)
            #expect(hits.agrees(with: expected), "query \(q)")
            if hits.agrees(with: expected) { agree += 1 }
            total += 1
        }
        #expect(agree == total)
    }

    /// The same 300 queries with geoq's own Karney for the long lines (the service's solver).
    @Test(
        .enabled(if: available, "GeoNames not fetched: run tools/fetch-benchmark-data.sh geonames"),
        arguments: 0..<4)
    func ownKarneyMatchesPrefilteredBruteForce(chunk: Int) {
        let size = (Self.queries.count + 3) / 4
        for q in Self.queries[(chunk * size)..<min(Self.queries.count, (chunk + 1) * size)] {
            let hits = Self.index.nearest(to: q, limit: Self.limit, geodesic: KarneyGeodesic.wgs84)
            #expect(hits.agrees(with: Self.prefilteredBruteForce(q)), "query \(q)")
        }
    }
}
