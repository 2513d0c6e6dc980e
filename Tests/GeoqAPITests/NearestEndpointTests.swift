import Foundation
import GeoqAPI
import GeoqCore
import GeoqLayers
import GeoqNearby
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

/// `/v1/nearest` and `/v1/services` over the real Valencia point layers (the ranking itself is
/// checked against brute force in the layer and index tests; here: the wiring and the errors).
@Suite struct NearestEndpointTests {
    static var data: ServiceData { SectorEndpointTests.data }

    func ask(_ pairs: [(String, String)]) throws(Problem) -> NearestAnswer {
        try NearestEndpoint.answer(QueryParameters(pairs.map { ($0.0, $0.1) }), data: Self.data)
    }

    func problem(_ pairs: [(String, String)]) -> Problem? {
        do {
            _ = try ask(pairs)
            return nil
        } catch { return error }
    }

    static let cityHall = [("lat", "39.4699"), ("lon", "-0.3763")]

    /// The five nearest Especial fallas to the city hall: all Especial, nearest first, each a
    /// Karney distance from the query (recomputed here from the answer's own position).
    @Test func theFiveNearestEspecialFallas() throws {
        let answer = try ask(Self.cityHall + [("layer", "fallas"), ("category", "Especial"), ("n", "5")])
        #expect(answer.hits.count == 5)
        #expect(answer.hits.allSatisfy { $0.category == "Especial" })
        #expect(answer.hits.map(\.distanceMetres) == answer.hits.map(\.distanceMetres).sorted())
        for hit in answer.hits {
            let exact = Geodesic.wgs84.inverse(
                from: Point(latitude: 39.4699, longitude: -0.3763),
                to: Point(latitude: hit.position.latitude, longitude: hit.position.longitude)
            ).distance
            #expect(abs(hit.distanceMetres - exact) <= 0.005 + PointIndex.distanceTolerance)
        }
        // Linked features come from the snapshot: every Especial falla has its children's falla.
        #expect(answer.hits.allSatisfy { $0.links?["childrensFalla"] != nil })
    }

    @Test func withinAndOrder() throws {
        let near = try ask(Self.cityHall + [("layer", "fallas"), ("within", "800"), ("n", "1000")])
        #expect(!near.hits.isEmpty && near.hits.allSatisfy { $0.distanceMetres <= 800 })
        let ranked = try ask(Self.cityHall + [("layer", "fallas"), ("within", "800"), ("order", "category")])
        #expect(ranked.order == "category" && ranked.hits.count == min(10, near.hits.count))
    }

    @Test(arguments: [
        ([("layer", "fallas")], "lat", "/problems/missing-parameter"),
        (cityHall, "layer", "/problems/missing-parameter"),
        (cityHall + [("layer", "pamplona-sectors")], "layer", "/problems/unknown-layer"),
        (cityHall + [("layer", "fallas"), ("n", "0")], "n", "/problems/out-of-range"),
        (cityHall + [("layer", "fallas"), ("n", "ten")], "n", "/problems/invalid-parameter"),
        (cityHall + [("layer", "fallas"), ("within", "-5")], "within", "/problems/out-of-range"),
        (cityHall + [("layer", "fallas"), ("order", "random")], "order", "/problems/invalid-parameter"),
        (cityHall + [("layer", "fallas"), ("category", "")], "category", "/problems/invalid-parameter"),
    ])
    func badNearestRequests(pairs: [(String, String)], parameter: String, type: String) throws {
        let p = try #require(problem(pairs))
        #expect(p.parameter == parameter && p.type == type)
    }

    @Test func servicesGroupedByType() throws {
        let query = QueryParameters(Self.cityHall.map { ($0.0, $0.1) } + [("type", "hospital"), ("n", "2")])
        let hospitals = try ServicesEndpoint.answer(query, data: Self.data)
        #expect(hospitals.groups.map(\.type) == ["hospital"])
        #expect(hospitals.groups[0].hits.count == 2)
        #expect(hospitals.groups[0].hits.allSatisfy { $0.category == "Hospital" })
        // hospitales.csv's Tipo: the nearest health centre to the city hall is Napoles y Sicilia.
        let centres = try ServicesEndpoint.answer(
            QueryParameters(Self.cityHall.map { ($0.0, $0.1) } + [("type", "health-centre"), ("n", "1")]),
            data: Self.data)
        #expect(centres.groups.map(\.type) == ["health-centre"])
        #expect(centres.groups[0].hits.map(\.name) == ["Centro de Salud Valencia - Napoles y Sicilia"])
        let all = try ServicesEndpoint.answer(QueryParameters(Self.cityHall.map { ($0.0, $0.1) }), data: Self.data)
        #expect(all.groups.count == Self.data.serviceLayers.count && all.groups.count >= 7)
        #expect(all.groups.allSatisfy { $0.hits.count <= 3 })
        do {
            _ = try ServicesEndpoint.answer(
                QueryParameters(Self.cityHall.map { ($0.0, $0.1) } + [("type", "spaceport")]), data: Self.data)
            Issue.record("an unknown service type is an error")
        } catch {
            #expect(error.parameter == "type" && error.status == 400)
        }
    }
}
