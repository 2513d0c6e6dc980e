import Foundation
import GeoqLayers
import GeoqTestSupport
import Testing

@Suite struct LayerCatalogTests {
    @Test func repositoryCatalogNamesTheDefaultLayers() throws {
        let catalog = try sharedCatalog()
        #expect(
            catalog.layers.map(\.name) == [
                "pamplona-sectors", "pamplona-barrios", "pamplona-restricted-access",
                "valencia-census-sections", "valencia-barrios", "valencia-districts",
                "fallas", "fallas-infantiles", "fallas-carpas",
                "valencia-car-parks", "valencia-hospitals", "valencia-valenbisi", "valencia-taxi-ranks",
                "valencia-ev-chargers", "valencia-disabled-parking", "valencia-traffic-cameras", "timezones",
            ])
        #expect(try catalog.spec(named: LayerCatalog.defaultLayerName).approximate != nil)
        // Optional layers (fetched separately) may be absent; the rest come with the shared data.
        for spec in catalog.layers where spec.fetch == nil {
            #expect(FileManager.default.fileExists(atPath: catalog.sourceURL(of: spec).path), "\(spec.name)")
        }
        #expect(catalog.listedLayers(environment: [:]).map(\.name) == catalog.layers.map(\.name).dropLast())
    }

    @Test func unknownLayerListsTheKnownOnes() throws {
        #expect(throws: LayerError.unknownLayer(name: "pamplona-sector", known: try sharedCatalog().layers.map(\.name)))
        {
            try sharedCatalog().spec(named: "pamplona-sector")
        }
    }

    @Test func malformedCatalogNamesFileAndField() throws {
        let file = try writeTemporary("layers.json", #"{"layers": [{"name": "x", "source": "a.json"}]}"#)
        do {
            _ = try LayerCatalog.load(from: file, dataDirectory: file.deletingLastPathComponent())
            Issue.record("a catalog entry without a title must be refused")
        } catch {
            #expect(error.code == "catalog-malformed")
            #expect(error.description.contains(file.path))
            #expect(error.description.contains("layers[0]"))
            #expect(error.description.contains("title"))
        }
    }

    @Test func repeatedLayerNameIsRefused() throws {
        let entry = #"{"name": "x", "title": "X", "source": "a.json"}"#
        let file = try writeTemporary("layers.json", #"{"layers": [\#(entry), \#(entry)]}"#)
        #expect(throws: LayerError.catalogMalformed(path: file.path, reason: "layer name 'x' appears twice")) {
            try LayerCatalog.load(from: file, dataDirectory: file.deletingLastPathComponent())
        }
    }

    @Test func locationsFromEnvironmentAndFromNestedDirectories() throws {
        let root = TestData.packageRoot
        let nested = root.appendingPathComponent("Sources/GeoqCore")
        let found = try DataLocations.resolve(environment: [:], workingDirectory: nested, executable: nil)
        #expect(
            found.catalogFile.standardizedFileURL.path
                == root.appendingPathComponent("data/layers.json").standardizedFileURL.path)
        #expect(found.dataDirectory.path == root.appendingPathComponent("../shared/data").standardizedFileURL.path)
        #expect(try found.storeFile.path == root.appendingPathComponent("data/geoq.gpkg").standardizedFileURL.path)

        let overridden = try DataLocations.resolve(
            environment: ["GEOQ_DATA_DIR": "elsewhere/data", "GEOQ_STORE": "/tmp/x.gpkg"], workingDirectory: root,
            executable: nil)
        #expect(overridden.dataDirectory.path == root.appendingPathComponent("elsewhere/data").standardizedFileURL.path)
        #expect(try overridden.storeFile.path == "/tmp/x.gpkg")

        // An address in GEOQ_STORE is never a file: without a shared-store backend (read with
        // one in GeoqPostGISTests' StoreAddressParsingTests) every address is a bad address.
        for address in ["postgresql://geoq@db.example:6543/city?schema=pamplona", "ftp://x/y"] {
            #expect {
                try DataLocations.resolve(environment: ["GEOQ_STORE": address], workingDirectory: root, executable: nil)
            } throws: { error in
                guard case .store(let failure) = error as? LayerError else { return false }
                return failure.kind == .badAddress
            }
        }

        let nowhere = FileManager.default.temporaryDirectory
        #expect(throws: LayerError.self) {
            try DataLocations.resolve(environment: [:], workingDirectory: nowhere, executable: nil)
        }
    }
}
