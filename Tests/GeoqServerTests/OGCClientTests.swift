import Foundation
import GeoqAPI
import GeoqTestSupport
import Hummingbird
import Testing

@testable import GeoqServer

/// Real GIS clients against the OGC API - Features face of a running service: GDAL's OAPIF
/// driver (ogrinfo's counts, ogr2ogr across page boundaries and with a spatial filter, both
/// compared with `/v1/layers/{name}` and with GDAL's own filter on that answer) and OWSLib
/// (PyPI, the Python `tools/python-env` makes). Skipped visibly when a client is missing.
@Suite(.serialized) struct OGCClientTests {
    static let ogrinfo = ExternalTool.path("ogrinfo")
    static let ogr2ogr = ExternalTool.path("ogr2ogr")
    static let hasGDAL = ogrinfo != nil && ogr2ogr != nil
    static let python: String? = {
        guard let python = HookSignatureTests.python,
            (try? ExternalTool.run(python, ["-c", "import owslib"]))?.status == 0
        else { return nil }
        return python
    }()

    func withService(access: AccessRules = AccessRules(), _ body: @Sendable (Int) async throws -> Void) async throws {
        try await LiveService.run(body) { onListening in
            Routes.application(
                state: OpenAPITests.state, address: ServerAddress(host: "127.0.0.1", port: 0),
                logger: LiveService.quietLogger, access: access, onListening: onListening)
        }
    }

    /// What `/v1/layers/{name}` answers (the map page's own answer), as GeoJSON features.
    static func layerFeatures(_ name: String, bbox: String? = nil) throws -> [[String: Any]] {
        let data = try #require(OpenAPITests.state.data)
        let selection = try LayerFeaturesEndpoint.selection(
            layer: name, QueryParameters(bbox.map { [(name: "bbox", value: $0)] } ?? []), data: data)
        let body = LayerFeaturesEndpoint.body(selection, data: data)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return try #require(object["features"] as? [[String: Any]])
    }

    static func readGeoJSON(_ url: URL) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
        return try #require(object?["features"] as? [[String: Any]])
    }

    /// Every position of a GeoJSON geometry, flattened.
    static func positions(_ geometry: Any?) -> [Double] {
        if let number = geometry as? Double { return [number] }
        if let list = geometry as? [Any] { return list.flatMap(positions) }
        if let object = geometry as? [String: Any] { return positions(object["coordinates"]) }
        return []
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-ogc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The ids of `features` GDAL's own spatial filter keeps (`ogr2ogr -spat` on a local file:
    /// the features whose geometry meets the rectangle, by GEOS).
    static func idsGDALKeeps(_ features: [[String: Any]], spat: [String], in dir: URL) throws
        -> [String]
    {
        let local = dir.appendingPathComponent("layer.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(to: local)
        let filtered = dir.appendingPathComponent("local-spat.geojson")
        try? FileManager.default.removeItem(at: filtered)
        let run = try ExternalTool.run(ogr2ogr!, ["-f", "GeoJSON", filtered.path, local.path, "-spat"] + spat)
        #expect(run.status == 0, "\(run.output)")
        return try readGeoJSON(filtered).compactMap { $0["id"] as? String }
    }

    @Test(.enabled(if: hasGDAL, "gdal-bin not installed"))
    func ogrinfoCountsEveryCollectionExactly() async throws {
        let data = try #require(OpenAPITests.state.data)
        try await withService { port in
            for name in ["pamplona-sectors", "valencia-barrios", "valencia-census-sections", "fallas"] {
                let expected =
                    data.sectorLookups[name]?.layer.features.count ?? data.pointLayers[name]?.features.count ?? -1
                let (status, output) = try ExternalTool.run(
                    Self.ogrinfo!, ["-ro", "-so", "OAPIF:http://127.0.0.1:\(port)/ogc", name])
                #expect(status == 0, "\(output)")
                #expect(output.contains("Feature Count: \(expected)\n"), "\(name): \(output)")
            }
        }
    }

    /// ogr2ogr pages through `next` links seven features at a time: it gets the map page's
    /// features, in order, with the same coordinates; with `-spat` it gets what GDAL's own
    /// filter keeps of that answer.
    @Test(.enabled(if: hasGDAL, "gdal-bin not installed"))
    func ogr2ogrAcrossPagesAndWithASpatialFilterEqualsTheLayersAnswer() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "valencia-barrios"
        let expected = try Self.layerFeatures(name)
        let spat = ["-0.39", "39.46", "-0.37", "39.48"]
        let wanted = try Self.idsGDALKeeps(expected, spat: spat, in: dir)
        #expect(!wanted.isEmpty && wanted.count < expected.count)
        let expectedIDs = expected.map { $0["id"] as? String }
        let expectedPositions = expected.map { Self.positions($0["geometry"]) }
        try await withService { port in
            let whole = dir.appendingPathComponent("whole.geojson")
            let all = try ExternalTool.run(
                Self.ogr2ogr!,
                [
                    "-f", "GeoJSON", "-lco", "COORDINATE_PRECISION=15", whole.path,
                    "OAPIF:http://127.0.0.1:\(port)/ogc", name, "-oo", "PAGE_SIZE=7",
                ])
            #expect(all.status == 0, "\(all.output)")
            let got = try Self.readGeoJSON(whole)
            #expect(got.map { ($0["properties"] as? [String: Any])?["id"] as? String } == expectedIDs)
            for (feature, (id, q)) in zip(got, zip(expectedIDs, expectedPositions)) {
                let p = Self.positions(feature["geometry"])
                #expect(p.count == q.count && zip(p, q).allSatisfy { abs($0 - $1) < 1e-12 }, "\(id ?? "")")
            }
            let spatial = dir.appendingPathComponent("spat.geojson")
            let some = try ExternalTool.run(
                Self.ogr2ogr!,
                [
                    "-f", "GeoJSON", spatial.path, "OAPIF:http://127.0.0.1:\(port)/ogc", name, "-oo", "PAGE_SIZE=7",
                    "-spat",
                ]
                    + spat)
            #expect(some.status == 0, "\(some.output)")
            let ids = try Self.readGeoJSON(spatial).compactMap {
                ($0["properties"] as? [String: Any])?["id"] as? String
            }
            #expect(ids == wanted)
        }
    }

    /// OWSLib, as a Python GIS script uses it: conformance, collections, items with bbox and limit.
    @Test(
        .enabled(if: python != nil, "no Python with OWSLib (tools/python-env owslib)"),
        .enabled(if: hasGDAL, "gdal-bin not installed"))
    func owslibReadsConformanceCollectionsAndItems() async throws {
        let data = try #require(OpenAPITests.state.data)
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inBox = try Self.idsGDALKeeps(
            Self.layerFeatures("valencia-barrios"), spat: ["-0.39", "39.46", "-0.37", "39.48"], in: dir)
        try await withService { port in
            let script = """
                import json
                from owslib.ogcapi.features import Features
                w = Features("http://127.0.0.1:\(port)/ogc")
                items = w.collection_items("valencia-barrios", bbox=[-0.39, 39.46, -0.37, 39.48], limit=5)
                print(json.dumps({
                    "conformance": w.conformance()["conformsTo"],
                    "collections": [c["id"] for c in w.collections()["collections"]],
                    "featureCollections": w.feature_collections(),
                    "matched": items["numberMatched"], "returned": items["numberReturned"],
                    "ids": [f["id"] for f in items["features"]],
                }))
                """
            let run = try ExternalTool.run(URL(fileURLWithPath: Self.python!), ["-c", script])
            #expect(run.status == 0, "\(run.stderr)")
            let answer = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect((answer["conformance"] as? [String])?.contains(OGCFeatures.conformance[0]) == true)
            let served = data.layers.filter { $0.error == nil }.map(\.name) + ["incidents"]
            #expect(answer["collections"] as? [String] == served)
            #expect(answer["featureCollections"] as? [String] == served)
            #expect(answer["matched"] as? Int == inBox.count)
            #expect(answer["returned"] as? Int == 5)
            #expect(answer["ids"] as? [String] == Array(inBox.prefix(5)))
        }
    }

    /// A tile over HTTP: cut once, then by ETag (304), gzip on request, 204 where the collection
    /// has nothing, problems for a bad tile or collection.
    @Test func tilesAnswerWithETagGzipAndNoContent() async throws {
        let app = Application(router: Routes.router(state: OpenAPITests.state))
        try await app.test(.router) { client in
            let path = "/ogc/collections/valencia-barrios/tiles/WebMercatorQuad/14/6234/8174"
            let tag = try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.mapbox-vector-tile")
                #expect(response.headers[.vary] == "Accept-Encoding")
                #expect(response.body.readableBytes > 100)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            let plain = try await client.execute(uri: path, method: .get) { Array(buffer: $0.body) }
            try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.headers[.eTag] != tag)
                #expect(Array(buffer: response.body).prefix(2) == [0x1f, 0x8b])
                #expect(response.body.readableBytes < plain.count)
            }
            // The open sea off Valencia: nothing there.
            try await client.execute(
                uri: "/ogc/collections/valencia-barrios/tiles/WebMercatorQuad/14/6234/8190", method: .get
            ) { response in
                #expect(response.status == .noContent)
                #expect(response.body.readableBytes == 0)
            }
            for (uri, status, parameter) in [
                ("/ogc/collections/valencia-barrios/tiles/WebMercatorQuad/23/0/0", 400, "z"),
                ("/ogc/collections/valencia-barrios/tiles/WebMercatorQuad/1/0/x", 400, "x"),
                ("/ogc/collections/nowhere/tiles/WebMercatorQuad/1/0/0", 404, "collectionId"),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(Int(response.status.code) == status, "\(uri)")
                    let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                    #expect(problem.parameter == parameter, "\(uri)")
                }
            }
        }
    }

    /// Over a socket a tile is answered on the event loop: the same bytes and headers as the
    /// router's, 304 and 204 without a type or a length (RFC 9110), and a stranger's bad key
    /// refused there too.
    @Test func theEventLoopAnswersTilesAsTheRouterDoes() async throws {
        let path = "/ogc/collections/valencia-barrios/tiles/WebMercatorQuad/14/6234/8174"
        let app = Application(router: Routes.router(state: OpenAPITests.state))
        let routed = try await app.test(.router) { client in
            try await client.execute(uri: path, method: .get) { ($0.headers[.eTag], Array(buffer: $0.body)) }
        }
        try await withService { port in
            let url = "http://127.0.0.1:\(port)\(path)"
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-tile-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            let curl = try #require(ExternalTool.path("curl"))
            let first = try ExternalTool.run(curl, ["-s", "-D", "-", "-o", file.path, url])
            #expect(first.output.hasPrefix("HTTP/1.1 200 OK"), "\(first.output)")
            #expect(first.output.contains("Content-Type: application/vnd.mapbox-vector-tile"))
            #expect(first.output.contains("ETag: \(routed.0 ?? "-")"), "\(first.output)")
            #expect(Array(try Data(contentsOf: file)) == routed.1)
            let again = try ExternalTool.run(
                curl, ["-s", "-D", "-", "-o", "/dev/null", "-H", "If-None-Match: \(routed.0 ?? "")", url])
            #expect(again.output.hasPrefix("HTTP/1.1 304"), "\(again.output)")
            #expect(!again.output.contains("\nContent-Length:") && !again.output.contains("\nContent-Type:"))
            let empty = try ExternalTool.run(
                curl,
                [
                    "-s", "-D", "-", "-o", "/dev/null",
                    "http://127.0.0.1:\(port)/ogc/collections/valencia-barrios/tiles/WebMercatorQuad/14/6234/8190",
                ])
            #expect(empty.output.hasPrefix("HTTP/1.1 204"), "\(empty.output)")
            #expect(!empty.output.contains("\nContent-Length:") && !empty.output.contains("\nContent-Type:"))
            let stranger = try ExternalTool.run(
                curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer gqk_nonsense", url])
            #expect(stranger.output == "401")
        }
    }
}
