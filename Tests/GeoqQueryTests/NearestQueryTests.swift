import GeoqCore
import GeoqPROJ
import GeoqQuery
import Testing

/// Nearest-N over a point layer made in the test: falla monuments on the equator, so that each
/// distance is an equatorial arc and each bearing due east (90°) or due west (270°).
@Suite struct NearestQueryTests {
    static let scheme = PointLayer.Scheme(
        categoryField: "seccion", categoryScheme: "falla-sections", serviceType: "monument",
        serviceTypeByCategory: ["E": "special"], links: [PointLayer.Link(layer: "marquees", as: "marquee")])

    static func layer() throws -> PointLayer {
        try PointLayer(
            name: "fallas", title: "Fallas",
            features: [
                onTheEquator("1", 0.002, properties: ["seccion": .string("1A")]),
                onTheEquator("2", -0.001, properties: ["seccion": .string("E")]),
                onTheEquator("3", 0.004, properties: ["seccion": .string("2B")]),
                onTheEquator("4", -0.003),
            ],
            scheme: scheme, approximation: nil)
    }

    static let origin = Point(latitude: 0, longitude: 0)
    static let query = NearestQuery(geodesic: Geodesic.wgs84)

    static func metres(_ degrees: Double) -> Double { (equatorialArc(degrees: degrees) * 100).rounded() / 100 }

    @Test func nearestFirstWithEquatorialDistancesAndBearings() throws {
        let answer = Self.query.nearest(try Self.layer(), to: Self.origin, limit: 3, links: [:])
        #expect(answer.hits.map(\.id) == ["2", "1", "4"])
        #expect(answer.hits.map(\.distanceMetres) == [Self.metres(0.001), Self.metres(0.002), Self.metres(0.003)])
        #expect(answer.hits.map(\.bearingDegrees) == [270, 90, 270])
        #expect(answer.hits.map(\.category) == ["Especial", "Primera A", nil])
        #expect(answer.hits.map(\.pin) == ["red", "green", nil])
        #expect(answer.hits[1].geoURI == "geo:0,0.002")
        #expect(answer.order == "distance" && answer.layer == "fallas" && !answer.approximate)
    }

    @Test func withinALimitAndByCategory() throws {
        let layer = try Self.layer()
        // 0.002° is 222.6 m, 0.003° is 333.9 m.
        let near = Self.query.nearest(layer, to: Self.origin, limit: 10, within: 250, links: [:])
        #expect(near.hits.map(\.id) == ["2", "1"])
        let ranked = Self.query.nearest(layer, to: Self.origin, limit: 10, order: .category, links: [:])
        #expect(ranked.hits.map(\.id) == ["2", "1", "3", "4"], "Especial, Primera A, Segunda B, then none")
        #expect(
            Self.query.nearest(layer, to: Self.origin, limit: 10, categories: ["especial"], links: [:]).hits.map(\.id)
                == ["2"])
        #expect(
            Self.query.nearest(layer, to: Self.origin, limit: 10, categories: ["2b", "1A"], links: [:]).hits.map(\.id)
                == ["1", "3"])
    }

    @Test func aLinkedFeatureWithoutANameGoesByItsFallas() throws {
        let marquee = Feature(id: "m1", geometry: try rectangle(west: 0.0019, south: 0, east: 0.0021, north: 0.0001))
        let answer = Self.query.nearest(
            try Self.layer(), to: Self.origin, limit: 2, links: ["marquee": ["1": marquee]])
        #expect(answer.hits[0].links == nil)
        let linked = try #require(answer.hits[1].links?["marquee"])
        #expect(linked.id == "m1" && linked.name == "Feature 1" && linked.layer == "marquees")
        #expect(linked.geometryType == "Polygon")
    }

    @Test func servicesGroupEachTypeApart() throws {
        let layer = try Self.layer()
        let answer = Self.query.services(
            at: Self.origin, perType: 1, layers: [(type: "special", layer: layer), (type: "monument", layer: layer)])
        #expect(answer.groups.map(\.type) == ["special", "monument"])
        #expect(answer.groups.map { $0.hits.map(\.id) } == [["2"], ["1"]])
    }

    @Test func aLayerOfPointsRefusesAnythingElse() throws {
        let square = Feature(id: "sq", geometry: try rectangle(west: 0, south: 0, east: 1, north: 1))
        let error = #expect(throws: PointLayer.NotAPoint.self) {
            try PointLayer(
                name: "mixed", title: "Mixed", features: [onTheEquator("1", 0), square], approximation: nil)
        }
        #expect(error?.featureIndex == 1 && error?.geometryType == "Polygon")
    }
}
