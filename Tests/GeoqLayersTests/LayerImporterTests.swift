import Foundation
import GeoqCore
import GeoqLayers
import GeoqQuery
import GeoqStore
import GeoqTestSupport
import Testing

/// Imports of the real files into a GeoPackage, read back through the store. Expected counts
/// and types were worked out separately with Python's csv/json/struct modules on the same
/// files (rows, geometry types of geo_shape, DBF record counts).
@Suite struct LayerImporterTests {
    static func importInto(_ store: URL, _ spec: LayerSpec, policy: LayerLoader.InvalidPolygonPolicy = .fail) throws
        -> LoadReport
    {
        try LayerImporter(invalidPolygons: policy).importLayer(spec, from: TestData.url(spec.source), into: store)
    }

    static func newStore() throws -> URL { try temporaryDirectory().appendingPathComponent("test.gpkg") }

    @Test(arguments: [
        ("valencia/falles-fallas.csv", 328, "POINT"),
        ("valencia/falles-infantils-fallas-infantiles.csv", 344, "POINT"),
        ("valencia/carpes-falles-carpas-fallas.csv", 367, "MULTIPOLYGON"),  // 366 Polygon + 1 MultiPolygon
        ("valencia/barrios_valencia.csv", 88, "POLYGON"),
        ("valencia/parkings.csv", 22, "POINT"),
        ("valencia/hospitales.csv", 62, "MULTIPOINT"),  // older export, "Geo Shape" columns
        ("valencia/estaciones_valenbisi.csv", 276, "POINT"),
        ("valencia/data_taxis.csv", 149, "POINT"),
        ("valencia/cargadores_electricos.csv", 34, "POINT"),  // quoted line breaks: 34 records on 53 lines
        ("valencia/aparcaments-persones-mobilitat-reduida.csv", 2389, "POINT"),
        ("valencia/cameres-trafic-camaras-trafico.csv", 654, "POINT"),
        ("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json", 13, "MULTIPOLYGON"),
        ("pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.shp", 2, "POLYGON"),
        ("pamplona/shp_epsg25830/MOVI_Pto_AccesoRestr.shp", 23, "POINT"),
        ("pamplona/shp_epsg25830/MOVI_Pto_BiciElecBase.shp", 42, "POINT"),
    ])
    func importsRealFile(source: String, count: Int, geometryType: String) throws {
        let store = try Self.newStore()
        let report = try Self.importInto(store, LayerSpec(name: "layer", title: "Layer", source: source))
        #expect(report.read == count && report.written == count && report.skipped == 0)
        let info = try GeoPackage.open(at: store.path, create: false, readOnly: true).layer(named: "layer")
        #expect(info.featureCount == count)
        #expect(info.geometryType == geometryType)
        let extent = try #require(info.extent)
        #expect(
            extent.minX >= -180 && extent.maxX <= 180 && extent.minY >= -90 && extent.maxY <= 90,
            "stored in WGS84 degrees")
    }

    /// Falla ids are the commission's 'Id. Falla', shared with the children's fallas and the
    /// marquees; the one falla without it (OBJECTID 5061, Tarongers-Universitat Politècnica)
    /// gets 'objectid-5061', and the note says so.
    @Test func fallasIdsAndTheirOneGap() throws {
        let catalog = try sharedCatalog()
        let fallas = try LayerLoader().prepare(
            try catalog.spec(named: "fallas"), from: TestData.url("valencia/falles-fallas.csv"))
        #expect(fallas.features.count == 328)
        #expect(fallas.features.first { $0.id == "286" }?.name == "Pere María Orts i Bosch, pl.")
        #expect(fallas.features.first { $0.id == "objectid-5061" }?.name == "Tarongers-Universitat Politècnica")
        #expect(
            fallas.notes.contains { $0.contains("'Id. Falla' is empty in 1 row(s)") && $0.contains("objectid-5061") })
        let children = try LayerLoader().prepare(
            try catalog.spec(named: "fallas-infantiles"),
            from: TestData.url("valencia/falles-infantils-fallas-infantiles.csv"))
        // 327 of the 328 commissions also have a children's falla (Python: set intersection of 'Id. Falla').
        #expect(Set(fallas.features.map(\.id)).intersection(children.features.map(\.id)).count == 327)
    }

    /// The census layer through the catalog: 589 features, ids and notes kept in the store.
    @Test func catalogLayerKeepsIdsNotesAndApproximation() throws {
        let store = try Self.newStore()
        let catalog = try sharedCatalog()
        for name in ["valencia-census-sections", "pamplona-sectors"] {
            let spec = try catalog.spec(named: name)
            _ = try LayerImporter().importLayer(spec, from: catalog.sourceURL(of: spec), into: store)
        }
        let gpkg = try GeoPackage.open(at: store.path, create: false, readOnly: true)
        let census = try gpkg.layer(named: "valencia-census-sections")
        #expect(census.featureCount == 589)
        #expect(census.notes.contains { $0.contains("feature #197 → 0544") })
        #expect(try gpkg.features(of: "valencia-census-sections").contains { $0.id == "0544" })
        #expect(try gpkg.layer(named: "pamplona-sectors").approximate?.contains("neighbourhood units") == true)
        #expect(
            try gpkg.features(of: "pamplona-sectors").map(\.name) == [
                "Sector 1 — Casco Antiguo", "Sector 2 — Ensanches", "Sector 4 — Iturrama",
            ])
    }

    /// The PV installations are published as a shapefile (CRS from its .prj) and as GeoJSON in
    /// EPSG:25830 without a crs member (CRS given on import). Both imports must agree within 1 cm.
    @Test func pvInstallationsFromShapefileAndGeoJSONAgree() throws {
        let store = try Self.newStore()
        let json = LayerSpec(name: "pv-json", title: "PV", source: "pamplona/cesium_datos_AMBI_Pto_Inst_FV_Muni.json")
        #expect(throws: LayerError.self) { try Self.importInto(store, json) }  // metres, no CRS: refused
        var withCRS = json
        withCRS.crs = "EPSG:25830"
        withCRS.forceCRS = true
        #expect(try Self.importInto(store, withCRS).written == 38)
        _ = try Self.importInto(
            store, LayerSpec(name: "pv-shp", title: "PV", source: "pamplona/shp_epsg25830/AMBI_Pto_Inst_FV_Muni.shp"))
        let gpkg = try GeoPackage.open(at: store.path, create: false, readOnly: true)
        let a = try gpkg.features(of: "pv-json"), b = try gpkg.features(of: "pv-shp")
        #expect(a.count == 38 && b.count == 38)
        var worst = 0.0
        for (f, g) in zip(a, b) {
            guard case .point(let p) = f.geometry, case .point(let q) = g.geometry else {
                Issue.record("expected points")
                continue
            }
            worst = Swift.max(worst, LocalMetric(wgs84AtLatitude: p.y).distance(p, q))
        }
        #expect(worst < 0.01, "worst difference \(worst) m")
    }

    /// A failing import changes nothing: the layer it would replace and the other layers read
    /// back exactly as before.
    @Test func failedImportLeavesTheStoreAsItWas() throws {
        let store = try Self.newStore()
        let barrios = LayerSpec(
            name: "barrios", title: "B", source: "pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json")
        let zac = LayerSpec(name: "zac", title: "Z", source: "pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.shp")
        _ = try Self.importInto(store, barrios)
        _ = try Self.importInto(store, zac)
        let before = try GeoPackage.open(at: store.path, create: false, readOnly: true)
        let (barriosBefore, zacBefore, infoBefore) = (
            try before.features(of: "barrios"), try before.features(of: "zac"), try before.layers()
        )

        let broken = try writeTemporary(
            "broken.geojson",
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,0]]]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1]]]}}]}"#
        )
        #expect(throws: LayerError.self) {
            try LayerImporter().importLayer(
                LayerSpec(name: "barrios", title: "B", source: broken.path), from: broken, into: store)
        }
        let after = try GeoPackage.open(at: store.path, create: false, readOnly: true)
        #expect(try after.features(of: "barrios") == barriosBefore)
        #expect(try after.features(of: "zac") == zacBefore)
        #expect(try after.layers() == infoBefore)
        #expect(try after.integrityCheck() == "ok")

        // A successful re-import replaces the layer whole.
        _ = try Self.importInto(store, LayerSpec(name: "barrios", title: "B", source: zac.source))
        #expect(try GeoPackage.open(at: store.path, create: false, readOnly: true).features(of: "barrios").count == 2)
    }

    @Test func invalidPolygonPoliciesOnImport() throws {
        let bowTie = try writeTemporary(
            "bowtie.geojson",
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "bow", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[2,0],[3,1],[3,0],[2,1],[2,0]]]}}, {"type": "Feature", "id": "ok", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}]}"#
        )
        let store = try Self.newStore()
        let spec = LayerSpec(name: "t", title: "T", source: bowTie.path)
        #expect(throws: LayerError.self) {
            try LayerImporter(invalidPolygons: .fail).importLayer(spec, from: bowTie, into: store)
        }
        if FileManager.default.fileExists(atPath: store.path) {
            #expect(
                try GeoPackage.open(at: store.path, create: false).layers().isEmpty, "a failed import writes no layer")
        }
        let skipped = try LayerImporter(invalidPolygons: .skip).importLayer(spec, from: bowTie, into: store)
        #expect((skipped.read, skipped.written, skipped.skipped) == (2, 1, 1))
        #expect(
            skipped.problems.first?.feature == 1 && skipped.problems.first?.reason.contains("Self-intersection") == true
        )
        let repaired = try LayerImporter(invalidPolygons: .repair).importLayer(spec, from: bowTie, into: store)
        #expect((repaired.read, repaired.written, repaired.repaired) == (2, 2, 1))
        #expect(try GeoPackage.open(at: store.path, create: false).layer(named: "t").geometryType == "MULTIPOLYGON")
    }

    /// The Fallas Atom feed of SPEC §2 (latitude first in georss:point), written for this test
    /// with two real fallas: ids, names, sections and positions from falles-fallas.csv (rows
    /// 286 and 126; geo_point_2d "39.4703536252716, -0.41352278127992215" and
    /// "39.462404020462785, -0.3697881186556139").
    @Test func fallasAtomFeedImportsLatitudeFirst() throws {
        let feed = try writeTemporary(
            "fallas.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Written for geoq's tests, following SPEC §2's description of the original app's feed. -->
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss">
              <title>Fallas 2024</title>
              <entry><id>286</id><title>Pere María Orts i Bosch, pl.</title>
                <georss:point>39.4703536252716 -0.41352278127992215</georss:point>
                <falleraMayor>Ainara Rodríguez Sisternas</falleraMayor><cat2012>8C</cat2012></entry>
              <entry><id>126</id><title>Pintor Salvador Abril-Pere III El Gran</title>
                <georss:point>39.462404020462785 -0.3697881186556139</georss:point>
                <falleraMayor>Roselvi Ibañez Blasco</falleraMayor><cat2012>5C</cat2012></entry>
            </feed>
            """)
        let store = try Self.newStore()
        let report = try LayerImporter().importLayer(
            LayerSpec(name: "fallas", title: "Fallas", source: feed.path), from: feed, into: store)
        #expect(report.written == 2)
        let features = try GeoPackage.open(at: store.path, create: false, readOnly: true).features(of: "fallas")
        #expect(features.map(\.id) == ["286", "126"])
        #expect(features[0].geometry == .point(Point(latitude: 39.4703536252716, longitude: -0.41352278127992215)))
        #expect(features[1].properties["falleraMayor"] == .string("Roselvi Ibañez Blasco"))
    }
}
