import Foundation
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTariffs
import GeoqTestSupport
import Testing

/// The real Pamplona tariffs and the sector layer they name, read from the catalog's sources
/// (never from a store), as the park suites need them.
struct PamplonaParking {
    let tariffs: CityTariffs
    /// Distances through PROJ's Karney, independent of the solvers the service uses.
    let sectors: SectorLookup

    /// Loads per test, so that missing data (`../shared/data`) fails each test with its error
    /// instead of stopping the whole run.
    init() throws {
        tariffs = try CityTariffs.load(
            city: "pamplona", dataDirectory: TestData.packageRoot.appendingPathComponent("data"))
        let library = try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
        sectors = SectorLookup(
            layer: try library.layer(named: try #require(tariffs.sectorLayer)), geodesic: Geodesic.wgs84)
    }
}
