import Foundation
import GeoqAPI
import GeoqCore
import GeoqLayers
import GeoqQuery
import GeoqSnapshot
import GeoqTestSupport
import Testing

/// The endpoint over the real layers (catalog files, no store).
@Suite struct SectorEndpointTests {
    static let data: ServiceData = {
        let library = try! LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
        return ServiceData.load(from: library)
    }()

    func ask(_ pairs: [(String, String)]) throws(Problem) -> SectorAnswer {
        try SectorEndpoint.answer(QueryParameters(pairs.map { ($0.0, $0.1) }), data: Self.data).answer
    }

    @Test func everyPolygonLayerIsServedAndPointLayersAreListed() {
        #expect(Self.data.layers.allSatisfy { $0.error == nil })
        #expect(Self.data.sectorLookups["pamplona-sectors"] != nil)
        #expect(Self.data.layers.first { $0.name == "fallas" }?.kind == "point")
        #expect(Self.data.sectorLookups["fallas"] == nil)
    }

    /// Every catalog layer is titled in the three answer languages (the map page's layer
    /// switcher), English being the catalog's `title`.
    @Test func everyLayerIsTitledInEachLanguage() throws {
        let catalog = try LayerCatalog.load(
            from: TestData.packageRoot.appendingPathComponent("data/layers.json"), dataDirectory: TestData.directory)
        for layer in Self.data.layers {
            let spec = try #require(catalog.layers.first { $0.name == layer.name })
            #expect(layer.titles?["en"] == spec.title, "\(layer.name)")
            #expect(layer.titles?["es"] == spec.titles?["es"] && layer.titles?["es"]?.isEmpty == false, "\(layer.name)")
            #expect(layer.titles?["eu"] == spec.titles?["eu"] && layer.titles?["eu"]?.isEmpty == false, "\(layer.name)")
        }
    }

    /// The same sector as `geoq which-sector 42.81 -1.64` (checked against GEOS in the layer
    /// tests): Sector 2, Ensanches, of the approximate default layer.
    @Test func theDefaultLayerAnswersTheMainQuestion() throws {
        let answer = try ask([("lat", "42.81"), ("lon", "-1.64")])
        #expect(answer.layer == "pamplona-sectors")
        #expect(answer.inside.map(\.id) == ["2"])
        #expect(answer.approximate && answer.approximation != nil)
    }

    @Test func anotherLayerAndTheSwapHint() throws {
        let valencia = try ask([("lat", "39.4699"), ("lon", "-0.3763"), ("layer", "valencia-barrios")])
        #expect(valencia.isInside && !valencia.approximate)
        // Longitude first by mistake: outside Pamplona, and the hint says the swap is inside.
        let swapped = try ask([("lat", "-1.64"), ("lon", "42.81")])
        #expect(!swapped.isInside)
        #expect(swapped.swapHint?.layer == "pamplona-sectors")
    }

    @Test func unknownLayerIsA404NamingTheLayers() {
        #expect(throws: Problem.self) { try ask([("lat", "42.81"), ("lon", "-1.64"), ("layer", "nowhere")]) }
        do {
            _ = try ask([("lat", "42.81"), ("lon", "-1.64"), ("layer", "fallas")])
            Issue.record("a point layer is not a sector layer")
        } catch {
            #expect(error.status == 404 && error.parameter == "layer")
            #expect(error.detail.contains("pamplona-sectors"))
        }
    }
}
