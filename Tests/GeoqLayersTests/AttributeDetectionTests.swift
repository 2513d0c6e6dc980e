import Foundation
import GeoqCore
import GeoqLayers
import GeoqStore
import GeoqTestSupport
import Testing

/// A user's own file imported without --name-field/--id-field keeps its names and ids. The
/// expected values were read from the files with Python's json module.
@Suite struct AttributeDetectionTests {
    static func userSpec(_ source: String, nameField: String? = nil, idField: String? = nil) -> LayerSpec {
        LayerSpec(
            name: "mine", title: "mine", source: source, idField: idField, nameField: nameField, detectFields: true)
    }

    static func stored(_ store: URL) throws -> [Feature] {
        try GeoPackage.open(at: store.path, create: false, readOnly: true).features(of: "mine")
    }

    /// Pamplona's neighbourhood units: properties ID (0–12) and NOMBRE, and a GeoJSON feature id
    /// (`BIEN_Pol_UnidBarrio.6`) that the attribute wins over; the same ids and names as the
    /// catalog's pamplona-barrios, which declares them.
    @Test func pamplonaUnitsAreNamedByNOMBREAndIdentifiedByID() throws {
        let store = try LayerImporterTests.newStore()
        let source = "pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json"
        let report = try LayerImporter().importLayer(Self.userSpec(source), from: TestData.url(source), into: store)
        let naming = try #require(report.naming)
        #expect(naming.nameField == "NOMBRE" && naming.nameChosen == .detected)
        #expect(naming.idField == "ID" && naming.idChosen == .detected)
        #expect(naming.attributes == ["CATEGORIA", "DIRECCION", "FEATURE", "ID", "NOMBRE", "SOURCE", "TIPO"])
        #expect(naming.hint.contains("--name-field") && naming.hint.contains("--id-field"))
        let features = try Self.stored(store)
        #expect(features.count == 13)
        #expect(features.first { $0.id == "5" }?.name == "Iturrama")
        #expect(features.first { $0.id == "0" }?.name == "Casco Viejo/Alde Zaharra")
        let catalog = try sharedCatalog()
        let declared = try LayerLoader().prepare(
            try catalog.spec(named: "pamplona-barrios"), from: TestData.url(source)
        ).features
        #expect(Set(features.map { "\($0.id) \($0.name ?? "")" }) == Set(declared.map { "\($0.id) \($0.name ?? "")" }))
    }

    /// What the user names wins over what would be found.
    @Test func explicitFieldsWin() throws {
        let store = try LayerImporterTests.newStore()
        let source = "pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json"
        let report = try LayerImporter().importLayer(
            Self.userSpec(source, nameField: "DIRECCION", idField: "FEATURE"), from: TestData.url(source), into: store)
        #expect(report.naming?.nameChosen == .option && report.naming?.nameField == "DIRECCION")
        #expect(report.naming?.idChosen == .option && report.naming?.idField == "FEATURE")
        let casco = try #require(try Self.stored(store).first { $0.id == "12004" })
        #expect(casco.name == "C/ Joaquín Jarauta 43")
    }

    /// Any letter case; an id attribute empty in some feature is passed over (named in the
    /// report) for the next one; a repeated id keeps the features apart and is reported.
    @Test func emptyIdsArePassedOverAndRepeatsReported() throws {
        let file = try writeTemporary(
            "mine.geojson",
            """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"Title": "North", "ID": "a", "Codigo": "n1"},
             "geometry": {"type": "Point", "coordinates": [-1.64, 42.81]}},
            {"type": "Feature", "properties": {"Title": "South", "ID": "", "Codigo": "s1"},
             "geometry": {"type": "Point", "coordinates": [-1.65, 42.80]}},
            {"type": "Feature", "properties": {"Title": "East", "ID": "c", "Codigo": "s1"},
             "geometry": {"type": "Point", "coordinates": [-1.63, 42.80]}}
            ]}
            """)
        let store = try LayerImporterTests.newStore()
        let report = try LayerImporter().importLayer(Self.userSpec(file.path), from: file, into: store)
        let naming = try #require(report.naming)
        #expect(naming.nameField == "Title")
        #expect(naming.idField == "Codigo")
        #expect(naming.notes == ["'ID' was not used as the id: it is empty in 1 of 3 features (#2)"])
        let features = try Self.stored(store)
        #expect(features.map(\.id) == ["n1", "s1", "s1-2"])
        #expect(features.map(\.name) == ["North", "South", "East"])
        #expect(report.notes.contains { $0.contains("s1 is given to both South and East") })
    }

    /// A KML Placemark's <name> is the format's own name and stays; its ExtendedData `id`
    /// still gives the id.
    @Test func kmlNamesStay() throws {
        let file = try writeTemporary(
            "mine.kml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>Fountain</name>
              <ExtendedData><Data name="nombre"><value>Fuente</value></Data><Data name="id"><value>f-7</value></Data></ExtendedData>
              <Point><coordinates>-1.64,42.81</coordinates></Point></Placemark>
            </Document></kml>
            """)
        let prepared = try LayerLoader().prepare(Self.userSpec(file.path), from: file)
        #expect(prepared.features.map(\.name) == ["Fountain"] && prepared.features.map(\.id) == ["f-7"])
        let naming = try #require(prepared.report.naming)
        #expect(naming.nameField == nil && naming.nameChosen == .format && naming.idField == "id")
        #expect(naming.notes == ["the features are named by the format itself (a KML <name>)"])
    }

    /// A file with no usual attribute keeps the format's ids (positions) and says so.
    @Test func nothingToFindKeepsPositions() throws {
        let file = try writeTemporary(
            "plain.geojson",
            """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"height": 3}, "geometry": {"type": "Point", "coordinates": [1, 2]}}
            ]}
            """)
        let report = try LayerLoader().prepare(Self.userSpec(file.path), from: file)
        #expect(report.features.map(\.id) == ["1"] && report.features[0].name == nil)
        #expect(report.report.naming?.nameField == nil && report.report.naming?.idChosen == .format)
        #expect(report.report.naming?.attributes == ["height"])
    }

    /// Catalog layers are not guessed at: the car parks declare a name field only, and keep
    /// their row numbers as ids (their `objectid` column, 636 in the first row, would be found).
    @Test func catalogLayersKeepTheirDeclaredFields() throws {
        let catalog = try sharedCatalog()
        let spec = try catalog.spec(named: "valencia-car-parks")
        let prepared = try LayerLoader().prepare(spec, from: catalog.sourceURL(of: spec))
        #expect(prepared.report.naming == nil)
        #expect(prepared.features.first?.id == "1")
    }
}
