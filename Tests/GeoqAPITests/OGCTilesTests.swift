import Foundation
import GeoqAPI
import GeoqCore
import GeoqGEOS
import GeoqQuery
import GeoqTestSupport
import GeoqTiles
import Testing

/// The collections' vector tiles against independent judges: PyPI `mapbox-vector-tile` decodes
/// each tile (GEOQ_TEST_PYTHON, as tools/test sets it), GEOS says which features meet the tile's
/// buffered extent and how far the decoded polygons are from the source clipped to it.
@Suite struct OGCTilesTests {
    static var data: ServiceData { SectorEndpointTests.data }
    static let python = ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"]

    struct Decoded {
        var layers: [String]
        /// Per feature: its text id and its geometry as WKT in tile units (y down).
        var features: [(id: String, wkt: String)]
    }

    /// `bytes` decoded by mapbox-vector-tile, geometry in tile units with y down.
    static func decode(_ bytes: [UInt8]) throws -> Decoded {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tile-\(UUID().uuidString).mvt")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys, mapbox_vector_tile
            tile = mapbox_vector_tile.decode(open(sys.argv[1], "rb").read(), default_options={"y_coord_down": True})
            def ring(r): return "(" + ", ".join(f"{x} {y}" for x, y in r) + ")"
            def wkt(g):
                t, c = g["type"], g["coordinates"]
                if t == "Point": return f"POINT ({c[0]} {c[1]})"
                if t == "MultiPoint": return "MULTIPOINT (" + ", ".join(f"({x} {y})" for x, y in c) + ")"
                if t == "LineString": return "LINESTRING " + ring(c)
                if t == "MultiLineString": return "MULTILINESTRING (" + ", ".join(ring(l) for l in c) + ")"
                if t == "Polygon": return "POLYGON (" + ", ".join(ring(r) for r in c) + ")"
                return "MULTIPOLYGON (" + ", ".join("(" + ", ".join(ring(r) for r in p) + ")" for p in c) + ")"
            out = {"layers": list(tile.keys()), "features": []}
            for name, layer in tile.items():
                assert layer["extent"] == 4096, layer["extent"]
                for f in layer["features"]:
                    out["features"].append([str(f["properties"]["id"]), wkt(f["geometry"])])
            print(json.dumps(out))
            """
        let run = try ExternalTool.run(
            URL(fileURLWithPath: try #require(python)), ["-c", script, file.path])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let features = (object["features"] as? [[String]] ?? []).map { (id: $0[0], wkt: $0[1]) }
        return Decoded(layers: object["layers"] as? [String] ?? [], features: features)
    }

    /// Seeded tiles over each polygon layer: at zooms 8 to 17, around a random point of a
    /// random feature's bounds.
    static func seededTiles(_ layer: Layer, count: Int, seed: UInt64) throws -> [TileID] {
        var rng = SeededRandom(seed: seed)
        return try (0..<count).map { index in
            let feature = layer.features[Int(rng.next() % UInt64(layer.features.count))]
            let box = feature.geometry.boundingBox
            let point = Point(x: rng.uniform(box.minX...box.maxX), y: rng.uniform(box.minY...box.maxY))
            return try TileID.containing(point, zoom: 8 + index % 10)
        }
    }

    /// The buffered tile in degrees, as a GEOS polygon.
    static func rectangle(_ box: BoundingBox, _ context: GEOSContext) throws -> GEOSGeometry {
        try context.readWKT(
            "POLYGON((\(box.minX) \(box.minY), \(box.maxX) \(box.minY), \(box.maxX) \(box.maxY), \(box.minX) \(box.maxY), \(box.minX) \(box.minY)))"
        )
    }

    /// A position in the tile's grid units (Double, y down), as a tile decoder reads it.
    static func gridPosition(_ point: Point, _ tile: TileID) -> Point {
        let n = Double(tile.tilesPerSide)
        return Point(
            x: (WebMercator.x(longitude: point.x) * n - Double(tile.x)) * 4096,
            y: (WebMercator.y(latitude: point.y) * n - Double(tile.y)) * 4096)
    }

    /// Each tile holds the features GEOS finds meeting its buffered extent, less those the tile
    /// reports too small to draw; the layer is named as the collection.
    @Test(
        .enabled(if: python != nil, "set GEOQ_TEST_PYTHON to a Python with mapbox-vector-tile (tools/test does)"),
        arguments: ["pamplona-sectors", "pamplona-barrios", "valencia-census-sections", "valencia-barrios"])
    func aTileHoldsExactlyTheFeaturesMeetingItsBufferedExtent(name: String) throws {
        let layer = try #require(Self.data.sectorLookups[name]?.layer)
        let context = GEOSContext()
        let sources = try layer.features.map { try context.makeGeometry($0.geometry) }
        var met = 0
        for tile in try Self.seededTiles(layer, count: 14, seed: 7 &+ UInt64(name.utf8.count)) {
            let encoded = try OGCTiles.tile(name, z: tile.z, y: tile.y, x: tile.x, data: Self.data)
            let reach = LayerTiler.bufferedBounds(of: tile, options: TileEncodingOptions())
            let box = try Self.rectangle(reach, context)
            let expected = try layer.features.indices.filter { try context.intersects(sources[$0], box) }.map {
                layer.features[$0].id
            }
            met += expected.count
            let decoded = try Self.decode(encoded.bytes)
            if !decoded.features.isEmpty { #expect(decoded.layers == [name]) }
            let ids = decoded.features.map(\.id)
            #expect(Set(ids).isSubset(of: Set(expected)), "\(tile): \(Set(ids).subtracting(expected))")
            #expect(ids.count + encoded.featuresTooSmall == expected.count, "\(tile): \(ids) of \(expected)")
            #expect(encoded.featuresOverSizeCap == 0)
            if tile.z >= OGCTiles.simplifiedBelow { #expect(encoded.featuresTooSmall == 0, "\(tile)") }
        }
        #expect(met > 0)
    }

    /// At the zooms that keep every vertex, each decoded polygon covers its source clipped to
    /// the buffered tile within one grid unit: every source vertex in the buffered square, and
    /// a grid of points of the square inside the source, lie within one unit of it (GEOS).
    @Test(
        .enabled(if: python != nil, "set GEOQ_TEST_PYTHON to a Python with mapbox-vector-tile (tools/test does)"),
        arguments: ["pamplona-sectors", "valencia-barrios"])
    func atTheTopZoomsADecodedPolygonCoversItsClippedSourceWithinAUnit(name: String) throws {
        let layer = try #require(Self.data.sectorLookups[name]?.layer)
        let byID = Dictionary(uniqueKeysWithValues: layer.features.map { ($0.id, $0.geometry) })
        let context = GEOSContext()
        var checked = 0
        for tile in try Self.seededTiles(layer, count: 21, seed: 99) where tile.z >= OGCTiles.simplifiedBelow {
            let encoded = try OGCTiles.tile(name, z: tile.z, y: tile.y, x: tile.x, data: Self.data)
            for feature in try Self.decode(encoded.bytes).features {
                let decoded = try context.readWKT(feature.wkt)
                let source = try #require(byID[feature.id]).areal!
                let square = -64.0...4160.0
                var probes = source.polygons.flatMap { $0.rings.flatMap { Array($0.points) } }.map {
                    Self.gridPosition($0, tile)
                }.filter { square.contains($0.x) && square.contains($0.y) }
                for gx in stride(from: -64.0, through: 4160, by: 48) {
                    for gy in stride(from: -64.0, through: 4160, by: 48) {
                        let n = Double(tile.tilesPerSide)
                        let lonLat = Point(
                            x: WebMercator.longitude(x: (Double(tile.x) + gx / 4096) / n),
                            y: WebMercator.latitude(y: (Double(tile.y) + gy / 4096) / n))
                        if source.locate(lonLat) != .exterior { probes.append(Point(x: gx, y: gy)) }
                    }
                }
                for probe in probes {
                    let distance = try context.distance(context.makePoint(probe), decoded)
                    #expect(distance <= 1, "\(tile) \(feature.id): \(probe) is \(distance) units away")
                    if distance > 1 { break }
                }
                checked += probes.count
            }
        }
        #expect(checked > 1000)
    }

    /// GDAL's MVT driver reads the tile as a georeferenced layer with the same features.
    @Test(.enabled(if: ExternalTool.path("ogrinfo") != nil, "gdal-bin not installed"))
    func gdalReadsATile() throws {
        let tile = try TileID.containing(Point(x: -0.3763, y: 39.4699), zoom: 14)
        let encoded = try OGCTiles.tile("valencia-barrios", z: tile.z, y: tile.y, x: tile.x, data: Self.data)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-gdal-\(UUID().uuidString).mvt")
        try Data(encoded.bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try ExternalTool.run(
            ExternalTool.path("ogrinfo")!,
            ["-ro", "-al", "-so", file.path, "-oo", "X=\(tile.x)", "-oo", "Y=\(tile.y)", "-oo", "Z=\(tile.z)"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Layer name: valencia-barrios"), "\(output)")
        #expect(output.contains("Feature Count: \(encoded.featuresKept)\n"), "\(output)")
        #expect(encoded.featuresKept > 5)
    }

    @Test func problemsAndDocuments() throws {
        let request = OGCFeatures.Request(origin: "http://127.0.0.1:8080", query: QueryParameters([]))
        for (z, y, x, parameter) in [(23, 0, 0, "z"), (2, 4, 0, "y"), (2, 0, 4, "x")] {
            do {
                _ = try OGCTiles.tile("valencia-barrios", z: z, y: y, x: x, data: Self.data)
                Issue.record("tile \(z)/\(y)/\(x) answered")
            } catch { #expect(error.status == 400 && error.parameter == parameter) }
        }
        #expect(throws: Problem.self) { try OGCTiles.pathNumber("1a", "z") }
        let tilejson =
            try JSONSerialization.jsonObject(
                with: Data(
                    OGCTiles.tileset(
                        "fallas",
                        OGCFeatures.Request(
                            origin: "http://127.0.0.1:8080", query: QueryParameters([("f", "tilejson")])),
                        data: Self.data
                    ).body)) as? [String: Any]
        #expect(tilejson?["tilejson"] as? String == "3.0.0")
        #expect(
            tilejson?["tiles"] as? [String] == [
                "http://127.0.0.1:8080/ogc/collections/fallas/tiles/WebMercatorQuad/{z}/{y}/{x}"
            ])
        let layers = tilejson?["vector_layers"] as? [[String: Any]]
        #expect(layers?.first?["id"] as? String == "fallas")
        let metadata =
            try JSONSerialization.jsonObject(
                with: Data(OGCTiles.tileset("fallas", request, data: Self.data).body)) as? [String: Any]
        #expect(metadata?["dataType"] as? String == "vector")
        #expect(
            metadata?["tileMatrixSetURI"] as? String
                == "http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad")
    }
}
