import Foundation
import GeoqTestSupport
import Testing

/// `geoq import` of a user's own file: names and ids found without --name-field/--id-field,
/// said in the summary; `geoq info` lists the attributes; a missing file is named as such.
@Suite struct ImportCommandTests {
    static let units = TestData.url("pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json").path

    @Test func namesAndIdsAreFoundAndTheSummarySaysWhich() throws {
        let store = try GeoqBinaryTests.temporaryStore()
        let imported = try GeoqBinaryTests.run(["import", Self.units, "--layer", "my-units", "--store", store])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  names: attribute 'NOMBRE' (found in the file)\n"))
        #expect(imported.stdout.contains("  ids: attribute 'ID' (found in the file)\n"))
        #expect(imported.stdout.contains("choose others with --name-field F and --id-field F"))

        // Iturrama is ID 5 in the file; 42.8045 -1.6545 is inside it (the catalog's sector 4).
        let answer = try GeoqBinaryTests.run([
            "which-sector", "42.8045", "-1.6545", "--layer", "my-units", "--store", store,
        ])
        #expect(answer.stdout.hasPrefix("42.8045, -1.6545 is in Iturrama (id 5) of my-units"), "\(answer.stdout)")

        let json = try GeoqBinaryTests.run([
            "import", Self.units, "--layer", "my-units", "--store", store, "--format", "json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let naming = try #require((object["imports"] as? [[String: Any]])?.first?["naming"] as? [String: Any])
        #expect(naming["nameField"] as? String == "NOMBRE" && naming["nameChosen"] as? String == "detected")
        #expect(naming["idField"] as? String == "ID" && naming["idChosen"] as? String == "detected")
        #expect((naming["hint"] as? String)?.contains("--id-field") == true)
    }

    @Test func givenFieldsWinAndTheSummarySaysSo() throws {
        let store = try GeoqBinaryTests.temporaryStore()
        let imported = try GeoqBinaryTests.run([
            "import", Self.units, "--layer", "u", "--store", store, "--name-field", "DIRECCION",
        ])
        #expect(imported.stdout.contains("  names: attribute 'DIRECCION' (as asked)\n"))
        #expect(imported.stdout.contains("  ids: attribute 'ID' (found in the file)\n"))
    }

    @Test func infoListsTheAttributes() throws {
        let store = try GeoqBinaryTests.temporaryStore()
        _ = try GeoqBinaryTests.run(["import", Self.units, "--layer", "units", "--store", store])
        let text = try GeoqBinaryTests.run(["info", "units", "--store", store])
        #expect(text.stdout.contains("attributes:     CATEGORIA (text, e.g. \"Unidad de Barrio\")\n"))
        #expect(text.stdout.contains("                NOMBRE (text, e.g. \"Casco Viejo/Alde Zaharra\")\n"))
        #expect(text.stdout.contains("                FEATURE (number, e.g. \"12004\")\n"))
        let json = try GeoqBinaryTests.run(["info", "units", "--store", store, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let attributes = try #require(object["attributes"] as? [[String: Any]])
        #expect(attributes.count == 7)
        let direccion = try #require(attributes.first { $0["name"] as? String == "DIRECCION" })
        #expect(direccion["type"] as? String == "text" && direccion["example"] as? String == "C/ Joaquín Jarauta 43")
    }

    @Test func aMissingUserFileIsNamedWithoutTheDataDirectoryHint() throws {
        let run = try GeoqBinaryTests.run(["import", "/nonexistent/nope.geojson", "--layer", "x"])
        #expect(run.status == 66)
        #expect(run.stderr == "geoq: error: /nonexistent/nope.geojson: no such file\n")
        let directory = try GeoqBinaryTests.run(["import", "/tmp", "--layer", "x"])
        #expect(directory.status == 66)
        #expect(directory.stderr == "geoq: error: /tmp: is a directory, not a file\n")
    }

    @Test func aMissingCatalogFileKeepsTheDataDirectoryHint() throws {
        let run = try GeoqBinaryTests.run(
            ["which-sector", "42.81", "-1.64"], environment: ["GEOQ_DATA_DIR": "/nonexistent/data"])
        #expect(run.status == 66)
        #expect(run.stderr.contains("GEOQ_DATA_DIR"))
    }
}
