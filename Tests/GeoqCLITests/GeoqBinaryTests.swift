import Foundation
import GeoqLayers
import GeoqQuery
import GeoqTestSupport
import Testing

/// End-to-end: the built `geoq` executable, its output, exit statuses and error messages.
@Suite struct GeoqBinaryTests {
    typealias Run = ProgramRun

    /// The `geoq` beside the test bundle (the same build directory).
    static let binary: URL = {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [
            bundleDir, bundleDir.deletingLastPathComponent(),
            TestData.packageRoot.appendingPathComponent(".build/debug"),
        ] {
            let candidate = dir.appendingPathComponent("geoq")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return TestData.packageRoot.appendingPathComponent(".build/debug/geoq")
    }()

    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> Run {
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path), "build geoq first (swift build): \(binary.path)")
        var env = ProcessInfo.processInfo.environment
        env["GEOQ_DATA_DIR"] = TestData.directory.path
        // Hermetic by default: no store, so layers come from the catalog's source files. Tests
        // of the store pass their own GEOQ_STORE.
        env["GEOQ_STORE"] = "/nonexistent/geoq-test-store.gpkg"
        for (k, v) in environment { env[k] = v }
        return try ExternalTool.run(binary, arguments, input: stdin, environment: env, directory: TestData.packageRoot)
    }

    @Test func readmeCommand() throws {
        let r = try Self.run(["which-sector", "42.81", "-1.64"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("42.81, -1.64 is in Sector 2 — Ensanches (id 2) of pamplona-sectors"))
        #expect(r.stdout.contains("Approximate: Sectors 1, 2 and 4 are approximated"))
        #expect(r.stderr.isEmpty)
    }

    @Test func jsonAnswerDecodes() throws {
        let r = try Self.run(["which-sector", "42.81", "-1.64", "--format", "json"])
        #expect(r.status == 0)
        let answer = try JSONDecoder().decode(SectorAnswer.self, from: Data(r.stdout.utf8))
        #expect(answer.inside.map(\.id) == ["2"])
        #expect(answer.approximate && answer.approximation != nil)
        #expect(answer.query.latitude == 42.81 && answer.query.longitude == -1.64)
    }

    @Test func geojsonIsAFeatureCollectionLongitudeFirst() throws {
        let r = try Self.run(["which-sector", "42.81", "-1.64", "--format", "geojson"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        try #require(features.count == 2)
        let query = try #require(features[0]["geometry"] as? [String: Any])
        #expect(query["coordinates"] as? [Double] == [-1.64, 42.81])
        #expect((features[1]["geometry"] as? [String: Any])?["type"] as? String == "MultiPolygon")
        #expect((features[1]["properties"] as? [String: Any])?["approximate"] as? Bool == true)
    }

    @Test func outsideEveryFeatureIsExitThreeAndNamesTheNearest() throws {
        let r = try Self.run(["which-sector", "40.4168", "-3.7038"])  // Madrid
        #expect(r.status == 3)
        #expect(r.stdout.contains("outside every feature of pamplona-sectors. Nearest: Sector 4 — Iturrama"))
    }

    @Test func swappedNumbersAreExplained() throws {
        let r = try Self.run(["which-sector", "-1.64", "42.81"])
        #expect(r.status == 3)
        #expect(
            r.stdout.contains("the numbers look swapped: latitude 42.81, longitude -1.64 is in Sector 2 — Ensanches"))
    }

    @Test(arguments: [
        (["which-sector", "95", "1"], Int32(64), "latitude 95.0 is outside [-90, 90]"),
        (["which-sector", "42.81"], Int32(64), "missing LON"),
        (
            ["which-sector", "42.81", "-1.64", "--layer", "nope"], Int32(64),
            "unknown layer 'nope'; known layers: pamplona-sectors"
        ),
        (["which-sector", "42.81", "-1.64", "--format", "xml"], Int32(64), "xml"),
    ])
    func badArguments(arguments: [String], status: Int32, message: String) throws {
        let r = try Self.run(arguments)
        #expect(r.status == status)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func missingDataDirectoryIsExitSixtySix() throws {
        let r = try Self.run(["which-sector", "42.81", "-1.64"], environment: ["GEOQ_DATA_DIR": "/nonexistent/data"])
        #expect(r.status == 66)
        #expect(
            r.stderr.contains("/nonexistent/data/pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json does not exist"))
    }

    @Test func malformedDataFileIsExitSixtyFiveAndNamesTheFeature() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "a", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,0]]]}},
          {"type": "Feature", "id": "b", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,"x"],[1,1],[0,0]]]}}
        ]}
        """.write(to: dir.appendingPathComponent("bad.geojson"), atomically: true, encoding: .utf8)
        try #"{"layers": [{"name": "bad", "title": "Bad", "source": "bad.geojson"}]}"#
            .write(to: dir.appendingPathComponent("layers.json"), atomically: true, encoding: .utf8)
        let r = try Self.run(
            ["which-sector", "0.5", "0.2", "--layer", "bad"],
            environment: ["GEOQ_CATALOG": dir.appendingPathComponent("layers.json").path, "GEOQ_DATA_DIR": dir.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("bad.geojson"))
        #expect(r.stderr.contains("feature"), "\(r.stderr)")
        #expect(r.stderr.contains("coordinates[0][1]"), "\(r.stderr)")
    }

    @Test func batchStreamsAnswersAndErrorLines() throws {
        let input = "lat,lon,id\n42.81,-1.64,car-1\n42.818,x\n40.4168,-3.7038,madrid\n"
        let r = try Self.run(["which-sector", "--batch", "--format", "json"], stdin: input)
        #expect(r.status == 4, "a batch with a bad line exits 4")
        let lines = r.stdout.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        try #require(lines.count == 3)
        #expect(lines[0]?["line"] as? Int == 2 && lines[0]?["id"] as? String == "car-1")
        #expect(((lines[0]?["inside"] as? [[String: Any]])?.first?["id"]) as? String == "2")
        #expect(lines[1]?["line"] as? Int == 3)
        #expect(
            ((lines[1]?["error"] as? [String: Any])?["message"] as? String)?.contains("longitude 'x' is not a number")
                == true)
        #expect(lines[2]?["line"] as? Int == 4 && (lines[2]?["inside"] as? [Any])?.isEmpty == true)
    }

    @Test func helpHasExamplesAndExitStatuses() throws {
        let r = try Self.run(["which-sector", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("geoq which-sector 42.81 -1.64"))
        #expect(r.stdout.contains("Exit status: 0 inside a feature, 3 outside every feature"))
    }

    /// Prose is wrapped by the terminal's width; examples and tables keep their lines. At 80
    /// columns no line of a command's discussion is longer, and its indented lines are the
    /// same as at 200 columns (a too-long one would come out broken at a space).
    @Test(arguments: [
        [], ["which-sector"], ["nearest"], ["services"], ["ar"], ["trip"], ["tariff"], ["park"], ["incidents"],
        ["incidents", "refresh"], ["import"], ["layers"], ["info"], ["serve"],
    ])
    func helpFitsEightyColumns(command: [String]) throws {
        func discussion(columns: Int) throws -> [Substring] {
            let r = try Self.run(command + ["--help"], environment: ["COLUMNS": String(columns)])
            #expect(r.status == 0)
            return r.stdout.split(separator: "\n").prefix { !$0.hasPrefix("USAGE:") }
        }
        let narrow = try discussion(columns: 80)
        let wide = try discussion(columns: 200)
        for line in narrow { #expect(line.count <= 80, "\(command): \(line)") }
        #expect(narrow.filter { $0.hasPrefix("  ") } == wide.filter { $0.hasPrefix("  ") }, "\(command)")
        #expect(wide.count < narrow.count || narrow.count < 4, "\(command): the prose is not reflowed")
    }

    // MARK: import, info, layers and the store

    static func temporaryStore() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("store.gpkg").path
    }

    @Test func importThenInfoLayersAndQueryFromTheStore() throws {
        let store = try Self.temporaryStore()
        let barrios = TestData.url("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json").path
        let imported = try Self.run([
            "import", barrios, "--layer", "barrios", "--name-field", "NOMBRE", "--store", store,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported barrios into \(store): read 13, written 13, repaired 0, skipped 0"))

        let info = try Self.run(["info", "barrios", "--store", store, "--format", "json"])
        #expect(info.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        #expect(object["featureCount"] as? Int == 13)
        #expect(object["geometryType"] as? String == "MULTIPOLYGON")
        #expect(object["sourceCRS"] as? String == "EPSG:4326")
        #expect((object["source"] as? String)?.hasSuffix("geopamplona_datos_BIEN_Pol_UnidBarrio.json") == true)

        let layers = try Self.run(["layers", "--store", store])
        #expect(layers.stdout.contains("barrios\tMULTIPOLYGON\t13 features"))
        #expect(layers.stdout.contains("pamplona-sectors\t(not imported)"))

        // which-sector answers from the store (the catalog has no layer named "barrios"); the id
        // is the file's ID attribute, found without --id-field.
        let answer = try Self.run(["which-sector", "42.818", "-1.644", "--layer", "barrios", "--store", store])
        #expect(answer.status == 0)
        #expect(answer.stdout.contains("is in Casco Viejo/Alde Zaharra (id 0) of barrios"))
    }

    @Test func failedImportExitsWithTheReasonAndKeepsTheStore() throws {
        let store = try Self.temporaryStore()
        let zac = TestData.url("pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.shp").path
        #expect(try Self.run(["import", zac, "--layer", "zac", "--store", store]).status == 0)
        let pv = TestData.url("pamplona/cesium_datos_AMBI_Pto_Inst_FV_Muni.json").path
        let refused = try Self.run(["import", pv, "--layer", "zac", "--store", store])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("--crs EPSG:25830"))
        let info = try Self.run(["info", "zac", "--store", store])
        #expect(info.stdout.contains("features:       2"), "the earlier layer is intact: \(info.stdout)")
        #expect(info.stdout.contains("ETRS89 / UTM zone 30N"))

        let badName = try Self.run(["import", zac, "--layer", "ZAC", "--store", store])
        #expect(badName.status == 64)
        #expect(badName.stderr.contains("may hold only lower-case letters"))
        let unknown = try Self.run(["info", "nope", "--store", store])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("layer 'nope' is not in the store"))
    }

    // MARK: nearest and services

    @Test func nearestEspecialFallasAsJSON() throws {
        let r = try Self.run([
            "nearest", "39.4699", "-0.3763", "--layer", "fallas", "--category", "Especial", "-n", "5",
            "--format", "json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let answer = try JSONDecoder().decode(NearestAnswer.self, from: Data(r.stdout.utf8))
        #expect(answer.hits.count == 5)
        #expect(answer.hits.allSatisfy { $0.category == "Especial" && $0.geoURI.hasPrefix("geo:39.") })
        #expect(answer.hits.map(\.distanceMetres) == answer.hits.map(\.distanceMetres).sorted())
        #expect(answer.hits.first?.links?["childrensFalla"] != nil)
    }

    @Test func nearestTextAndWrongLayerKind() throws {
        let r = try Self.run(["nearest", "39.4699", "-0.3763", "--layer", "valencia-valenbisi", "-n", "2"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("1. "))
        #expect(r.stdout.contains("geo:39."))
        let polygons = try Self.run(["nearest", "42.81", "-1.64", "--layer", "pamplona-sectors"])
        #expect(polygons.status == 64)
        #expect(polygons.stderr.contains("nearest-N answers need a layer of Point or MultiPoint features"))
        let sectors = try Self.run(["which-sector", "39.4699", "-0.3763", "--layer", "fallas"])
        #expect(sectors.status == 64)
        #expect(sectors.stderr.contains("a sector layer needs Polygon or MultiPolygon features"))
    }

    @Test func servicesGroupsAndUnknownType() throws {
        let r = try Self.run(["services", "39.4699", "-0.3763", "--type", "hospital", "--type", "taxi-rank", "-n", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("hospital (valencia-hospitals):"))
        #expect(r.stdout.contains("taxi-rank (valencia-taxi-ranks):"))
        #expect(!r.stdout.contains("car-park"))
        let unknown = try Self.run(["services", "39.4699", "-0.3763", "--type", "spa"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("service type 'spa'"))
    }

    // MARK: ar and trip

    /// Pinhole check worked out here, not by the AR module: with pitch = roll = 0 and targets
    /// at the device's altitude, x = W/2 + f·tan(Δψ), f = (W/2)/tan(hFOV/2) = 540/tan 30°.
    @Test func arLabelsFollowThePinholeModel() throws {
        let r = try Self.run([
            "ar", "39.4699", "-0.3763", "--heading", "20", "--max-distance", "800", "--format", "json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let labels = try #require(object["labels"] as? [[String: Any]])
        let visible = labels.filter { $0["visible"] as? Bool == true }
        #expect(visible.count >= 3)
        let f = 540 / tan(30 * Double.pi / 180)
        for label in visible {
            let relative = try #require(label["relativeBearing"] as? Double)
            let x = try #require(label["x"] as? Double)
            #expect(abs(x - (540 + f * tan(relative * Double.pi / 180))) < 0.5)
        }
        let distances = labels.compactMap { $0["distance"] as? Double }
        #expect(distances == distances.sorted(), "nearest first")
    }

    @Test func arStreamReportsBadLinesAndGoesOn() throws {
        let input = "{\"heading\": 359}\n{\"heading\": \"north\"}\n{\"heading\": 1}\n"
        let r = try Self.run(
            ["ar", "39.4699", "-0.3763", "--stream", "--max-distance", "500", "--format", "json"], stdin: input)
        #expect(r.status == 4)
        let lines = r.stdout.split(separator: "\n")
        try #require(lines.count == 3)
        #expect(lines[1].contains("\"line\":2") && lines[1].contains("bad-input"))
    }

    @Test func tripLengthAndErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-trip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let good = dir.appendingPathComponent("trace.csv")
        try
            "time,lat,lon\n2026-11-22T08:00:00Z,42.81,-1.64\n2026-11-22T08:01:00Z,42.82,-1.64\n2026-11-22T08:02:00Z,42.83,-1.64\n"
            .write(to: good, atomically: true, encoding: .utf8)
        let r = try Self.run(["trip", good.path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        // The meridian arc from 42.81° to 42.83°, integrated separately in Python from the WGS84
        // meridional radius M(φ) = a(1-e²)/(1-e² sin²φ)^1.5: 2,221.78 m.
        let length = try #require(
            (report["lengthMetres"] as? Double) ?? ((report["report"] as? [String: Any])?["lengthMetres"] as? Double))
        #expect(abs(length - 2221.78) < 0.01)
        let bad = dir.appendingPathComponent("bad.csv")
        try "time,lat,lon\n2026-11-22T08:00:00Z,142.81,-1.64\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try Self.run(["trip", bad.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("bad.csv:2"))
        #expect(try Self.run(["trip", dir.appendingPathComponent("none.csv").path]).status == 66)
    }
}
