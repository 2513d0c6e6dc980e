import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqStore

/// GDAL as a real client: ogrinfo, ogr2ogr and GDAL's GeoPackage validator read what we write.
/// Needs `gdal-bin` (and `python3-gdal` for the validator); skipped visibly when absent.
@Suite struct GDALClientTests {
    static func executable(_ name: String) -> String? { ExternalTool.path(name) }

    static let hasGDAL = executable("ogrinfo") != nil && executable("ogr2ogr") != nil
    static let hasValidator: Bool = {
        guard let python = executable("python3") else { return false }
        return (try? run(python, ["-c", "import osgeo_utils.samples.validate_gpkg"]))?.status == 0
    }()

    /// Runs `tool` and returns its exit status and combined output.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try ExternalTool.run(tool, arguments)
    }

    static func makeStore(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("store.gpkg")
        let store = try GeoPackage.open(at: path, create: true)
        try store.replaceLayer(Fixtures.input("pamplona-sectors", Fixtures.pamplonaLike))
        try store.replaceLayer(
            Fixtures.input(
                "points",
                [
                    Feature(id: "a", name: "Plaza del Castillo", geometry: .point(Point(x: -1.6432, y: 42.8169))),
                    Feature(id: "b", geometry: .point(Point(x: -0.375, y: 39.46875))),
                ]))
        return path
    }

    @Test(.enabled(if: hasGDAL, "gdal-bin not installed"))
    func ogrinfoListsLayersCountsExtentsAndTypes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = try Self.makeStore(in: dir)
        let (status, output) = try Self.run(Self.executable("ogrinfo")!, ["-ro", "-so", "-al", path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Layer name: pamplona-sectors"), "\(output)")
        #expect(output.contains("Geometry: Multi Polygon"), "\(output)")
        #expect(output.contains("Feature Count: 3"), "\(output)")
        #expect(output.contains("Extent: (-1.750000, 42.500000) - (-1.437500, 43.000000)"), "\(output)")
        #expect(output.contains("Layer name: points"), "\(output)")
        #expect(output.contains("Geometry: Point"), "\(output)")
        #expect(output.contains("Feature Count: 2"), "\(output)")
        #expect(output.contains("Extent: (-1.643200, 39.468750) - (-0.375000, 42.816900)"), "\(output)")
        #expect(output.contains("Código Sección: String"), "\(output)")
        #expect(output.contains("área m²: Real"), "\(output)")
        #expect(!output.contains("ERROR"), "\(output)")
        #expect(!output.contains("Warning"), "\(output)")
    }

    @Test(.enabled(if: hasGDAL, "gdal-bin not installed"))
    func ogr2ogrExportsTheFeatures() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = try Self.makeStore(in: dir)
        let out = dir.path("out.json")
        let (status, output) = try Self.run(
            Self.executable("ogr2ogr")!, ["-f", "GeoJSON", out, path, "pamplona-sectors"])
        #expect(status == 0, "\(output)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
        let features = try #require(json?["features"] as? [[String: Any]])
        #expect(features.count == 3)
        let first = try #require(features.first)
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(properties["geoq_id"] as? String == "1")
        #expect(properties["Código Sección"] as? String == "31201-001")
        #expect(properties["AÑO"] as? Double == 2023)
        let geometry = try #require(first["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiPolygon")
        // coordinates[polygon 0][ring 0][vertex 1] of square(-1.75, 42.5, 0.125) is (-1.625, 42.5).
        let coordinates = try #require(geometry["coordinates"] as? [[[[Double]]]])
        #expect(coordinates[0][0][1] == [-1.625, 42.5])
        #expect(coordinates[0].count == 2)  // shell and hole
    }

    @Test(.enabled(if: hasValidator, "python3-gdal (osgeo_utils.samples.validate_gpkg) not installed"))
    func gdalValidatorFindsNoError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let path = try Self.makeStore(in: dir)
        let (status, output) = try Self.run(
            Self.executable("python3")!,
            ["-m", "osgeo_utils.samples.validate_gpkg", "-k", "--extra", "--warning-as-error", path])
        #expect(status == 0, "\(output)")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(output)")
        #expect(try GeoPackage.open(at: path, create: false).integrityCheck() == "ok")
    }

    /// A GeoPackage written by GDAL (geometry column `geom`, INTEGER and REAL fields, a
    /// gpkg_ogr_contents feature-count cache) reads back, and replacing its layer leaves GDAL
    /// seeing only the new features.
    @Test(.enabled(if: hasGDAL, "gdal-bin not installed"))
    func readsAndReplacesALayerWrittenByGDAL() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let geojson = dir.path("in.geojson")
        try Data(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"nombre": "Sur", "n": 3, "x": 1.5},
               "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [2, 0], [2, 1], [0, 1], [0, 0]]]}},
              {"type": "Feature", "properties": {"nombre": "Norte", "n": 4, "x": null},
               "geometry": {"type": "Polygon", "coordinates": [[[0, 1], [2, 1], [2, 2], [0, 1]]]}}
            ]}
            """.utf8
        ).write(to: URL(fileURLWithPath: geojson))
        let path = dir.path("gdal.gpkg")
        let (status, output) = try Self.run(
            Self.executable("ogr2ogr")!, ["-f", "GPKG", "-nln", "zonas", path, geojson])
        try #require(status == 0, "\(output)")

        let store = try GeoPackage.open(at: path, create: false)
        let info = try store.layer(named: "zonas")
        #expect(info.geometryType == "POLYGON")
        #expect(info.featureCount == 2)
        #expect(info.extent == BoundingBox(minX: 0, minY: 0, maxX: 2, maxY: 2))
        #expect(info.source == "")
        let features = try store.features(of: "zonas")
        #expect(features.map(\.id) == ["1", "2"])
        #expect(features[0].properties == ["nombre": .string("Sur"), "n": .number(3), "x": .number(1.5)])
        #expect(features[1].properties == ["nombre": .string("Norte"), "n": .number(4), "x": .null])
        #expect(features[1].geometry == .polygon(Polygon(shell: Fixtures.ring([(0, 1), (2, 1), (2, 2), (0, 1)]))))

        let replacement = Fixtures.randomPolygons(count: 7, vertices: 5, seed: 21)
        try store.replaceLayer(Fixtures.input("zonas", replacement))
        #expect(try store.features(of: "zonas") == replacement)
        let (status2, output2) = try Self.run(Self.executable("ogrinfo")!, ["-ro", "-so", path, "zonas"])
        #expect(status2 == 0, "\(output2)")
        #expect(output2.contains("Feature Count: 7"), "\(output2)")
        #expect(output2.contains("Geometry: Polygon"), "\(output2)")
    }
}
