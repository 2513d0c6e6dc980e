import GeoqCore
import GeoqNearby
import GeoqPROJ
import GeoqTestSupport
import Testing

@Suite struct PointIndexTests {
    let wgs84 = Geodesic.wgs84

    func items(_ hits: [NearestHit]) -> [Int] { hits.map(\.item) }

    @Test func emptyIndexAndLimitZeroGiveNothing() {
        #expect(PointIndex([]).nearest(to: Point(x: 0, y: 0), limit: 5, geodesic: wgs84).isEmpty)
        let index = PointIndex([Point(x: 1, y: 1), Point(x: 2, y: 2)])
        #expect(index.nearest(to: Point(x: 0, y: 0), limit: 0, geodesic: wgs84).isEmpty)
        #expect(index.nearest(to: Point(x: 0, y: 0), limit: -3, geodesic: wgs84).isEmpty)
    }

    @Test func invalidQueryOrPointsAreNeverAnswered() {
        let index = PointIndex([
            Point(x: 1, y: 1), Point(x: .nan, y: 0), Point(x: 0, y: 91), Point(x: 200, y: 0), Point(x: 2, y: 2),
        ])
        #expect(index.count == 5)
        #expect(items(index.nearest(to: Point(x: 0, y: 0), limit: 10, geodesic: wgs84)) == [0, 4])
        #expect(index.nearest(to: Point(x: 0, y: 95), limit: 10, geodesic: wgs84).isEmpty)
        #expect(index.nearest(to: Point(x: .infinity, y: 0), limit: 10, geodesic: wgs84).isEmpty)
    }

    /// A tree of one point (the others invalid): the filter sees that point's own index.
    @Test func aLonePointIsFilteredByItsOwnIndex() {
        let index = PointIndex([Point(x: .nan, y: 0), Point(x: 0, y: 91), Point(x: 2, y: 2)])
        let q = Point(x: 0, y: 0)
        #expect(items(index.nearest(to: q, limit: 3, where: { $0 == 2 }, geodesic: wgs84)) == [2])
        #expect(index.nearest(to: q, limit: 3, where: { $0 == 0 }, geodesic: wgs84).isEmpty)
    }

    /// Expected values written out: at the equator, 1° of longitude is 111,319.491 m and 1° of
    /// latitude 110,574.389 m.
    @Test func distancesAndBearingsAreKarneys() throws {
        let index = PointIndex([
            Point(latitude: 0, longitude: 1), Point(latitude: 1, longitude: 0), Point(latitude: 0, longitude: -2),
            Point(latitude: -0.5, longitude: 0),
        ])
        let hits = index.nearest(to: Point(latitude: 0, longitude: 0), limit: 4, geodesic: wgs84)
        try #require(items(hits) == [3, 1, 0, 2])
        #expect(abs(hits[1].distance - 110_574.389) < 0.001)
        #expect(abs(hits[2].distance - 111_319.491) < 0.001)
        #expect(abs(hits[3].distance - 222_638.982) < 0.001)
        #expect(hits.map(\.bearing) == [180, 0, 90, 270])
    }

    /// Across the antimeridian, written out: from -179.995, the point at -179.99 is 0.005°
    /// away (east), 179.99 0.015° (west), 179.9 0.105° and -179 0.995°; from 179.995, 179.99
    /// is 0.005° away (west), -179.99 0.015° (east), 179.9 0.095°, -179 1.005°.
    @Test(arguments: [
        (-179.995, [1, 0, 2, 3], [0.005, 0.015], [90.0, 270.0]),
        (179.995, [0, 1, 2, 3], [0.005, 0.015], [270.0, 90.0]),
    ])
    func antimeridianNeighboursAreNear(
        queryLongitude: Double, expected: [Int], degrees: [Double], bearings: [Double]
    ) throws {
        let points = [
            Point(latitude: 0, longitude: 179.99), Point(latitude: 0, longitude: -179.99),
            Point(latitude: 0, longitude: 179.9), Point(latitude: 0, longitude: -179),
        ]
        let hits = PointIndex(points).nearest(
            to: Point(latitude: 0, longitude: queryLongitude), limit: 4, geodesic: wgs84)
        try #require(items(hits) == expected)
        #expect(abs(hits[0].distance - degrees[0] * 111_319.491) < 0.01)
        #expect(abs(hits[1].distance - degrees[1] * 111_319.491) < 0.01)
        #expect(abs(hits[0].bearing - bearings[0]) < 1e-9)
        #expect(abs(hits[1].bearing - bearings[1]) < 1e-9)
    }

    /// Many points on both sides of the antimeridian: the index must match brute force.
    @Test(arguments: [179.995, -179.995, 180, -180])
    func antimeridianMatchesBruteForce(queryLongitude: Double) {
        var rng = SeededRandom(seed: 180)
        var points: [Point] = []
        for _ in 0..<400 {
            let side = rng.uniform(0...1) < 0.5 ? 179.99 : -179.99
            points.append(Point(latitude: rng.uniform(-1...1), longitude: side))
            points.append(Point(latitude: rng.uniform(-60...60), longitude: rng.uniform(-180...180)))
        }
        let index = PointIndex(points)
        for lat in [-0.5, 0, 0.3, 0.99] {
            let q = Point(latitude: lat, longitude: queryLongitude)
            let hits = index.nearest(to: q, limit: 15, geodesic: wgs84)
            #expect(hits.agrees(with: BruteForce.nearest(points, to: q, limit: 15)))
            #expect(hits.allSatisfy { $0.distance < 250_000 }, "across the antimeridian, not round the world")
        }
    }

    /// Points around the north pole at many longitudes; queries at and near the pole.
    @Test(arguments: [(90.0, 0.0), (89.99, 45.0), (89.95, -179.9), (89.9, 10.0), (-90.0, 0.0)])
    func polesMatchBruteForce(latitude: Double, longitude: Double) {
        var points: [Point] = []
        for i in 0..<72 { points.append(Point(latitude: 89.9, longitude: -180 + Double(i) * 5)) }
        var rng = SeededRandom(seed: 90)
        for _ in 0..<300 {
            points.append(Point(latitude: rng.uniform(89.5...90), longitude: rng.uniform(-180...180)))
            points.append(Point(latitude: rng.uniform(-90 ... -89.5), longitude: rng.uniform(-180...180)))
        }
        points.append(Point(latitude: 90, longitude: 0))
        let q = Point(latitude: latitude, longitude: longitude)
        let index = PointIndex(points)
        #expect(
            index.nearest(to: q, limit: 20, geodesic: wgs84).agrees(with: BruteForce.nearest(points, to: q, limit: 20)))
        // The whole order, every item.
        #expect(
            index.nearest(to: q, limit: points.count, geodesic: wgs84)
                .agrees(with: BruteForce.nearest(points, to: q, limit: points.count)))
    }

    /// Equal distances come out in index order, whatever the tree order: duplicates first.
    @Test func tiesAreBrokenByIndex() {
        let here = Point(latitude: 42.81, longitude: -1.64)
        var points = (0..<40).map { i in Point(latitude: 42.8 + Double(i % 7) * 0.001, longitude: -1.6) }
        points += [here, here, here]  // items 40, 41, 42
        points.insert(here, at: 3)  // item 3; the rest shift by one
        let hits = PointIndex(points).nearest(to: here, limit: 6, geodesic: wgs84)
        #expect(Array(items(hits).prefix(4)) == [3, 41, 42, 43])
        #expect(hits.prefix(4).allSatisfy { $0.distance == 0 })
        #expect(hits == BruteForce.nearest(points, to: here, limit: 6))
    }

    @Test func withinKeepsOnlyTheRadius() throws {
        var rng = SeededRandom(seed: 7)
        let points = (0..<3000).map { _ in Point(latitude: rng.uniform(42...43), longitude: rng.uniform(-2...(-1))) }
        let index = PointIndex(points)
        let q = Point(latitude: 42.5, longitude: -1.5)
        for radius in [0.0, 500, 2_000, 10_000, 50_000] {
            let hits = index.nearest(to: q, limit: 100, within: radius, geodesic: wgs84)
            #expect(hits.agrees(with: BruteForce.nearest(points, to: q, limit: 100, within: radius)))
            #expect(hits.allSatisfy { $0.distance <= radius })
        }
        #expect(index.nearest(to: q, limit: 5, within: 2_000, geodesic: wgs84).count == 5)
        let exact = try #require(index.nearest(to: q, limit: 1, geodesic: wgs84).first)
        #expect(items(index.nearest(to: q, limit: 3, within: exact.distance, geodesic: wgs84)) == [exact.item])
    }

    @Test func whereFiltersItems() {
        var rng = SeededRandom(seed: 8)
        let points = (0..<2000).map { _ in rng.pointOnSphere() }
        let index = PointIndex(points)
        for _ in 0..<20 {
            let q = rng.pointOnSphere()
            let hits = index.nearest(to: q, limit: 12, where: { $0 % 3 == 1 }, geodesic: wgs84)
            #expect(hits.agrees(with: BruteForce.nearest(points, to: q, limit: 12, where: { $0 % 3 == 1 })))
            #expect(hits.allSatisfy { $0.item % 3 == 1 })
        }
        #expect(index.nearest(to: Point(x: 0, y: 0), limit: 5, where: { _ in false }, geodesic: wgs84).isEmpty)
        let both = index.nearest(
            to: Point(x: 0, y: 0), limit: 50, within: 3_000_000, where: { $0 < 1000 }, geodesic: wgs84)
        #expect(
            both.agrees(
                with: BruteForce.nearest(
                    points, to: Point(x: 0, y: 0), limit: 50, within: 3_000_000, where: { $0 < 1000 }))
        )
    }

    /// Seeded random layers, from one point up to a few thousand, world-wide and clustered.
    @Test(arguments: [1, 2, 17, 300, 5000])
    func randomLayersMatchBruteForce(count: Int) {
        var rng = SeededRandom(seed: UInt64(count) * 31 + 5)
        let points = (0..<count).map { i in
            i % 2 == 0
                ? rng.pointOnSphere()
                : Point(latitude: rng.uniform(39.4...39.5), longitude: rng.uniform(-0.42 ... -0.33))
        }
        let index = PointIndex(points)
        for k in 0..<30 {
            let q =
                k % 3 == 0
                ? Point(latitude: rng.uniform(39.3...39.6), longitude: rng.uniform(-0.5 ... -0.3)) : rng.pointOnSphere()
            let limit = [1, 10, 25][k % 3]
            #expect(
                index.nearest(to: q, limit: limit, geodesic: wgs84)
                    .agrees(with: BruteForce.nearest(points, to: q, limit: limit)))
        }
    }
}

/// The index with geoq's own Karney (``KarneyGeodesic``, from the ends the index prepares)
/// against the brute force with PROJ's: same items in the same order, same distances within
/// the index's tolerance, on sparse points all over the sphere (long lines, antipodes, poles)
/// and with a radius.
@Suite struct PointIndexOwnKarneyTests {
    @Test(arguments: [200, 2_000])
    func sparsePointsMatchBruteForce(count: Int) {
        var rng = SeededRandom(seed: UInt64(count))
        var points = (0..<count).map { _ in rng.pointOnSphere() }
        points += [
            Point(latitude: 90, longitude: 0), Point(latitude: -90, longitude: 0), Point(latitude: 0, longitude: 180),
        ]
        let index = PointIndex(points)
        var queries = (0..<60).map { _ in rng.pointOnSphere() }
        // Antipodes of indexed points, and points on the equator and at the poles.
        queries += points.prefix(10).map {
            Point(latitude: -$0.latitude, longitude: $0.longitude > 0 ? $0.longitude - 180 : $0.longitude + 180)
        }
        queries += [
            Point(latitude: 0, longitude: 0), Point(latitude: 90, longitude: 0), Point(latitude: -90, longitude: 45),
        ]
        for q in queries {
            for limit in [1, 10, 25] {
                let hits = index.nearest(to: q, limit: limit, geodesic: KarneyGeodesic.wgs84)
                #expect(hits.agrees(with: BruteForce.nearest(points, to: q, limit: limit)), "\(q), limit \(limit)")
            }
            let radius = 3_000_000.0
            #expect(
                index.nearest(to: q, limit: 25, within: radius, geodesic: KarneyGeodesic.wgs84)
                    .agrees(with: BruteForce.nearest(points, to: q, limit: 25, within: radius)), "\(q) within \(radius)"
            )
        }
    }

    /// Another ellipsoid is solved as given, not from the WGS84 ends.
    @Test func anotherEllipsoidIsSolvedAsGiven() {
        var rng = SeededRandom(seed: 7)
        let points = (0..<300).map { _ in rng.pointOnSphere() }
        let sphere = KarneyGeodesic(equatorialRadius: 6_371_000, flattening: 0)
        let q = Point(latitude: 10, longitude: 20)
        let hits = PointIndex(points).nearest(to: q, limit: 5, geodesic: sphere)
        let expected = points.indices.map { (sphere.distanceAndBearing(from: q, to: points[$0]).distance, $0) }.sorted {
            $0 < $1
        }
        // Every hit here is over 100 km away, so every distance is the sphere's own.
        #expect(hits.map(\.item) == expected.prefix(5).map(\.1))
        #expect(zip(hits, expected).allSatisfy { $0.distance == $1.0 })
    }
}
