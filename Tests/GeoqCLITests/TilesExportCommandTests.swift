import Foundation
import GeoqLayers
import GeoqTestSupport
import GeoqTiles
import Testing

/// `geoq tiles export`: the archive read back by the reference reader (PyPI `pmtiles`, in
/// GEOQ_TEST_PYTHON as tools/test sets it), each tile decoded by PyPI `mapbox-vector-tile`, and
/// the tiles the same bytes the service answers (``LayerTiler``, gzip-compressed).
@Suite struct TilesExportCommandTests {
    static let python = ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"]

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tiles-\(UUID().uuidString)-\(name)")
    }

    @Test(.enabled(if: python != nil, "set GEOQ_TEST_PYTHON to a Python with pmtiles and mapbox-vector-tile"))
    func theArchiveHoldsEveryTileWithFeaturesAsTheServiceCutsIt() throws {
        let output = Self.temporaryFile("barrios.pmtiles")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try GeoqBinaryTests.run([
            "tiles", "export", "valencia-barrios", "--min-zoom", "9", "--max-zoom", "14", "--output", output.path,
            "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let script = """
            import gzip, json, sys, mapbox_vector_tile
            from pmtiles.reader import Reader, MmapSource, all_tiles
            with open(sys.argv[1], "rb") as f:
                reader = Reader(MmapSource(f))
                header, metadata = reader.header(), reader.metadata()
                tiles = {}
                for (z, x, y), data in all_tiles(MmapSource(f)):
                    plain = gzip.decompress(data)
                    layers = mapbox_vector_tile.decode(plain)
                    tiles[f"{z}/{x}/{y}"] = {"hex": plain.hex(), "layers": list(layers.keys()),
                        "ids": [str(f["properties"]["id"]) for l in layers.values() for f in l["features"]]}
            print(json.dumps({"minZoom": header["min_zoom"], "maxZoom": header["max_zoom"],
                "tileType": str(header["tile_type"]), "clustered": header["clustered"],
                "name": metadata["name"], "layers": [l["id"] for l in metadata["vector_layers"]], "tiles": tiles}))
            """
        let read = try ExternalTool.run(URL(fileURLWithPath: try #require(Self.python)), ["-c", script, output.path])
        #expect(read.status == 0, "\(read.stderr)")
        let archive = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(archive["minZoom"] as? Int == 9 && archive["maxZoom"] as? Int == 14)
        #expect(archive["tileType"] as? String == "TileType.MVT" && archive["clustered"] as? Bool == true)
        #expect(archive["name"] as? String == "valencia-barrios")
        #expect(archive["layers"] as? [String] == ["valencia-barrios"])
        let tiles = try #require(archive["tiles"] as? [String: [String: Any]])
        #expect(tiles.count == report["tiles"] as? Int)

        // The service's cut of the same layer, tile by tile over the layer's extent.
        let catalog = try LayerCatalog.load(
            from: TestData.packageRoot.appendingPathComponent("data/layers.json"), dataDirectory: TestData.directory)
        let tiler = LayerTiler(
            name: "valencia-barrios", features: try LayerLoader().load("valencia-barrios", from: catalog).features)
        var expected: [String: [UInt8]] = [:]
        for zoom in 9...14 {
            for tile in try #require(try tiler.tiles(zoom: zoom)) {
                let encoded = try tiler.tile(tile)
                if encoded.featuresKept > 0 { expected["\(tile.z)/\(tile.x)/\(tile.y)"] = encoded.bytes }
            }
        }
        #expect(Set(tiles.keys) == Set(expected.keys))
        for (key, bytes) in expected {
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            #expect(tiles[key]?["hex"] as? String == hex, "\(key)")
            #expect(tiles[key]?["layers"] as? [String] == ["valencia-barrios"], "\(key)")
        }
        // Every barrio is in some tile of each zoom it is large enough for: all 88 at zoom 14.
        let atFourteen = Set(tiles.filter { $0.key.hasPrefix("14/") }.flatMap { $0.value["ids"] as? [String] ?? [] })
        #expect(atFourteen.count == 88)
    }

    @Test func badZoomsAndLayersAreRefusedAndLeaveNoFile() throws {
        let output = Self.temporaryFile("none.pmtiles")
        let reversed = try GeoqBinaryTests.run([
            "tiles", "export", "valencia-barrios", "--min-zoom", "9", "--max-zoom", "8", "-o", output.path,
        ])
        #expect(reversed.status == 64)
        #expect(reversed.stderr.contains("--min-zoom (9) must not be above --max-zoom (8)"), "\(reversed.stderr)")
        let unknown = try GeoqBinaryTests.run(["tiles", "export", "nowhere", "-o", output.path, "--format", "json"])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("nowhere"))
        // At zoom 0 a grid unit is some 10 km wide: no barrio covers one square unit.
        let tooSmall = try GeoqBinaryTests.run([
            "tiles", "export", "valencia-barrios", "--min-zoom", "0", "--max-zoom", "0", "-o", output.path,
        ])
        #expect(tooSmall.status == 64, "\(tooSmall.stderr)")
        #expect(tooSmall.stderr.contains("no feature large enough to draw at zooms 0 to 0"), "\(tooSmall.stderr)")
        let unwritable = try GeoqBinaryTests.run([
            "tiles", "export", "valencia-barrios", "--min-zoom", "10", "--max-zoom", "10", "-o",
            "/nonexistent/dir/x.pmtiles",
        ])
        #expect(unwritable.status == 74, "\(unwritable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
