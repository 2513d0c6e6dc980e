import Foundation
import GeoqCore
import GeoqFormats
import Testing

@Suite("KMLReader")
struct KMLReaderTests {
    func read(_ text: String, options: ReadOptions = ReadOptions()) throws(FormatError) -> FeatureCollection {
        try KMLReader(options: options).read(data: Data(text.utf8), source: "sectores.kml")
    }

    @Test func myMapsExport() throws {
        let c = try read(KMLFixtures.sectors)
        #expect(c.crs == .epsg(4326))
        #expect(c.features.map(\.name) == ["Sector 1", "Sector 2", "Almacén", "Sector 3"])
        // Ids: the Placemark id attribute when present, else the 1-based Placemark number.
        #expect(c.features.map(\.id) == ["1", "sector-2", "3", "4"])

        let s1 = c.features[0]
        #expect(s1.properties["código"] == .string("S1"))
        #expect(s1.properties["responsable"] == .string("Ana Pérez"))
        #expect(s1.properties["description"] == .string("Casco antiguo<br>Reparto: mañanas & tardes"))
        #expect(s1.properties["styleUrl"] == .string("#poly-1976D2-1200-77"))
        guard case .polygon(let p1) = s1.geometry else {
            Issue.record("Sector 1 should be a polygon, is \(s1.geometry.typeName)")
            return
        }
        #expect(
            p1.shell.points.array == [
                Point(x: -1.65, y: 42.81), Point(x: -1.63, y: 42.81), Point(x: -1.63, y: 42.825),
                Point(x: -1.65, y: 42.825), Point(x: -1.65, y: 42.81),
            ])
        #expect(p1.holes.count == 1)
        #expect(p1.holes.first?.points.count == 4)

        #expect(c.features[1].geometry.typeName == "MultiPolygon")
        #expect(c.features[1].geometry.polygons.count == 2)
        #expect(c.features[2].geometry == .point(Point(x: -1.6432, y: 42.8169)))
        #expect(c.features[2].properties["código"] == .string("A1"))

        // The mixed MultiGeometry keeps its polygon and says so.
        #expect(c.features[3].geometry.typeName == "Polygon")
        #expect(
            c.warnings == [
                "Placemark 4 'Sector 3' (id 4): MultiGeometry mixes 1 polygon, 1 point; kept the polygons only"
            ])
    }

    @Test func optionsSelectIDAndName() throws {
        let c = try read(KMLFixtures.sectors, options: ReadOptions(idField: "name", nameField: "código"))
        #expect(c.features.map(\.id) == ["Sector 1", "Sector 2", "Almacén", "Sector 3"])
        #expect(c.features.map(\.name) == ["S1", "S2", "A1", nil])
        // Sector 3 (the Placemark opening on line 99 of the fixture) has no código.
        let error = formatError { () throws(FormatError) in
            try read(KMLFixtures.sectors, options: ReadOptions(idField: "código"))
        }
        expect(error, code: .missingField, mentions: ["sectores.kml", "line 99", "feature 4", "'código'"])
    }

    @Test func pointsAndLines() throws {
        let c = try read(
            KMLFixtures.document(
                """
                <Placemark><name>stops</name><MultiGeometry>
                  <Point><coordinates>1,2</coordinates></Point>
                  <Point><coordinates> 3 , 4 </coordinates></Point>
                </MultiGeometry></Placemark>
                <Placemark><name>route</name><LineString><coordinates>0,0,10 1,1,10 2,0,10</coordinates></LineString></Placemark>
                """))
        #expect(c.features[0].geometry == .multiPoint([Point(x: 1, y: 2), Point(x: 3, y: 4)]))
        #expect(c.features[1].geometry == .lineString([Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 0)]))
    }

    // MARK: Bad input

    /// The closing tag on line 6 does not match `<name>`.
    @Test func malformedXML() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document>
            <Placemark>
              <name>Sector 1
            </Placemark>
            </Document>
            </kml>
            """
        let error = formatError { () throws(FormatError) in try read(text) }
        expect(error, code: .invalidSyntax, mentions: ["sectores.kml", "line 6", "malformed XML"])
    }

    @Test func truncatedXML() {
        let cut = String(KMLFixtures.sectors.prefix(1500))
        let error = formatError { () throws(FormatError) in try read(cut) }
        expect(error, code: .invalidSyntax, mentions: ["sectores.kml", "line ", "malformed XML"])
    }

    /// Placemark 2's outer ring (its `<LinearRing>` on line 13) ends where it did not start.
    @Test func unclosedLinearRing() {
        let text = KMLFixtures.document(
            """
            <Placemark><name>ok</name><Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark>
              <name>Sector 2</name>
              <Polygon>
                <outerBoundaryIs>
                  <LinearRing>
                    <coordinates>
                      -1.63,42.81,0
                      -1.61,42.81,0
                      -1.61,42.83,0
                      -1.62,42.84,0
                    </coordinates>
                  </LinearRing>
                </outerBoundaryIs>
              </Polygon>
            </Placemark>
            """)
        let error = formatError { () throws(FormatError) in try read(text) }
        expect(
            error, code: .invalidGeometry,
            mentions: [
                "sectores.kml", "line 9", "feature 2", "Placemark 2 'Sector 2'",
                "Polygon[0].outerBoundaryIs.LinearRing",
                "outerBoundaryIs LinearRing is not closed: first position (-1.63 42.81) differs from last (-1.62 42.84)",
            ])
        #expect(error?.line == 9)
    }

    /// The third tuple (line 8) is not a number pair.
    @Test func badCoordinateTuple() {
        let text = KMLFixtures.document(
            """
            <Placemark>
              <name>Sector 9</name>
              <LineString>
                <coordinates>
                  -1.63,42.81
                  -1.61,north
                </coordinates>
              </LineString>
            </Placemark>
            """)
        let error = formatError { () throws(FormatError) in try read(text) }
        expect(
            error, code: .invalidGeometry,
            mentions: ["line 9", "feature 1", "LineString.coordinates[1]", "expected lon,lat[,alt]", "'-1.61,north'"])
    }

    @Test func placemarkWithoutGeometry() throws {
        let text = KMLFixtures.document("<Placemark><name>empty</name></Placemark>")
        let error = formatError { () throws(FormatError) in try read(text) }
        expect(error, code: .missingGeometry, mentions: ["line 4", "Placemark 1 'empty'"])
        let skipped = try read(text, options: ReadOptions(skipFeaturesWithoutGeometry: true))
        #expect(skipped.features.isEmpty)
        #expect(skipped.warnings.count == 1)
    }

    @Test func notKML() {
        let error = formatError { () throws(FormatError) in try read("<html><body/></html>") }
        expect(error, code: .unsupportedFormat, mentions: ["sectores.kml", "root element is <html>"])
    }
}
