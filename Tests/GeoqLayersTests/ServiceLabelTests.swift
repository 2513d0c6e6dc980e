import Foundation
import GeoqCore
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

/// Human labels for services and marquees, and hospitals told from health centres. Expected
/// values were read from Valencia's CSV files with Python's csv module.
@Suite struct ServiceLabelTests {
    static var query: NearestQuery { NearestQuery(geodesic: Geodesic.wgs84) }

    /// hospitales.csv's `Tipo`: 14 Hospital, 31 Centro de Salud, 17 Consultorio. Nearest the city
    /// hall: the hospital Clinica Fontana (about 715 m), the health centre Centro de Salud
    /// Valencia - Napoles y Sicilia (about 698 m), which is not a hospital.
    @Test func healthCentresAreNotHospitals() throws {
        let library = try RealLayerNearestQueryTests.library()
        let answer = try Self.query.services(
            at: RealLayerNearestQueryTests.cityHall, types: ["hospital", "health-centre"], perType: 100,
            library: library)
        #expect(answer.groups.map(\.type) == ["hospital", "health-centre"])
        let hospitals = answer.groups[0].hits
        let centres = answer.groups[1].hits
        #expect(hospitals.count == 14 && centres.count == 48)
        #expect(hospitals.allSatisfy { $0.category == "Hospital" })
        #expect(centres.allSatisfy { $0.category == "Centro de Salud" || $0.category == "Consultorio" })
        #expect(hospitals.first?.name == "Clinica Fontana")
        #expect(centres.first?.name == "Centro de Salud Valencia - Napoles y Sicilia")
        #expect(
            library.serviceLayers.filter { $0.layer == "valencia-hospitals" }.map(\.type) == [
                "hospital", "health-centre",
            ])
    }

    /// aparcaments-persones-mobilitat-reduida.csv has no street, only OBJECTID and the number of
    /// places: OBJECTID 222612 has 1, 222734 has 6.
    @Test func disabledParkingBaysSayTheirPlaces() throws {
        let layer = try RealLayerNearestQueryTests.library().pointLayer(named: "valencia-disabled-parking")
        let byID = Dictionary(uniqueKeysWithValues: layer.features.map { ($0.id, $0) })
        #expect(byID["222612"]?.name == "Aparcamiento PMR, plazas: 1")
        #expect(byID["222734"]?.name == "Aparcamiento PMR, plazas: 6")
        #expect(layer.features.allSatisfy { $0.name?.hasPrefix("Aparcamiento PMR, plazas: ") == true })
    }

    /// cameres-trafic-camaras-trafico.csv: camera 05503 is described "SERRERIA direccion MARINO
    /// BLAS DE LEZO"; 84 cameras have no description, e.g. 10407.
    @Test func trafficCamerasAreNamedByStreetElseByCameraID() throws {
        let layer = try RealLayerNearestQueryTests.library().pointLayer(named: "valencia-traffic-cameras")
        let byID = Dictionary(uniqueKeysWithValues: layer.features.map { ($0.id, $0) })
        #expect(layer.features.count == 654)
        #expect(byID["05503"]?.name == "SERRERIA direccion MARINO BLAS DE LEZO")
        #expect(byID["10407"]?.name == "Cámara de tráfico 10407")
        #expect(layer.features.filter { $0.name?.hasPrefix("Cámara de tráfico ") == true }.count == 84)
    }

    /// The marquees file (carpes-falles-carpas-fallas.csv) has only OBJECTID and `Id. Falla`: a
    /// marquee is named after its commission's falla (falla 242, Ribera-Convent de Santa Clara,
    /// has the marquee OBJECTID 2889).
    @Test func aMarqueeIsNamedAfterItsFalla() throws {
        let library = try RealLayerNearestQueryTests.library()
        let fallas = try library.pointLayer(named: "fallas")
        let answer = try Self.query.nearest(fallas, to: RealLayerNearestQueryTests.cityHall, limit: 1, library: library)
        let hit = try #require(answer.hits.first)
        #expect(hit.id == "242" && hit.name == "Ribera-Convent de Santa Clara")
        let marquee = try #require(hit.links?["marquee"])
        #expect(marquee.layer == "fallas-carpas" && marquee.id == "242")
        #expect(marquee.name == "Ribera-Convent de Santa Clara")
        #expect(try library.featuresByID(of: "fallas-carpas")["242"]?.properties["OBJECTID"]?.text == "2889")
    }
}
