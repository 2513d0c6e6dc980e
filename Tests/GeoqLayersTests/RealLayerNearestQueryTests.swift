import Foundation
import GeoqCore
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

/// Nearest-N over the real Valencia point layers, checked against a plain loop over every
/// feature with PROJ's geodesic (the ranking code is not used for the expected values).
@Suite struct RealLayerNearestQueryTests {
    static func library() throws -> LayerLibrary {
        try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
    }

    static let cityHall = Point(latitude: 39.4699, longitude: -0.3763)

    @Test func nearestFallasMatchBruteForce() throws {
        let library = try Self.library()
        let fallas = try library.pointLayer(named: "fallas")
        #expect(fallas.features.count == 328)
        var rng = SeededRandom(seed: 12)
        for _ in 0..<25 {
            let q = Point(latitude: rng.uniform(39.42...39.52), longitude: rng.uniform(-0.42...(-0.32)))
            let answer = try NearestQuery(geodesic: Geodesic.wgs84).nearest(fallas, to: q, limit: 7)
            let expected = fallas.positions.indices.map {
                ($0, Geodesic.wgs84.inverse(from: q, to: fallas.positions[$0]).distance)
            }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(7)
            #expect(answer.hits.map(\.id) == expected.map { fallas.features[$0.0].id })
            for (hit, (_, d)) in zip(answer.hits, expected) { #expect(abs(hit.distanceMetres - d) <= 0.005) }
        }
    }

    /// SPEC §2 and the city's data: 9 fallas compete in Especial (ids worked out with Python
    /// from 'Secció / Seccion' == "E": 12, 14, 177, 187, 197, 22, 28, 34, 9).
    @Test func especialFilterAndCategoryOrder() throws {
        let library = try Self.library()
        let fallas = try library.pointLayer(named: "fallas")
        let query = NearestQuery(geodesic: Geodesic.wgs84)
        let especial = try query.nearest(
            fallas, to: Self.cityHall, limit: 50, categories: ["Especial"], library: library)
        #expect(Set(especial.hits.map(\.id)) == ["12", "14", "177", "187", "197", "22", "28", "34", "9"])
        #expect(especial.hits.allSatisfy { $0.category == "Especial" && $0.pin == "red" })
        #expect(especial.hits.map(\.distanceMetres) == especial.hits.map(\.distanceMetres).sorted())
        #expect(
            try query.nearest(fallas, to: Self.cityHall, limit: 5, categories: ["e"]).hits.count == 5, "codes match too"
        )

        let byCategory = try query.nearest(fallas, to: Self.cityHall, limit: 40, within: 1500, order: .category)
        let ranks = byCategory.hits.map { hit in
            fallas.categories[fallas.features.firstIndex { $0.id == hit.id }!]!.rank
        }
        #expect(ranks == ranks.sorted(), "competition order: Especial, Primera A, …, FC")
        #expect(byCategory.hits.allSatisfy { $0.distanceMetres <= 1500 })
    }

    /// Falla 12 (Convent de Jerusalem-Matemàtic Marzal) has a children's falla and a marquee
    /// with the same 'Id. Falla'; links name them.
    @Test func fallaLinks() throws {
        let library = try Self.library()
        let fallas = try library.pointLayer(named: "fallas")
        let p = fallas.positions[fallas.features.firstIndex { $0.id == "12" }!]
        let hit = try #require(
            try NearestQuery(geodesic: Geodesic.wgs84).nearest(fallas, to: p, limit: 1, library: library).hits.first)
        #expect(hit.id == "12" && hit.distanceMetres == 0)
        #expect(hit.links?["childrensFalla"]?.id == "12")
        #expect(hit.links?["childrensFalla"]?.layer == "fallas-infantiles")
        #expect(hit.links?["marquee"]?.geometryType == "Polygon")
        #expect(
            hit.geoURI
                == "geo:\(RealLayerNearestQueryTests.format(p.latitude)),\(RealLayerNearestQueryTests.format(p.longitude))"
        )
    }

    static func format(_ v: Double) -> String {
        var s = String(format: "%.7f", v)
        while s.hasSuffix("0") { s.removeLast() }
        return s.hasSuffix(".") ? String(s.dropLast()) : s
    }

    @Test func servicesGroupedByType() throws {
        let library = try Self.library()
        let answer = try NearestQuery(geodesic: Geodesic.wgs84).services(
            at: Self.cityHall, perType: 2, library: library)
        #expect(
            answer.groups.map(\.type) == [
                "car-park", "hospital", "health-centre", "bike-station", "taxi-rank", "ev-charger", "disabled-parking",
                "traffic-camera",
            ])
        for group in answer.groups {
            try #require(group.hits.count == 2)
            #expect(group.hits[0].distanceMetres <= group.hits[1].distanceMetres)
        }
        let within = try NearestQuery(geodesic: Geodesic.wgs84).services(
            at: Self.cityHall, types: ["hospital"], perType: 10, within: 100, library: library)
        #expect(within.groups.count == 1 && within.groups[0].hits.isEmpty, "no hospital within 100 m of the city hall")
        #expect(throws: LayerError.self) {
            try NearestQuery(geodesic: Geodesic.wgs84).services(
                at: Self.cityHall, types: ["spa"], perType: 1, library: library)
        }
    }

    @Test func polygonLayerIsNotAPointLayer() throws {
        #expect(throws: LayerError.self) { try Self.library().pointLayer(named: "fallas-carpas") }
    }
}
