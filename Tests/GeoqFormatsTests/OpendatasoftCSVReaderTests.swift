import Foundation
import GeoqCore
import GeoqFormats
import GeoqTestSupport
import Testing

@Suite("OpendatasoftCSVReader")
struct OpendatasoftCSVReaderTests {
    func valencia(_ name: String) -> URL { TestData.url("valencia/" + name) }

    /// python3 (`csv.DictReader(..., delimiter=';')` on utf-8-sig): 594 rows, every geo_shape a
    /// Polygon without holes; `Código Distrito Sección` has 589 distinct values — 1701 four
    /// times (rings of 176, 247, 186 and 322 positions), 1508 and 1536 twice, and one *empty*
    /// (row 197, line 198: OBJECTID 2236, district 5, section 44). (`Código Sección` alone has
    /// only 56 values: it restarts in every district.) Row 1 is 1027, a ring of 6 positions from
    /// (-0.3743054743542415, 39.450382137881704).
    @Test func censusSections() throws {
        let code = "Código Distrito Sección"
        let c = try OpendatasoftCSVReader().read(at: valencia("seccions-censals-secciones-censales.csv"))
        #expect(c.features.count == 594)
        #expect(c.crs == .epsg(4326))
        #expect(c.features.allSatisfy { $0.geometry.typeName == "Polygon" })
        #expect(c.features.first?.id == "1")
        #expect(c.features.last?.id == "594")
        var counts: [String: Int] = [:]
        for f in c.features { counts[f.properties[code]?.text ?? "(empty)", default: 0] += 1 }
        #expect(counts.count == 589)
        #expect(counts.filter { $0.value > 1 } == ["1701": 4, "1508": 2, "1536": 2])
        #expect(counts["(empty)"] == 1)
        #expect(c.features[196].properties[code] == .null)
        #expect(c.features[196].properties["OBJECTID"] == .string("2236"))

        let first = c.features[0]
        #expect(first.properties[code] == .string("1027"))
        #expect(first.properties["OBJECTID"] == .string("460"))
        #expect(first.properties["geo_shape"] == nil)
        #expect(first.properties["geo_point_2d"] == .string("39.44991649911481, -0.37331964812613927"))
        let ring = try #require(first.geometry.polygons.first?.shell.points)
        try #require(ring.count == 6)
        #expect(ring[0] == Point(x: -0.3743054743542415, y: 39.450382137881704))
        #expect(
            c.features.filter { $0.properties[code] == .string("1701") }.map {
                $0.geometry.polygons[0].shell.points.count
            } == [176, 247, 186, 322])

        // Repeated ids are kept, and reported by duplicateIDs().
        let byOBJECTID = try OpendatasoftCSVReader(options: ReadOptions(idField: "OBJECTID"))
            .read(at: valencia("seccions-censals-secciones-censales.csv"))
        #expect(byOBJECTID.duplicateIDs().isEmpty)
    }

    /// The section code as id fails on the row where it is empty, naming line and column.
    @Test func censusEmptyID() {
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader(options: ReadOptions(idField: "Código Distrito Sección"))
                .read(at: valencia("seccions-censals-secciones-censales.csv"))
        }
        expect(
            error, code: .missingField,
            mentions: [
                "seccions-censals-secciones-censales.csv", "line 198", "feature 197",
                "column 'Código Distrito Sección'", "empty",
            ])
    }

    /// Older export: "Geo Point"/"Geo Shape" columns, MultiPoint geometries (python3: 62 rows,
    /// each a MultiPoint of one position; row 1 "Clinica Fontana" at [-0.377761856726537,
    /// 39.46356791568655]; coddistbar "021" keeps its leading zero).
    @Test func hospitals() throws {
        let c = try OpendatasoftCSVReader(options: ReadOptions(nameField: "Nombre")).read(
            at: valencia("hospitales.csv"))
        try #require(c.features.count == 62)
        #expect(c.features.allSatisfy { $0.geometry.typeName == "MultiPoint" })
        let first = c.features[0]
        #expect(first.name == "Clinica Fontana")
        #expect(first.geometry == .multiPoint([Point(x: -0.377761856726537, y: 39.46356791568655)]))
        #expect(first.properties["coddistbar"] == .string("021"))
        #expect(first.properties["Camas"] == .string("7"))
        #expect(first.properties["Geo Point"] == .string("39.46356791568655, -0.37776185672653656"))
        #expect(first.properties["Geo Shape"] == nil)
    }

    /// geo_point_2d is "lat, lon": for all 328 fallas it must give the geo_shape point
    /// (python3: identical numbers in the two columns, latitude first in geo_point_2d). Ids are
    /// OBJECTID: `Id. Falla` is empty on row 84 (OBJECTID 5061, Tarongers-Universitat Politècnica).
    @Test func fallasPointOrder() throws {
        let c = try OpendatasoftCSVReader(options: ReadOptions(idField: "OBJECTID", nameField: "Nom / Nombre"))
            .read(at: valencia("falles-fallas.csv"))
        try #require(c.features.count == 328)
        #expect(c.features[0].id == "4798")
        #expect(c.features[0].properties["Id. Falla"] == .string("286"))
        #expect(c.features[83].properties["Id. Falla"] == .null)
        #expect(c.features[0].name == "Pere María Orts i Bosch, pl.")
        #expect(c.features[0].geometry == .point(Point(x: -0.41352278127992215, y: 39.4703536252716)))

        // The same rows with only the geo_point_2d column: the reader must swap to x = longitude.
        var csv = "OBJECTID;geo_point_2d\r\n"
        for f in c.features {
            csv += "\(f.id);\(f.properties["geo_point_2d"]?.text ?? "")\r\n"
        }
        let pointsOnly = try OpendatasoftCSVReader(options: ReadOptions(idField: "OBJECTID"))
            .read(data: Data(csv.utf8), source: "fallas-points.csv")
        #expect(pointsOnly.features.count == 328)
        for (a, b) in zip(c.features, pointsOnly.features) {
            #expect(a.id == b.id)
            #expect(a.geometry == b.geometry, "falla \(a.id)")
            guard case .point(let q) = b.geometry else { continue }
            #expect(q.x < 0 && q.y > 39, "falla \(a.id): longitude west of Greenwich, latitude 39°")
        }
    }

    /// Quoted fields with line breaks inside (python3: 34 records over 53 lines; OBJECTID 6
    /// starts on line 14 and spans 3 lines; the last record starts on line 51).
    @Test func quotedLineBreaks() throws {
        let c = try OpendatasoftCSVReader(options: ReadOptions(idField: "OBJECTID"))
            .read(at: valencia("cargadores_electricos.csv"))
        #expect(c.features.count == 34)
        let six = try #require(c.features.first { $0.id == "6" })
        #expect(
            six.properties["Emplazamiento"] == .string("Mercado Rojas Clemente\nc\\ Simon Ortiz (en frente del nº1)"))
        #expect(six.properties["Potencia"] == .string("Según produccion\nFV"))
        #expect(six.properties["Precio"] == .string("0,07€/kWp"))
    }

    /// Feature counts and geometry types of every València export, from python3 (csv + json).
    @Test(
        arguments: [
            ("aparcaments-persones-mobilitat-reduida.csv", 2389, ["Point"]),
            ("barrios_valencia.csv", 88, ["Polygon"]),
            ("cameres-trafic-camaras-trafico.csv", 654, ["Point"]),
            ("carpes-falles-carpas-fallas.csv", 367, ["MultiPolygon", "Polygon"]),
            ("data_taxis.csv", 149, ["Point"]),
            ("distritos_valencia.csv", 22, ["Polygon"]),
            ("estaciones_valenbisi.csv", 276, ["Point"]),
            ("falles-infantils-fallas-infantiles.csv", 344, ["Point"]),
            ("parkings.csv", 22, ["Point"]),
            // No BOM; row 1058 (id 308) has an empty geo_shape but a geo_point_2d: a point.
            ("zonas-verdes.csv", 1474, ["MultiPolygon", "Point", "Polygon"]),
        ])
    func allValenciaExports(_ file: String, _ count: Int, _ types: [String]) throws {
        let c = try OpendatasoftCSVReader().read(at: valencia(file))
        #expect(c.features.count == count)
        #expect(Set(c.features.map(\.geometry.typeName)).sorted() == types)
        #expect(!c.coordinatesLookProjected())
    }

    /// Three rows (31, 32, 77 at lines 32, 33, 78) have neither geo_shape nor geo_point_2d.
    @Test func rowsWithoutGeometry() throws {
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(at: valencia("recursos_sociales.csv"))
        }
        expect(
            error, code: .missingGeometry, mentions: ["recursos_sociales.csv", "line 32", "feature 31", "no geometry"])
        let c = try OpendatasoftCSVReader(options: ReadOptions(idField: "OBJECTID", skipFeaturesWithoutGeometry: true))
            .read(at: valencia("recursos_sociales.csv"))
        #expect(c.features.count == 100)
        #expect(
            c.warnings == [
                "line 32, row 31 (id 24358): no geometry; skipped", "line 33, row 32 (id 24360): no geometry; skipped",
                "line 78, row 77 (id 23539): no geometry; skipped",
            ])
    }

    // MARK: Bad input

    /// The real file (53 lines, CRLF, quoted line breaks) plus a row whose quote never closes:
    /// the error is on line 54, where that quote opens.
    @Test func unterminatedQuote() throws {
        var data = try Data(contentsOf: valencia("cargadores_electricos.csv"))
        data.append(Data("99;99;1;\"Calle sin cerrar;1;0,19;7;x;T2;M3;;39.4, -0.3\r\n".utf8))
        let url = try writeTemporaryFile(data, name: "cargadores-bad.csv")
        let error = formatError { () throws(FormatError) in try OpendatasoftCSVReader().read(at: url) }
        expect(
            error, code: .invalidSyntax,
            mentions: ["cargadores-bad.csv", "line 54", "column 'Emplazamiento'", "never closed"])
        #expect(error?.line == 54)
    }

    @Test func wrongFieldCount() throws {
        var data = try Data(contentsOf: valencia("cargadores_electricos.csv"))
        data.append(Data("99;99;1\r\n".utf8))
        let url = try writeTemporaryFile(data, name: "cargadores-short.csv")
        let error = formatError { () throws(FormatError) in try OpendatasoftCSVReader().read(at: url) }
        expect(
            error, code: .invalidSyntax,
            mentions: ["cargadores-short.csv", "line 54", "feature 35", "row has 3 fields but the header has 12"])
    }

    @Test func textAfterClosingQuote() {
        let text = "a;geo_point_2d\n\"x\"y;39.4, -0.3\n"
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(data: Data(text.utf8), source: "q.csv")
        }
        expect(error, code: .invalidSyntax, mentions: ["q.csv", "line 2", "column 'a'", "after the closing quote"])
    }

    @Test func invalidGeoShape() {
        let text =
            "id;geo_shape;geo_point_2d\n1;\"{\"\"type\"\": \"\"Point\"\", \"\"coordinates\"\": [1, 2]}\";2, 1\n2;\"{\"\"type\"\": \"\"Point\"\", \"\"coordinates\"\": [1,\";2, 1\n"
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(data: Data(text.utf8), source: "shapes.csv")
        }
        expect(
            error, code: .invalidSyntax,
            mentions: ["shapes.csv", "line 3", "feature 2 (id 2)", "column 'geo_shape'", "not valid GeoJSON"])
    }

    @Test func openRingInGeoShape() {
        let shape =
            #"{""type"": ""Polygon"", ""coordinates"": [[[-0.37, 39.45], [-0.36, 39.45], [-0.36, 39.46], [-0.37, 39.46]]]}"#
        let text = "\u{FEFF}Código;geo_shape\r\nA;\"\(shape)\"\r\n"
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader(options: ReadOptions(idField: "Código")).read(
                data: Data(text.utf8), source: "secciones.csv")
        }
        expect(
            error, code: .invalidGeometry,
            mentions: [
                "secciones.csv", "line 2", "feature 1 (id A)", "column 'geo_shape'", "geo_shape.coordinates[0]",
                "outer ring is not closed",
            ])
    }

    @Test func swappedPoint() {
        let text = "id;geo_point_2d\n1;139.4697, -0.3763\n"
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(data: Data(text.utf8), source: "p.csv")
        }
        expect(
            error, code: .invalidGeometry,
            mentions: [
                "p.csv", "line 2", "column 'geo_point_2d'", "latitude 139.4697 is outside [-90, 90]",
                "read as latitude, longitude",
            ])
        let notNumbers = "id;geo_point_2d\n1;39,47 -0,37\n"
        let error2 = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(data: Data(notNumbers.utf8), source: "p.csv")
        }
        expect(error2, code: .invalidGeometry, mentions: ["line 2", "expected 'lat, lon'"])
    }

    @Test func noGeometryColumn() {
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(data: Data("a;b\n1;2\n".utf8), source: "plain.csv")
        }
        expect(error, code: .missingField, mentions: ["plain.csv", "line 1", "no geometry column", "columns: a, b"])
    }

    @Test func notUTF8() {
        var bytes = [UInt8]("id;geo_point_2d\n1;39.4, -0.3\n2;".utf8)
        bytes += [0x50, 0xD1, 0x41]  // "PÑA" in Latin-1
        bytes += [UInt8](";39.4, -0.3\n".utf8)
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(data: Data(bytes), source: "latin1.csv")
        }
        expect(error, code: .invalidEncoding, mentions: ["latin1.csv", "line 3", "not valid UTF-8"])
    }

    @Test func missingFile() {
        let error = formatError { () throws(FormatError) in
            try OpendatasoftCSVReader().read(at: TestData.url("valencia/no-such.csv"))
        }
        expect(error, code: .fileNotFound, mentions: ["valencia/no-such.csv", "no such file"])
    }
}
