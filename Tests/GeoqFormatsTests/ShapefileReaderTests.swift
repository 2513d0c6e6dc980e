import Foundation
import GeoqCore
import GeoqFormats
import GeoqTestSupport
import Testing

@Suite("ShapefileReader")
struct ShapefileReaderTests {
    static let directory = "pamplona/shp_epsg25830/"
    let zones = TestData.url(directory + "MOVI_Pol_ZonaAccesoRestr.shp")

    /// Copies the named files of a Pamplona shapefile into a fresh directory.
    func copy(_ name: String, extensions: [String] = ["shp", "shx", "dbf", "prj"], label: String = #function) throws
        -> URL
    {
        let dir = try makeTemporaryDirectory(label)
        for ext in extensions {
            try FileManager.default.copyItem(
                at: TestData.url(Self.directory + name + "." + ext), to: dir.appendingPathComponent(name + "." + ext))
        }
        return dir.appendingPathComponent(name + ".shp")
    }

    /// Expected values from python3 (`struct.unpack` of the .shp and .dbf):
    /// 2 Polygon records (shape type 5), one part each, clockwise (signed double areas
    /// -495708.58 and -873604.55), 14 and 124 points; record 1 starts at
    /// (611124.7503707069, 4742040.481972534), record 2 at (610665.7472401268, 4741114.765293795);
    /// DBF: 2 records, DESCRIP "Aranzadi" and "Casco Antiguo - Padre Moret", TIPO "Área de interés"
    /// (Latin-1 byte 0xC1), FEATURE 18004.
    @Test func restrictedZones() throws {
        let c = try ShapefileReader(options: ReadOptions(idField: "ID", nameField: "DESCRIP")).read(at: zones)
        try #require(c.features.count == 2)
        #expect(c.features.map(\.name) == ["Aranzadi", "Casco Antiguo - Padre Moret"])
        #expect(c.features.map(\.id) == ["1", "2"])
        #expect(c.features[0].properties["TIPO"] == .string("Área de interés"))
        #expect(c.features[0].properties["FEATURE"] == .number(18004))
        #expect(c.features[0].properties["CATEGORIA"] == .string("ZAC zona de acceso restringido"))

        guard case .polygon(let first) = c.features[0].geometry, case .polygon(let second) = c.features[1].geometry
        else {
            Issue.record("expected two single polygons: \(c.features.map(\.geometry.typeName))")
            return
        }
        try #require(first.shell.points.count == 14)
        #expect(first.shell.points[0] == Point(x: 611124.7503707069, y: 4742040.481972534))
        #expect(first.holes.isEmpty)
        try #require(second.shell.points.count == 124)
        #expect(second.shell.points[0] == Point(x: 610665.7472401268, y: 4741114.765293795))

        let crs = try #require(c.crs)
        guard case .definition(let wkt) = crs else {
            Issue.record("expected the .prj WKT, got \(crs)")
            return
        }
        #expect(wkt.contains("ETRS89 / UTM zone 30N"))
        #expect(crs.epsgCode == 25830)
        #expect(!crs.isWGS84Geographic)
        #expect(c.coordinatesLookProjected())
        // No .cpg: the non-UTF-8 text was decoded with the code page the DBF's language driver
        // byte (0x03) names, and the reader says so.
        #expect(c.warnings.contains { $0.contains("no .cpg") && $0.contains("windows-1252") })
    }

    /// The field `AÑO` (bytes 41 D1 4F): numeric in AMBI_Pto_Inst_FV_Muni, character in
    /// MOVI_Pto_MoviVert. python3: 38 and 14 records; first values 2011 and "2018";
    /// TIPO_PANEL "SCHÜCO  MPE-235-PS04-2, 235 Wp"; POT_NOM 15.00 / POT_PICO 15.04 (F 11.2);
    /// NOMBRE "Ascensor de Mendillorri".
    @Test func latin1FieldNamesAndValues() throws {
        let pv = try ShapefileReader().read(at: TestData.url(Self.directory + "AMBI_Pto_Inst_FV_Muni.shp"))
        try #require(pv.features.count == 38)
        let first = pv.features[0]
        #expect(first.id == "1")
        #expect(first.properties["AÑO"] == .number(2011))
        #expect(first.properties["TIPO_PANEL"] == .string("SCHÜCO  MPE-235-PS04-2, 235 Wp"))
        #expect(first.properties["TIPO"] == .string("Instalación"))
        #expect(first.properties["POT_NOM"] == .number(15))
        #expect(first.properties["POT_PICO"] == .number(15.04))
        #expect(first.properties["ID_N"] == .string("25"))

        let lifts = try ShapefileReader(options: ReadOptions(nameField: "NOMBRE"))
            .read(at: TestData.url(Self.directory + "MOVI_Pto_MoviVert.shp"))
        try #require(lifts.features.count == 14)
        #expect(lifts.features[0].properties["AÑO"] == .string("2018"))
        #expect(lifts.features[0].name == "Ascensor de Mendillorri")
        #expect(lifts.features[0].properties["TIPO"] == .string("Elemento en vía pública"))
    }

    /// The same 38 installations in the shapefile and in the GeoJSON export without a `crs`
    /// member: same EPSG:25830 coordinates, same attributes (ID 1...38 in both).
    @Test func shapefileAgreesWithGeoJSON() throws {
        let shp = try ShapefileReader(options: ReadOptions(idField: "ID"))
            .read(at: TestData.url(Self.directory + "AMBI_Pto_Inst_FV_Muni.shp"))
        let json = try GeoJSONReader(options: ReadOptions(idField: "ID"))
            .read(at: TestData.url("pamplona/cesium_datos_AMBI_Pto_Inst_FV_Muni.json"))
        #expect(shp.features.map(\.id) == json.features.map(\.id))
        for (a, b) in zip(shp.features, json.features) {
            // Bit for bit: the JSON numbers are the shortest decimal forms of the .shp doubles.
            #expect(a.geometry == b.geometry, "feature \(a.id)")
            #expect(a.properties["EDIFICIO"] == b.properties["EDIFICIO"])
            #expect(a.properties["AÑO"] == b.properties["AÑO"])
        }
    }

    @Test(arguments: ["MOVI_Pto_AccesoRestr", "MOVI_Pto_BiciElecBase", "AMBI_Pto_CalidadAire"])
    func pamplonaPointLayers(_ name: String) throws {
        // python3: 23, 42 and 3 Point records with as many DBF records.
        let expected = ["MOVI_Pto_AccesoRestr": 23, "MOVI_Pto_BiciElecBase": 42, "AMBI_Pto_CalidadAire": 3]
        let c = try ShapefileReader().read(at: TestData.url(Self.directory + name + ".shp"))
        #expect(c.features.count == expected[name])
        #expect(c.features.allSatisfy { $0.geometry.typeName == "Point" })
        #expect(c.crs?.epsgCode == 25830)
    }

    /// Natural Earth 1:10m countries (when tools/fetch-benchmark-data.sh has fetched it).
    /// python3 over the .shp: 250 Polygon records, 547,488 points in 4,272 parts, 18 of them
    /// counter-clockwise (holes), 149 records with more than one outer ring, largest part 22,908
    /// points. DBF: UTF-8 without a .cpg; record 95 NAME "Côte d'Ivoire", NAME_DE "Elfenbeinküste".
    @Test(.enabled(if: FileManager.default.fileExists(atPath: naturalEarth.path)))
    func naturalEarthCountries() throws {
        let clock = ContinuousClock()
        var collection: FeatureCollection?
        let elapsed = try clock.measure {
            collection = try ShapefileReader(options: ReadOptions(nameField: "NAME")).read(at: Self.naturalEarth)
        }
        let c = try #require(collection)
        print("Natural Earth countries: \(c.features.count) features read in \(elapsed)")
        try #require(c.features.count == 250)
        #expect(c.features.reduce(0) { $0 + ($1.geometry.areal?.vertexCount ?? 0) } == 547_488)
        #expect(c.features.reduce(0) { $0 + $1.geometry.polygons.reduce(0) { $0 + $1.holes.count } } == 18)
        #expect(c.features.filter { $0.geometry.polygons.count > 1 }.count == 149)
        #expect(c.crs == .epsg(4326))
        #expect(c.features[94].name == "Côte d'Ivoire")
        #expect(c.features[94].properties["NAME_DE"] == .string("Elfenbeinküste"))
        #expect(c.features[160].properties["ADMIN"] == .string("Egypt"))
        #expect(c.warnings.contains { $0.contains("UTF-8") })
        #expect(!c.coordinatesLookProjected())
    }

    static let naturalEarth = TestData.external("natural-earth/ne_10m_admin_0_countries_deu.shp")

    // MARK: Ring grouping and record handling (small files written by the test)

    /// Parts in the order hole-of-island, big outer, hole, separate outer, island: each hole must
    /// go to the *smallest* outer ring containing it, outer rings stay in file order.
    @Test func holesGoToTheSmallestContainingOuterRing() throws {
        func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool) -> [(Double, Double)] {
            let cw = [(x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0)]
            return clockwise ? cw : cw.reversed()
        }
        let outer1 = square(0, 0, 10, 10, clockwise: true)
        let hole1 = square(2, 2, 4, 4, clockwise: false)
        let island = square(2.5, 2.5, 3.5, 3.5, clockwise: true)
        let islandHole = square(2.8, 2.8, 3.2, 3.2, clockwise: false)
        let outer3 = square(20, 0, 30, 10, clockwise: true)
        let fixture = ShapefileFixture(
            shapeType: 5, shapes: [.polygon([islandHole, outer1, hole1, outer3, island])],
            fields: [("NAME", 10)], records: [(false, ["nested"])])
        let url = try fixture.write(to: try makeTemporaryDirectory(), name: "nested")
        let c = try ShapefileReader().read(at: url)
        guard case .multiPolygon(let mp) = c.features.first?.geometry else {
            Issue.record("expected a multipolygon: \(String(describing: c.features.first?.geometry))")
            return
        }
        #expect(mp.polygons.count == 3)
        #expect(mp.polygons.map { $0.shell.boundingBox.minX } == [0, 20, 2.5])
        #expect(mp.polygons.map { $0.holes.map { $0.boundingBox.minX } } == [[2], [], [2.8]])
        #expect(c.warnings.contains { $0.contains("no .prj") })
    }

    @Test func counterClockwiseOnlyRingBecomesOuter() throws {
        let ccw = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]
        let fixture = ShapefileFixture(
            shapeType: 5, shapes: [.polygon([ccw])], fields: [("N", 4)], records: [(false, ["a"])])
        let c = try ShapefileReader().read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "ccw"))
        #expect(c.features.first?.geometry.typeName == "Polygon")
        #expect(c.warnings.contains { $0.contains("counter-clockwise ring inside no outer ring") })
    }

    /// Record 2 is deleted in the .dbf: it is skipped with its shape, and records 1 and 3 keep
    /// their own attributes (the pairing is by position).
    @Test func deletedRecordsStayAligned() throws {
        let fixture = ShapefileFixture(
            shapeType: 1, shapes: [.point(1, 1), .point(2, 2), .point(3, 3)], fields: [("NAME", 8)],
            records: [(false, ["one"]), (true, ["two"]), (false, ["three"])])
        let c = try ShapefileReader(options: ReadOptions(nameField: "NAME"))
            .read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "deleted"))
        #expect(c.features.map(\.id) == ["1", "3"])
        #expect(c.features.map(\.name) == ["one", "three"])
        #expect(c.features.map(\.geometry) == [.point(Point(x: 1, y: 1)), .point(Point(x: 3, y: 3))])
        #expect(c.warnings.contains { $0.contains("1 record marked deleted") })
    }

    @Test func lines() throws {
        let fixture = ShapefileFixture(
            shapeType: 3,
            shapes: [.polyline([[(0, 0), (1, 1)]]), .polyline([[(0, 0), (1, 1)], [(2, 2), (3, 3), (4, 3)]])],
            fields: [("N", 2)], records: [(false, ["a"]), (false, ["b"])])
        let c = try ShapefileReader().read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "lines"))
        #expect(c.features.map(\.geometry.typeName) == ["LineString", "MultiLineString"])
    }

    @Test(
        "encodings: .cpg, or a guess",
        arguments: [
            (String.Encoding.isoLatin1, "ISO-8859-1" as String?),
            (.isoLatin1, "1252"),
            (.isoLatin1, nil),
            (.utf8, "UTF-8"),
            (.utf8, nil),
        ])
    func encodings(_ encoding: String.Encoding, _ cpg: String?) throws {
        let fixture = ShapefileFixture(
            shapeType: 1, shapes: [.point(0, 0)], fields: [("AÑO", 10), ("CALLE", 30)],
            records: [(false, ["2011", "Iñigo Arista, Peñalén"])], encoding: encoding, cpg: cpg)
        let c = try ShapefileReader().read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "enc"))
        #expect(c.features.first?.properties["AÑO"] == .string("2011"))
        #expect(c.features.first?.properties["CALLE"] == .string("Iñigo Arista, Peñalén"))
    }

    @Test func dbfFieldTypes() throws {
        var fixture = ShapefileFixture(
            shapeType: 1, shapes: [.point(0, 0), .point(1, 1)],
            fields: [("NUM", 6), ("FLT", 8), ("OK", 1), ("FECHA", 8), ("TXT", 6)],
            records: [
                (false, ["  -42", "  3.25", "T", "20240315", "  ab  "]), (false, ["", "*****", "?", "        ", ""]),
            ])
        fixture.types = ["N", "F", "L", "D", "C"]
        let c = try ShapefileReader().read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "types"))
        #expect(
            c.features[0].properties == [
                "NUM": .number(-42), "FLT": .number(3.25), "OK": .bool(true), "FECHA": .string("2024-03-15"),
                "TXT": .string("  ab"),
            ])
        // Blank and overflowed numbers, unknown logicals and blank dates are null; blank text stays "".
        #expect(
            c.features[1].properties == ["NUM": .null, "FLT": .null, "OK": .null, "FECHA": .null, "TXT": .string("")])
    }

    /// A field name given twice: the last field's value wins in every record, with a warning;
    /// every record lists its names in one order (each a copy of the table's dictionary).
    @Test func dbfFieldNamedTwiceKeepsTheLastValue() throws {
        let fixture = ShapefileFixture(
            shapeType: 1, shapes: [.point(0, 0), .point(1, 1), .point(2, 2)],
            fields: [("A", 3), ("B", 3), ("A", 3)],
            records: [(false, ["a1", "b1", "z1"]), (false, ["a2", "b2", "z2"]), (false, ["a3", "b3", ""])])
        let c = try ShapefileReader().read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "twice"))
        #expect(
            c.features.map(\.properties) == [
                ["A": .string("z1"), "B": .string("b1")], ["A": .string("z2"), "B": .string("b2")],
                ["A": .string(""), "B": .string("b3")],
            ])
        #expect(c.warnings.contains { $0.contains("field name 'A' appears twice; the last value wins") })
        #expect(Set(c.features.map { Array($0.properties.keys) }).count == 1)
    }

    @Test func badNumberInDBF() throws {
        var fixture = ShapefileFixture(
            shapeType: 1, shapes: [.point(0, 0), .point(1, 1)], fields: [("POT", 6)],
            records: [(false, ["1.5"]), (false, ["1,5"])])
        fixture.types = ["N"]
        let url = try fixture.write(to: try makeTemporaryDirectory(), name: "comma")
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(
            error, code: .invalidValue, mentions: ["comma.dbf", "feature 2", "column 'POT'", "'1,5' is not a number"])
    }

    /// PointZ (x, y, z, m) and PolygonZ (the 2D layout, then a Z range and Z values, then M):
    /// Z and M are read past, not used.
    @Test func zAndMVariants() throws {
        let ring: [(Double, Double)] = [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)]
        var polygonZ = [UInt8]()
        polygonZ += le64(0) + le64(0) + le64(1) + le64(1) + le32(1) + le32(5) + le32(0)
        for (x, y) in ring { polygonZ += le64(x) + le64(y) }
        polygonZ += le64(400) + le64(450) + ring.flatMap { _ in le64(420) }
        polygonZ += le64(0) + le64(0) + ring.flatMap { _ in le64(0) }
        let fixture = ShapefileFixture(
            shapeType: 15,
            shapes: [
                .raw(type: 15, content: polygonZ), .raw(type: 11, content: le64(7) + le64(8) + le64(9) + le64(0)),
            ],
            fields: [("N", 2)], records: [(false, ["a"]), (false, ["b"])])
        let c = try ShapefileReader().read(at: try fixture.write(to: try makeTemporaryDirectory(), name: "z"))
        #expect(c.features[0].geometry.polygons.first?.shell.points.array == ring.map { Point(x: $0.0, y: $0.1) })
        #expect(c.features[1].geometry == .point(Point(x: 7, y: 8)))
    }

    /// An index from another export is reported, not used (records are read in sequence).
    @Test func staleIndex() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr", extensions: ["shp", "dbf", "prj"])
        try FileManager.default.copyItem(
            at: TestData.url(Self.directory + "AMBI_Pto_CalidadAire.shx"),
            to: url.deletingPathExtension().appendingPathExtension("shx"))
        let c = try ShapefileReader().read(at: url)
        #expect(c.features.count == 2)
        #expect(c.warnings.contains { $0.contains("index lists 3 records, the .shp 2") })
    }

    // MARK: Bad input

    /// A part of two points is no ring: the error names the record, its id and the part; in a
    /// record the .dbf marks deleted, the same part is skipped with its record.
    @Test func partThatIsNoRing() throws {
        let square = [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)]
        let line = [(5.0, 5.0), (6.0, 6.0)]
        func read(deleted: Bool) throws -> Result<FeatureCollection, FormatError> {
            let fixture = ShapefileFixture(
                shapeType: 5, shapes: [.polygon([square]), .polygon([square, line])], fields: [("NAME", 8)],
                records: [(false, ["a"]), (deleted, ["b"])])
            let url = try fixture.write(to: try makeTemporaryDirectory(), name: "badring-\(deleted)")
            return Result { () throws(FormatError) in try ShapefileReader().read(at: url) }
        }
        guard case .failure(let error) = try read(deleted: false) else {
            Issue.record("a part of two points was read as a ring")
            return
        }
        expect(
            error, code: .invalidGeometry, mentions: ["badring-false.shp", "feature 2 (id 2)", "parts[1]", "part 1"])
        #expect(try read(deleted: true).get().features.map(\.id) == ["1"])
    }

    @Test func nullShape() throws {
        let fixture = ShapefileFixture(
            shapeType: 1, shapes: [.point(1, 1), .null], fields: [("NAME", 8)],
            records: [(false, ["a"]), (false, ["b"])])
        let url = try fixture.write(to: try makeTemporaryDirectory(), name: "nulls")
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(error, code: .missingGeometry, mentions: ["nulls.shp", "feature 2 (id 2)", "null shape"])
        let skipped = try ShapefileReader(options: ReadOptions(skipFeaturesWithoutGeometry: true)).read(at: url)
        #expect(skipped.features.map(\.id) == ["1"])
        #expect(skipped.warnings.contains("record 2 (id 2): null shape; skipped"))
    }

    @Test func unsupportedShapeType() throws {
        let fixture = ShapefileFixture(
            shapeType: 5, shapes: [.raw(type: 31, content: [UInt8](repeating: 0, count: 40))], fields: [("N", 2)],
            records: [(false, ["a"])])
        let url = try fixture.write(to: try makeTemporaryDirectory(), name: "patch")
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(
            error, code: .unsupportedGeometry,
            mentions: ["patch.shp", "feature 1", "byte 100", "unsupported shape type MultiPatch"])
    }

    /// A record claiming a billion parts must be rejected from its length, not trusted.
    @Test func corruptPartCount() throws {
        let content = [UInt8](repeating: 0, count: 32) + le32(1_000_000_000) + le32(4)
        let fixture = ShapefileFixture(
            shapeType: 5, shapes: [.raw(type: 5, content: content)], fields: [("N", 2)], records: [(false, ["a"])])
        let url = try fixture.write(to: try makeTemporaryDirectory(), name: "parts")
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(error, code: .truncatedFile, mentions: ["parts.shp", "feature 1", "1000000000 parts"])
    }

    /// The real .shp cut at 1,000 of its 2,420 bytes: the header still says 2,420.
    @Test func truncatedShp() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr")
        let data = try Data(contentsOf: url)
        try data.prefix(1000).write(to: url)
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(
            error, code: .truncatedFile,
            mentions: ["MOVI_Pol_ZonaAccesoRestr.shp", "declares 2420 bytes but the file has 1000", "truncated"])
    }

    /// The same cut, with the header's length patched to match: now record 1 (at byte 100; 8 +
    /// 272 bytes: 44 + 4 for one part + 16 × 14 points) fits, but record 2 (at byte 380, 2,032
    /// bytes of content) runs past the end.
    @Test func truncatedRecord() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr")
        var data = [UInt8](try Data(contentsOf: url).prefix(1000))
        data.replaceSubrange(24..<28, with: be32(500))
        try Data(data).write(to: url)
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(
            error, code: .truncatedFile,
            mentions: [
                "MOVI_Pol_ZonaAccesoRestr.shp", "byte 380", "feature 2",
                "announces 2032 bytes of content but only 612 remain",
            ])
    }

    /// Every prefix of a real polygon shapefile either reads or fails with a FormatError.
    @Test func everyPrefixFailsCleanly() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr")
        let data = try Data(contentsOf: url)
        var random = SeededRandom(seed: 2024)
        for length in stride(from: 0, to: data.count, by: 7) {
            var bytes = [UInt8](data.prefix(length))
            // Keep the header's length consistent half of the time, so the records get parsed.
            if length >= 100, random.next() % 2 == 0 { bytes.replaceSubrange(24..<28, with: be32(Int32(length / 2))) }
            try Data(bytes).write(to: url)
            do {
                _ = try ShapefileReader().read(at: url)
            } catch {
                #expect(error.description.contains("MOVI_Pol_ZonaAccesoRestr"))
            }
        }
    }

    /// The zones' .shp (2 shapes) with the air-quality .dbf (3 records) beside it.
    @Test func dbfCountMismatch() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr", extensions: ["shp", "prj"])
        try FileManager.default.copyItem(
            at: TestData.url(Self.directory + "AMBI_Pto_CalidadAire.dbf"),
            to: url.deletingPathExtension().appendingPathExtension("dbf"))
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(
            error, code: .inconsistentFiles,
            mentions: [
                "MOVI_Pol_ZonaAccesoRestr.shp", "holds 2 shapes", "MOVI_Pol_ZonaAccesoRestr.dbf holds 3 records",
            ])
    }

    @Test func truncatedDBF() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr")
        let dbf = url.deletingPathExtension().appendingPathExtension("dbf")
        // python3: header 193 bytes + 2 records of 785; keep the header and the first record.
        try Data(contentsOf: dbf).prefix(193 + 785 + 10).write(to: dbf)
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(
            error, code: .truncatedFile,
            mentions: ["MOVI_Pol_ZonaAccesoRestr.dbf", "announces 2 records of 785 bytes", "only 1"])
    }

    @Test func missingDBF() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr", extensions: ["shp"])
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(error, code: .fileNotFound, mentions: ["MOVI_Pol_ZonaAccesoRestr.dbf", "needs its .dbf"])
    }

    @Test func missingShp() {
        let url = TestData.url(Self.directory + "NoSuchLayer.shp")
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(error, code: .fileNotFound, mentions: ["NoSuchLayer.shp", "no such file"])
    }

    @Test func unknownIDField() {
        let error = formatError { () throws(FormatError) in
            try ShapefileReader(options: ReadOptions(idField: "CODIGO")).read(at: zones)
        }
        expect(error, code: .missingField, mentions: ["MOVI_Pol_ZonaAccesoRestr.dbf", "'CODIGO'", "DESCRIP"])
    }

    @Test func notAShapefile() throws {
        let url = try copy("MOVI_Pol_ZonaAccesoRestr")
        try Data(repeating: 0x41, count: 200).write(to: url)
        let error = formatError { () throws(FormatError) in try ShapefileReader().read(at: url) }
        expect(error, code: .unsupportedFormat, mentions: ["MOVI_Pol_ZonaAccesoRestr.shp", "not a shapefile"])
    }
}
