import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

/// Tiles decoded by an independent decoder: PyPI's `mapbox-vector-tile` (protobuf's own Python
/// runtime underneath), run as `$GEOQ_TEST_PYTHON`, e.g. a virtual environment's python with
/// `pip install mapbox-vector-tile`. Skipped when the variable is not set.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"] != nil,
        "set GEOQ_TEST_PYTHON to a python with mapbox-vector-tile to decode tiles independently"))
struct PythonDecoderTests {
    /// Decodes the tile at argv[1] and prints, per layer, each feature's id, properties and their
    /// Python types, geometry
    /// type, rings or lines or points (closing points dropped), and for polygons how many rings
    /// each polygon has (the decoder groups rings into polygons by their winding).
    static let script = #"""
        import json, sys
        import mapbox_vector_tile
        tile = mapbox_vector_tile.decode(open(sys.argv[1], "rb").read(), default_options={"y_coord_down": True})
        out = {}
        for name, layer in tile.items():
            features = []
            for f in layer["features"]:
                g = f["geometry"]
                t, c = g["type"], g["coordinates"]
                if t == "Point": parts, shape = [[c]], []
                elif t == "MultiPoint": parts, shape = [c], []
                elif t == "LineString": parts, shape = [c], []
                elif t == "MultiLineString": parts, shape = c, []
                elif t == "Polygon": parts, shape = [r[:-1] for r in c], [len(c)]
                else: parts, shape = [r[:-1] for p in c for r in p], [len(p) for p in c]
                types = {k: type(v).__name__ for k, v in f["properties"].items()}
                features.append({"id": f.get("id"), "properties": f["properties"], "types": types, "type": t,
                                 "parts": parts, "shape": shape})
            out[name] = {"extent": layer["extent"], "version": layer["version"], "features": features}
        print(json.dumps(out))
        """#

    static func decode(_ bytes: [UInt8]) throws -> [String: Any] {
        let python = ProcessInfo.processInfo.environment["GEOQ_TEST_PYTHON"]!
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tileURL = directory.appendingPathComponent("tile.mvt")
        let scriptURL = directory.appendingPathComponent("decode.py")
        try Data(bytes).write(to: tileURL)
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try ExternalTool.run(URL(fileURLWithPath: python), [scriptURL.path, tileURL.path])
        try #require(run.status == 0, "the decoder failed: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    /// The parts of `geometry` as the script prints them.
    static func parts(_ geometry: TileGeometry) -> [[[Int]]] {
        (0..<geometry.partCount).map { i in
            geometry.points[geometry.range(ofPart: i)].map { [Int($0.x), Int($0.y)] }
        }
    }

    @Test func decodesWhatWasEncoded() throws {
        let tile = try TileID(z: 14, x: 8117, y: 6031)
        let b = tile.bounds
        // Positions as fractions of the tile, (0, 0) its north-west corner.
        func at(_ fx: Double, _ fy: Double) -> (Double, Double) {
            (b.minX + fx * (b.maxX - b.minX), b.maxY - fy * (b.maxY - b.minY))
        }
        let withHole = Polygon(
            shell: ring([at(0.1, 0.1), at(0.1, 0.5), at(0.5, 0.5), at(0.5, 0.1)]),  // counter-clockwise on the grid
            holes: [ring([at(0.2, 0.2), at(0.4, 0.2), at(0.4, 0.4), at(0.2, 0.4)])])  // clockwise on the grid
        let islands = MultiPolygon([
            Polygon(
                shell: ring([at(0.6, 0.6), at(0.9, 0.6), at(0.9, 0.9), at(0.6, 0.9)]),
                holes: [ring([at(0.7, 0.7), at(0.7, 0.8), at(0.8, 0.8), at(0.8, 0.7)])]),
            Polygon(shell: ring([at(0.6, 0.1), at(0.9, 0.1), at(1.3, 0.3)])),  // cut by the east edge
        ])
        let areas = VectorTileLayer(
            name: "areas",
            features: [
                Feature(id: "1", name: "Ciudadela", geometry: .polygon(withHole), properties: ["area": .number(12.5)]),
                Feature(id: "zone-B", geometry: .multiPolygon(islands), properties: ["level": .number(-2)]),
            ])
        let points = VectorTileLayer(
            name: "points",
            features: [
                Feature(
                    id: "7", name: "Plaza del Castillo", geometry: .point(Point(x: -1.6397, y: 42.8175)),
                    properties: [
                        "open": .bool(true), "spaces": .number(120), "fee": .number(1.35), "note": .null,
                        "delta": .number(-40), "kind": .string("plaza"),
                    ]),
                Feature(
                    id: "p-2", geometry: .multiPoint([Point(x: -1.640, y: 42.815), Point(x: -1.645, y: 42.82)]),
                    properties: ["kind": .string("plaza"), "big": .number(1e20)]),
            ])
        let (west, _) = at(-0.5, 0.5)
        let (east, _) = at(1.5, 0.5)
        let (_, y1) = at(0.5, 0.3)
        let (_, y2) = at(0.5, 0.7)
        let lines = VectorTileLayer(
            name: "lines",
            features: [
                Feature(
                    id: "18446744073709551615", geometry: .lineString([Point(x: west, y: y1), Point(x: east, y: y2)]))
            ])

        let encoder = VectorTileEncoder(options: TileEncodingOptions(simplificationTolerance: 0))
        let encoded = try encoder.encode(tile, layers: [areas, points, lines])
        #expect(encoded.featuresKept == 5)
        let decoded = try Self.decode(encoded.bytes)
        #expect(Set(decoded.keys) == ["areas", "points", "lines"])

        var builder = TileFeatureBuilder(tile: tile, options: encoder.options)
        for layer in [areas, points, lines] {
            let decodedLayer = try #require(decoded[layer.name] as? [String: Any])
            #expect(decodedLayer["extent"] as? Int == 4096)
            #expect(decodedLayer["version"] as? Int == 2)
            let features = try #require(decodedLayer["features"] as? [[String: Any]])
            #expect(features.count == layer.features.count)
            for (feature, got) in zip(layer.features, features) {
                let made = try #require(built(builder.build(feature)), "\(feature.id) dropped")
                // The decoder reports a feature without an id as id 0, proto2's default.
                #expect((got["id"] as? NSNumber)?.uint64Value == made.id ?? 0, "\(feature.id)")
                let gotParts = try #require(got["parts"] as? [[[Int]]])
                #expect(gotParts == Self.parts(made.geometry), "\(feature.id)")
                // The attributes: every non-null property, the name, the text id.
                var expected: [String: (AnyHashable, String)] = ["id": (feature.id, "str")]
                if let name = feature.name { expected["name"] = (name, "str") }
                for (key, value) in feature.properties {
                    switch value {
                    case .null: continue
                    case .string(let s): expected[key] = (s, "str")
                    case .bool(let v): expected[key] = (v, "bool")
                    case .number(let d) where d.rounded() == d && abs(d) < 1e15: expected[key] = (Int(d), "int")
                    case .number(let d): expected[key] = (d, "float")
                    }
                }
                let gotProperties = try #require(got["properties"] as? [String: Any])
                let gotTypes = try #require(got["types"] as? [String: String])
                #expect(Set(gotProperties.keys) == Set(expected.keys), "\(feature.id)")
                for (key, (value, type)) in expected {
                    #expect(gotTypes[key] == type, "\(feature.id).\(key)")
                    switch value.base {
                    case let v as Bool: #expect(gotProperties[key] as? Bool == v, "\(feature.id).\(key)")
                    case let v as Int: #expect(gotProperties[key] as? Int == v, "\(feature.id).\(key)")
                    case let v as Double: #expect(gotProperties[key] as? Double == v, "\(feature.id).\(key)")
                    default: #expect(gotProperties[key] as? String == value.base as? String, "\(feature.id).\(key)")
                    }
                }
            }
        }
        // The decoder groups rings by winding: the polygon with its hole, the islands as two
        // polygons (the first with its hole), and the line cut at both buffered edges.
        let areaFeatures = try #require((decoded["areas"] as? [String: Any])?["features"] as? [[String: Any]])
        #expect(areaFeatures[0]["type"] as? String == "Polygon")
        #expect(areaFeatures[0]["shape"] as? [Int] == [2])
        #expect(areaFeatures[1]["type"] as? String == "MultiPolygon")
        #expect(areaFeatures[1]["shape"] as? [Int] == [2, 1])
        let line = try #require((decoded["lines"] as? [String: Any])?["features"] as? [[String: Any]])
        let lineParts = try #require(line[0]["parts"] as? [[[Int]]])
        #expect(lineParts.count == 1)
        #expect(lineParts[0].first?[0] == -64 && lineParts[0].last?[0] == 4160)
        #expect((line[0]["id"] as? NSNumber)?.uint64Value == UInt64.max)
    }
}
