import GeoqCore
import GeoqLayers
import GeoqNearby
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

/// The which-sector answer as served (``SectorLookup`` with ``EllipsoidGeodesic``) against a
/// reference built the plain way from the index's general queries and Karney's distance
/// through PROJ: the features that cover the point (``PolygonIndex/covering(_:)``), each
/// located on its own (``PolygonIndex/locate(_:item:)``), the nearest feature of a point
/// outside from the best-first list (``PolygonIndex/nearestByBoundary(to:metric:limit:)``), and
/// `Geodesic.wgs84` for every distance.
@Suite struct FastSectorAnswerTests {
    /// 10,000 seeded points uniform in each layer's box: the same features, locations and edge
    /// points, distances within 1 cm (both are rounded to the centimetre from values within
    /// 0.1 mm of each other, so one may round the other way).
    @Test(arguments: ["pamplona-sectors", "valencia-census-sections"])
    func fastAnswersEqualKarneyAnswers(name: String) throws {
        let layer = try LayerLoader().load(name, from: try sharedCatalog())
        let fast = SectorLookup(layer: layer, geodesic: EllipsoidGeodesic.wgs84)
        let index = layer.index
        let box = index.boundingBox
        var rng = SeededRandom(seed: 1)
        var outside = 0, roundedApart = 0
        for _ in 0..<10_000 {
            let p = Point(x: rng.uniform(box.minX...box.maxX), y: rng.uniform(box.minY...box.maxY))
            let answer = fast.answer(for: p)
            let metric = LocalMetric(wgs84AtLatitude: p.latitude)
            // The reference, from the general queries.
            var expected: [(item: Int, location: Location, edge: Point)] = index.covering(p).map { item in
                (item, index.locate(p, item: item), index.nearestBoundaryPoint(to: p, item: item, metric: metric).point)
            }
            if expected.isEmpty {
                outside += 1
                let hit = try #require(index.nearestByBoundary(to: p, metric: metric, limit: 1).first)
                expected = [(hit.item, .exterior, hit.point)]
            }
            var got = answer.inside
            if got.isEmpty { got = [try #require(answer.nearest)] }
            #expect(got.count == expected.count, "\(name) \(p)")
            for (match, want) in zip(got, expected) {
                let karney = Geodesic.wgs84.inverse(from: p, to: want.edge).distance
                #expect(match.id == layer.features[want.item].id, "\(name) \(p)")
                #expect(match.location == want.location.rawValue, "\(name) \(p)")
                #expect(match.nearestEdgePoint == .init(latitude: want.edge.latitude, longitude: want.edge.longitude))
                #expect(
                    abs(match.distanceToEdgeMetres - karney) <= 0.01,
                    "\(name) \(p): \(match.distanceToEdgeMetres) vs \(karney)")
                if match.distanceToEdgeMetres != (karney * 100).rounded() / 100 { roundedApart += 1 }
            }
        }
        print("\(name): 10,000 points, \(outside) outside, \(roundedApart) distances rounded to another centimetre")
        #expect(outside > 100 && outside < 9_900, "the points should fall on both sides")
    }
}
