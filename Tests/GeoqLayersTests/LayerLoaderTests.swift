import Foundation
import GeoqCore
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

@Suite struct LayerLoaderTests {
    @Test func pamplonaSectorsAreTheThreeApproximatedUnits() throws {
        let layer = try LayerLoader().load("pamplona-sectors", from: try sharedCatalog())
        #expect(layer.features.map(\.id) == ["1", "2", "4"])
        #expect(
            layer.features.map(\.name) == ["Sector 1 — Casco Antiguo", "Sector 2 — Ensanches", "Sector 4 — Iturrama"])
        // The units' own names stay in the properties, so the approximation is traceable.
        #expect(
            layer.features.map { $0.properties["NOMBRE"]?.text } == [
                "Casco Viejo/Alde Zaharra", "Ensanche/Zabalgunea", "Iturrama",
            ])
        #expect(layer.isApproximate)
        #expect(layer.sourceCRS == "EPSG:4326")
    }

    @Test func barriosAreThirteen() throws {
        let layer = try LayerLoader().load("pamplona-barrios", from: try sharedCatalog())
        #expect(layer.features.count == 13)
        #expect(!layer.isApproximate)
        #expect(layer.notes.isEmpty)
    }

    /// SPEC §6: 594 rows, 589 distinct codes. 1508 and 1536 are identical copies, 1701 is four
    /// parts; row 198 has no combined code, derived as 0544 (district 5, section 44).
    @Test func valenciaCensusSectionsQuirks() throws {
        let layer = try LayerLoader().load("valencia-census-sections", from: try sharedCatalog())
        #expect(layer.features.count == 589)
        #expect(Set(layer.features.map(\.id)).count == 589)
        let s1701 = try #require(layer.features.first { $0.id == "1701" })
        #expect(s1701.geometry.areal?.polygons.count == 4)
        #expect(layer.features.first { $0.id == "1508" }?.geometry.areal?.polygons.count == 1)
        #expect(layer.features.contains { $0.id == "0544" })
        let notes = layer.notes.joined(separator: "\n")
        #expect(notes.contains("1508 (2 rows, 1 of them an identical copy, kept once)"))
        #expect(notes.contains("1701 (4 rows, merged into one feature of 4 parts)"))
        #expect(notes.contains("feature #197 → 0544"))
    }

    /// Valencia's barrios file gives the code 175 to two different neighbourhoods; neither may
    /// be lost or renamed into the other. Districts: POBLATS DEL NORD (17) comes in 4 rows.
    @Test func valenciaRepeatedCodesKeepDifferentFeaturesApart() throws {
        let barrios = try LayerLoader().load("valencia-barrios", from: try sharedCatalog())
        #expect(barrios.features.count == 88)
        #expect(barrios.features.first { $0.id == "175" }?.name == "RAFALELL-VISTABELLA")
        #expect(barrios.features.first { $0.id == "175-2" }?.name == "MAHUELLA-TAULADELLA")
        #expect(
            barrios.notes.contains { $0.contains("175 is given to both RAFALELL-VISTABELLA and MAHUELLA-TAULADELLA") })
        let districts = try LayerLoader().load("valencia-districts", from: try sharedCatalog())
        #expect(districts.features.count == 19)
        #expect(districts.features.first { $0.id == "17" }?.geometry.areal?.polygons.count == 4)
    }

    /// The restricted-access zones exist as an EPSG:25830 shapefile and as WGS84 GeoJSON; after
    /// reprojection with PROJ every vertex must agree within 1 cm.
    @Test func restrictedAccessShapefileMatchesGeoJSONWithinOneCentimetre() throws {
        let catalog = try sharedCatalog()
        let fromShapefile = try LayerLoader().load("pamplona-restricted-access", from: catalog)
        #expect(fromShapefile.sourceCRS.contains("ETRS89"))
        var spec = try catalog.spec(named: "pamplona-restricted-access")
        spec.source = "pamplona/geopamplona_datos_MOVI_Pol_ZonaAccesoRestr.json"
        let fromGeoJSON = try LayerLoader().load(spec, from: catalog.sourceURL(of: spec))
        #expect(fromShapefile.features.map(\.id) == fromGeoJSON.features.map(\.id))
        #expect(fromShapefile.features.map(\.name) == ["Aranzadi", "Casco Antiguo - Padre Moret"])
        var worst = 0.0
        for (a, b) in zip(fromShapefile.features, fromGeoJSON.features) {
            let pa = a.geometry.areal!.polygons.flatMap { $0.rings.flatMap(\.points) }
            let pb = b.geometry.areal!.polygons.flatMap { $0.rings.flatMap(\.points) }
            #expect(pa.count == pb.count)
            let metric = LocalMetric(wgs84AtLatitude: 42.8)
            for (p, q) in zip(pa, pb) { worst = Swift.max(worst, metric.distance(p, q)) }
        }
        #expect(worst < 0.01, "worst vertex difference \(worst) m")
    }

    /// ED50 (EPSG:23030) and ETRS89 (EPSG:25830) UTM numbers name places about 230 m apart in
    /// Spain (110 m west, 200 m south); reading the same numbers as ED50 must move them so.
    @Test func ed50SourceIsReprojectedWithTheDatumShift() throws {
        let catalog = try sharedCatalog()
        var spec = try catalog.spec(named: "pamplona-restricted-access")
        let etrs = try LayerLoader().load(spec, from: catalog.sourceURL(of: spec))
        spec.crs = "EPSG:23030"
        spec.forceCRS = true
        let ed50 = try LayerLoader().load(spec, from: catalog.sourceURL(of: spec))
        #expect(ed50.sourceCRS == "EPSG:23030")
        let a = etrs.features[0].geometry.areal!.polygons[0].shell.points[0]
        let b = ed50.features[0].geometry.areal!.polygons[0].shell.points[0]
        let shift = LocalMetric(wgs84AtLatitude: a.y).distance(a, b)
        #expect(shift > 150 && shift < 300, "ED50 vs ETRS89 shift \(shift) m")
        #expect(b.y < a.y && b.x < a.x, "ED50 numbers lie south-west of the same ETRS89 numbers")
    }

    @Test func projectedCoordinatesWithoutCRSAskForOne() throws {
        // SPEC §6: this file holds EPSG:25830 metres with no crs member.
        let spec = LayerSpec(name: "pv", title: "PV", source: "pamplona/cesium_datos_AMBI_Pto_Inst_FV_Muni.json")
        let url = TestData.url(spec.source)
        do {
            _ = try LayerLoader().load(spec, from: url)
            Issue.record("metres read as degrees must be refused")
        } catch {
            #expect(error.code == "crs-missing")
            #expect(error.description.contains("--crs EPSG:25830"))
            #expect(error.description.contains(url.path))
        }
        // With the CRS said, it reprojects, and then it is refused for being points.
        var withCRS = spec
        withCRS.crs = "EPSG:25830"
        #expect(throws: LayerError.self) { try LayerLoader().load(withCRS, from: url) }
        do { _ = try LayerLoader().load(withCRS, from: url) } catch { #expect(error.code == "not-polygons") }
    }

    @Test func selfIntersectingPolygonIsNamedWithGEOSReason() throws {
        let bowTie = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "ok", "properties": {"name": "Square"},
               "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
              {"type": "Feature", "id": "bow", "properties": {"name": "Bow tie"},
               "geometry": {"type": "Polygon", "coordinates": [[[2,0],[3,1],[3,0],[2,1],[2,0]]]}}
            ]}
            """
        let url = try writeTemporary("bowtie.geojson", bowTie)
        let spec = LayerSpec(name: "t", title: "T", source: url.path, nameField: "name")
        do {
            _ = try LayerLoader().load(spec, from: url)
            Issue.record("a self-intersecting polygon must be refused by default")
        } catch {
            #expect(error.code == "invalid-polygon")
            #expect(error.description.contains("feature #2 (id bow, Bow tie)"))
            #expect(error.description.contains("Self-intersection"))
            #expect(error.description.contains("lon 2.5, lat 0.5"))
        }
        let kept = try LayerLoader(invalidPolygons: .keep).load(spec, from: url)
        #expect(kept.features.count == 2)
        #expect(kept.notes.count == 1 && kept.notes[0].contains("id bow"))

        let skipped = try LayerLoader(invalidPolygons: .skip).load(spec, from: url)
        #expect(skipped.features.map(\.id) == ["ok"])
        let skipReport = try LayerLoader(invalidPolygons: .skip).prepare(spec, from: url).report
        #expect(skipReport.read == 2 && skipReport.written == 1 && skipReport.skipped == 1)
        #expect(skipReport.problems.map(\.feature) == [2])

        // The bow tie (2,0)-(3,1)-(3,0)-(2,1) crosses itself at (2.5, 0.5); repaired, it is the two
        // triangles either side of the crossing, each of area 0.25 (worked out by hand).
        let repaired = try LayerLoader(invalidPolygons: .repair).load(spec, from: url)
        let repairReport = try LayerLoader(invalidPolygons: .repair).prepare(spec, from: url).report
        #expect(repairReport.repaired == 1 && repairReport.written == 2)
        let parts = try #require(repaired.features.first { $0.id == "bow" }?.geometry.areal?.polygons)
        #expect(parts.count == 2)
        #expect(parts.map { abs($0.shell.signedDoubleArea) / 2 }.sorted() == [0.25, 0.25])
        let lookup = SectorLookup(layer: repaired, geodesic: Geodesic.wgs84)
        #expect(lookup.answer(for: Point(latitude: 0.5, longitude: 2.2)).inside.map(\.id) == ["bow"])
        #expect(lookup.answer(for: Point(latitude: 0.9, longitude: 2.5)).inside.isEmpty, "outside both triangles")
    }

    @Test func unclosedRingNamesFileAndFeature() throws {
        let open = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1]]]}}
            ]}
            """
        let url = try writeTemporary("open.geojson", open)
        do {
            _ = try LayerLoader().load(LayerSpec(name: "t", title: "T", source: url.path), from: url)
            Issue.record("an unclosed ring must be refused")
        } catch {
            #expect(error.code == "data-file-malformed")
            #expect(error.description.contains(url.lastPathComponent))
            #expect(error.description.contains("not closed"))
        }
    }

    @Test func missingFileIsNamed() throws {
        let url = URL(fileURLWithPath: "/nonexistent/sectors.geojson")
        #expect(throws: LayerError.sourceMissing(path: url.path)) {
            try LayerLoader().load(LayerSpec(name: "t", title: "T", source: url.path), from: url)
        }
    }

    /// A Google My Maps style KML export (written for this test) works as a layer.
    @Test func kmlLayerAnswersWhichSector() throws {
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Written for geoq's tests, in the shape of a Google My Maps export. -->
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Sectores</name>
              <Style id="poly-0288D1"><PolyStyle><color>4cd18802</color></PolyStyle></Style>
              <Placemark><name>Sector A</name><styleUrl>#poly-0288D1</styleUrl>
                <Polygon><outerBoundaryIs><LinearRing><tessellate>1</tessellate><coordinates>
                  -1.650,42.810,0 -1.640,42.810,0 -1.640,42.820,0 -1.650,42.820,0 -1.650,42.810,0
                </coordinates></LinearRing></outerBoundaryIs>
                <innerBoundaryIs><LinearRing><coordinates>
                  -1.646,42.814,0 -1.644,42.814,0 -1.644,42.816,0 -1.646,42.816,0 -1.646,42.814,0
                </coordinates></LinearRing></innerBoundaryIs></Polygon></Placemark>
            </Document></kml>
            """
        let url = try writeTemporary("sectors.kml", kml)
        let layer = try LayerLoader().load(LayerSpec(name: "kml", title: "KML", source: url.path), from: url)
        let lookup = SectorLookup(layer: layer, geodesic: Geodesic.wgs84)
        #expect(lookup.answer(for: Point(latitude: 42.812, longitude: -1.648)).inside.map(\.name) == ["Sector A"])
        #expect(lookup.answer(for: Point(latitude: 42.815, longitude: -1.645)).inside.isEmpty, "inside the hole")
        #expect(lookup.answer(for: Point(latitude: 42.814, longitude: -1.645)).inside.first?.location == "boundary")
    }
}
