import Foundation
import GeoqCore
import GeoqFormats
import GeoqTestSupport
import Testing

@Suite("GeoJSONReader")
struct GeoJSONReaderTests {
    let barrios = TestData.url("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json")

    /// Expected values worked out with python3 (`json.load` of the same file):
    /// 13 features, all MultiPolygon with one polygon of one ring; `crs` is
    /// urn:ogc:def:crs:EPSG::4326; feature 1 "Casco Viejo/Alde Zaharra" (id
    /// BIEN_Pol_UnidBarrio.1) has 72 positions starting at (-1.63885133, 42.81880853).
    @Test func pamplonaNeighbourhoods() throws {
        let collection = try GeoJSONReader(options: ReadOptions(nameField: "NOMBRE")).read(at: barrios)
        #expect(collection.features.count == 13)
        #expect(collection.crs == .epsg(4326))
        #expect(collection.crs?.isWGS84Geographic == true)
        #expect(!collection.coordinatesLookProjected())
        #expect(collection.warnings.isEmpty)
        #expect(
            collection.features.map(\.name) == [
                "Casco Viejo/Alde Zaharra", "Chantrea/Txantrea", "Ensanche/Zabalgunea", "Ermitagaña", "Etxabakoitz",
                "Iturrama", "Mendillorri", "Milagrosa", "Rochapea/Arrotxapea", "San Jorge-Sanduzelai",
                "San Juan/Donibane", "Buztintxuri", "Lezkairu",
            ])
        let casco = collection.features[0]
        #expect(casco.id == "BIEN_Pol_UnidBarrio.1")
        #expect(casco.properties["ID"] == .number(0))
        #expect(casco.properties["TIPO"] == .string("Área"))
        let polygons = casco.geometry.polygons
        #expect(casco.geometry.typeName == "MultiPolygon")
        try #require(polygons.count == 1)
        try #require(polygons[0].shell.points.count == 72)
        #expect(polygons[0].holes.isEmpty)
        #expect(polygons[0].shell.points[0] == Point(x: -1.63885133, y: 42.81880853))
        // Vertex counts of all 13 (python: [len(r) for p in coords for r in p]).
        #expect(
            collection.features.map { $0.geometry.areal?.vertexCount ?? 0 } == [
                72, 505, 384, 190, 287, 297, 623, 577, 147, 276, 141, 405, 390,
            ])
    }

    @Test func idFieldAndDefaultIDs() throws {
        let byField = try GeoJSONReader(options: ReadOptions(idField: "ID")).read(at: barrios)
        #expect(byField.features.map(\.id).prefix(3) == ["0", "1", "2"])
        // No `id` member: the 1-based feature number (python: 38 Point features, no ids).
        let pv = try GeoJSONReader().read(at: TestData.url("pamplona/cesium_datos_AMBI_Pto_Inst_FV_Muni.json"))
        #expect(pv.features.count == 38)
        #expect(pv.features.first?.id == "1")
        #expect(pv.features.last?.id == "38")
    }

    /// The two restricted-traffic zones (python: DESCRIP "Aranzadi", "Casco Antiguo - Padre Moret").
    @Test func pamplonaRestrictedZones() throws {
        let zones = try GeoJSONReader(options: ReadOptions(nameField: "DESCRIP"))
            .read(at: TestData.url("pamplona/geopamplona_datos_MOVI_Pol_ZonaAccesoRestr.json"))
        #expect(zones.features.map(\.name) == ["Aranzadi", "Casco Antiguo - Padre Moret"])
        #expect(zones.features.map(\.id) == ["MOVI_Pol_ZonaAccesoRestr.1", "MOVI_Pol_ZonaAccesoRestr.2"])
        #expect(zones.crs == .epsg(4326))
    }

    /// EPSG:25830 metres with no `crs` member (SPEC §6): crs is nil and the coordinates say so.
    /// python: first point [610594.9282015068, 4739734.4855332365], AÑO 2011, EDIFICIO "C.P. Rotxapea".
    @Test func projectedFileWithoutCRS() throws {
        let pv = try GeoJSONReader().read(at: TestData.url("pamplona/cesium_datos_AMBI_Pto_Inst_FV_Muni.json"))
        #expect(pv.crs == nil)
        #expect(pv.coordinatesLookProjected())
        // Exactly python's float("4739734.4855332365"): JSONSerialization on Linux would give
        // 4739734.485533236, one ulp off (why the reader has its own JSON parser).
        #expect(pv.features[0].geometry == .point(Point(x: 610594.9282015068, y: 4739734.4855332365)))
        #expect(pv.features[0].properties["AÑO"] == .number(2011))
        #expect(pv.features[0].properties["EDIFICIO"] == .string("C.P. Rotxapea"))
        #expect(pv.features[0].properties["ID_N"] == .string("25"))
    }

    @Test func propertyKindsAndLegacyCRS() throws {
        let text = """
            {"type":"FeatureCollection",
             "crs":{"type":"name","properties":{"name":"EPSG:25830"}},
             "features":[{"type":"Feature","id":7,
               "properties":{"t":true,"f":false,"one":1,"zero":0,"pi":3.5,"s":"x","n":null,
                             "obj":{"b":2,"a":[1,"x"]},"arr":[1,2]},
               "geometry":{"type":"Point","coordinates":[610000.5,4740000.25,450.0]}}]}
            """
        let c = try GeoJSONReader().read(data: Data(text.utf8), source: "inline.geojson")
        #expect(c.crs == .epsg(25830))
        let f = try #require(c.features.first)
        #expect(f.id == "7")
        // Booleans are not numbers and 1/0 are not booleans (JSONSerialization returns NSNumber for both).
        #expect(f.properties["t"] == .bool(true))
        #expect(f.properties["f"] == .bool(false))
        #expect(f.properties["one"] == .number(1))
        #expect(f.properties["zero"] == .number(0))
        #expect(f.properties["pi"] == .number(3.5))
        #expect(f.properties["s"] == .string("x"))
        #expect(f.properties["n"] == .null)
        #expect(f.properties["obj"] == .string(#"{"a":[1,"x"],"b":2}"#))
        #expect(f.properties["arr"] == .string("[1,2]"))
        // The third number (altitude) is dropped.
        #expect(f.geometry == .point(Point(x: 610000.5, y: 4740000.25)))
    }

    @Test(
        "single Feature, bare geometries and CRS84",
        arguments: [
            (
                #"{"type":"Feature","properties":null,"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#,
                "LineString"
            ),
            (#"{"type":"MultiPoint","coordinates":[[0,0],[1,1]]}"#, "MultiPoint"),
            (#"{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}"#, "MultiLineString"),
            (
                #"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[1,1]]]}"#,
                "Polygon"
            ),
        ])
    func otherShapes(_ text: String, _ typeName: String) throws {
        let c = try GeoJSONReader().read(data: Data(text.utf8), source: "inline.json")
        try #require(c.features.count == 1)
        #expect(c.features[0].id == "1")
        #expect(c.features[0].geometry.typeName == typeName)
    }

    @Test func polygonWithHole() throws {
        let text =
            #"{"type":"Polygon","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[1,1]]]}"#
        let c = try GeoJSONReader().read(data: Data(text.utf8), source: "inline.json")
        #expect(c.crs == .definition("urn:ogc:def:crs:OGC:1.3:CRS84"))
        #expect(c.crs?.isWGS84Geographic == true)
        let p = try #require(c.features.first?.geometry.polygons.first)
        #expect(p.shell.points.count == 5)
        #expect(p.holes.count == 1)
    }

    // MARK: Bad input

    /// Feature 2 (id z.2): its first ring's last position differs from the first.
    @Test func ringNotClosed() {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"z.1","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
            {"type":"Feature","id":"z.2","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[-1.6,42.8],[-1.5,42.8],[-1.5,42.9],[-1.6,42.9]]]]}}]}
            """
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "zones.geojson")
        }
        expect(
            error, code: .invalidGeometry,
            mentions: [
                "zones.geojson", "feature 2 (id z.2)", "geometry.coordinates[0][0]",
                "outer ring is not closed: first position (-1.6 42.8) differs from last (-1.6 42.9)",
            ])
        #expect(error?.featureNumber == 2)
        #expect(error?.fieldPath == "geometry.coordinates[0][0]")
    }

    @Test func holeTooShort() {
        let text =
            #"{"type":"Feature","id":"h","geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,0]],[[1,1],[2,2],[1,1]]]},"properties":{}}"#
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "h.json")
        }
        expect(
            error, code: .invalidGeometry,
            mentions: ["h.json", "feature 1 (id h)", "geometry.coordinates[1]", "hole 1 has 3 positions"])
    }

    @Test func unknownGeometryType() {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polyline","coordinates":[[0,0],[1,1]]}}]}"#
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "lines.json")
        }
        expect(
            error, code: .unsupportedGeometry,
            mentions: ["lines.json", "feature 1 (id 1)", "geometry.type", "unknown geometry type 'Polyline'"])
    }

    @Test func wrongCaseSuggestsFix() {
        let text = #"{"type":"polygon","coordinates":[]}"#
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "p.json")
        }
        expect(error, code: .unsupportedGeometry, mentions: ["did you mean 'Polygon'?"])
    }

    @Test func geometryCollection() {
        let text = #"{"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[]}}"#
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "gc.json")
        }
        expect(
            error, code: .unsupportedGeometry,
            mentions: ["gc.json", "feature 1", "GeometryCollection is not supported"])
    }

    @Test func nonNumericCoordinate() {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"a","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],["1",1],[0,0]]]}}]}
            """
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "n.json")
        }
        expect(
            error, code: .invalidGeometry,
            mentions: [
                "n.json", "feature 1 (id a)", "geometry.coordinates[0][2]", "expected [lon, lat] number pair",
                #"["1",1]"#,
            ])
    }

    @Test func booleanIsNotACoordinate() {
        let text = #"{"type":"Point","coordinates":[true,1]}"#
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "b.json")
        }
        expect(error, code: .invalidGeometry, mentions: ["coordinates", "expected [lon, lat] number pair"])
    }

    @Test func truncatedJSON() throws {
        let full = try Data(contentsOf: barrios)
        let cut = try writeTemporaryFile(full.prefix(5000), name: "barrios-cut.json")
        let error = formatError { () throws(FormatError) in try GeoJSONReader().read(at: cut) }
        expect(
            error, code: .invalidSyntax,
            mentions: ["barrios-cut.json", "line 1", "byte 5000", "invalid JSON", "unexpected end of file"])
        #expect(error?.line == 1)  // the file is one long line
    }

    /// A misspelt literal on line 3 (JSONSerialization would say "Unexpected end of file").
    @Test func syntaxErrorLineAndColumn() {
        let text =
            "{\"type\": \"FeatureCollection\",\n \"features\": [\n  {\"type\": \"Feature\", \"geometry\": nul}\n]}"
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "s.json")
        }
        expect(
            error, code: .invalidSyntax, mentions: ["s.json", "line 3", "column 35", "unexpected 'nul': expected null"])
    }

    @Test(
        "JSON syntax errors",
        arguments: [
            ("{\"type\": \"Point\", \"coordinates\": [1, 2,]}", "line 1", "expected a value"),
            ("{\"type\": \"Point\",\n \"coordinates\": [01, 2]}", "line 2", "leading zeros"),
            ("{\"type\": \"Point\" \"coordinates\": [1, 2]}", "line 1", "expected ',' or '}'"),
            ("{\"type\": \"Po\tint\"}", "line 1", "control character"),
            ("{\"type\": \"Point\", \"coordinates\": [1, 2]} x", "line 1", "after the end of the JSON value"),
            (
                "{\n\"type\": \"Point\",\n\"coordinates\": [1, 2]", "line 3",
                "the object opened at line 1, column 1 is not closed"
            ),
            (String(repeating: "[", count: 100_000), "line 1", "nesting deeper than 512 levels"),
        ])
    func syntaxErrors(_ text: String, _ line: String, _ message: String) {
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "bad.json")
        }
        expect(error, code: .invalidSyntax, mentions: ["bad.json", line, message])
    }

    @Test func stringsAndNumbers() throws {
        let text = #"""
            {"type":"Feature","id":"caf\u00e9 \ud83d\ude00","properties":{"esc":"a\"b\\c\/d\n","big":1e3,"neg":-0.5,"int":9007199254740993,"u":"Ñ"},
             "geometry":{"type":"Point","coordinates":[-0.3743054743542415,39.450382137881704]}}
            """#
        let c = try GeoJSONReader().read(data: Data(text.utf8), source: "s.json")
        let f = try #require(c.features.first)
        #expect(f.id == "café 😀")
        #expect(f.properties["esc"] == .string("a\"b\\c/d\n"))
        #expect(f.properties["big"] == .number(1000))
        #expect(f.properties["neg"] == .number(-0.5))
        #expect(f.properties["int"] == .number(9_007_199_254_740_992))  // 2^53 + 1 rounds to even
        #expect(f.properties["u"] == .string("Ñ"))
        // Correctly rounded (JSONSerialization on Linux gives -0.37430547435424144, 39.4503821378817).
        #expect(f.geometry == .point(Point(x: -0.3743054743542415, y: 39.450382137881704)))
    }

    @Test func missingFile() {
        let url = TestData.url("pamplona/no-such-file.geojson")
        let error = formatError { () throws(FormatError) in try GeoJSONReader().read(at: url) }
        expect(error, code: .fileNotFound, mentions: ["pamplona/no-such-file.geojson", "no such file"])
    }

    @Test func nullGeometry() throws {
        let text =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","properties":{},"geometry":null},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader().read(data: Data(text.utf8), source: "null.json")
        }
        expect(error, code: .missingGeometry, mentions: ["null.json", "feature 1 (id x)", "no geometry"])
        let skipped = try GeoJSONReader(options: ReadOptions(skipFeaturesWithoutGeometry: true))
            .read(data: Data(text.utf8), source: "null.json")
        #expect(skipped.features.map(\.id) == ["2"])
        #expect(skipped.warnings == ["feature 1 (id x): no geometry; skipped"])
    }

    @Test func missingIDField() {
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader(options: ReadOptions(idField: "CODIGO")).read(at: barrios)
        }
        expect(
            error, code: .missingField,
            mentions: ["geopamplona_datos_BIEN_Pol_UnidBarrio.json", "feature 1", "'CODIGO'", "NOMBRE"])
    }

    @Test func unknownNameField() {
        let error = formatError { () throws(FormatError) in
            try GeoJSONReader(options: ReadOptions(nameField: "NAME")).read(at: barrios)
        }
        expect(error, code: .missingField, mentions: ["'NAME'", "NOMBRE"])
    }
}
