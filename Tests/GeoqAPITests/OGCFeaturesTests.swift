import Foundation
import GeoqAPI
import GeoqCore
import GeoqGEOS
import GeoqIncidents
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

/// The OGC API - Features face over the real layers and a few incidents written for the test:
/// the documents' links, paging by `next` links until the end, `bbox` against GEOS, `datetime`
/// on the incidents, the selections, the formats and the problems.
@Suite struct OGCFeaturesTests {
    static var data: ServiceData { SectorEndpointTests.data }
    static let origin = "http://127.0.0.1:8080"

    /// Incidents written for this test (not from a feed): one near each side of the
    /// antimeridian, one without a place, one whose title is markup. Dates: 2026-11-16T03:33:20Z,
    /// 2026-11-17T07:20:00Z, 2026-11-18T08:20:00Z (Python's datetime.utcfromtimestamp), none.
    static let incidents = ServiceData(
        sectorLookups: [:], layers: [],
        incidents: [
            Incident(
                id: "east", source: "feed", type: nil, categories: ["Obras"], title: "Near 180 east", link: nil,
                published: Date(timeIntervalSince1970: 1_794_800_000), description: "",
                geometry: .point(Point(x: 179.9, y: -16.5)), seen: Date(timeIntervalSince1970: 1_795_000_000)),
            Incident(
                id: "west", source: "feed", type: nil, categories: ["Obras"], title: "Near 180 west", link: nil,
                published: Date(timeIntervalSince1970: 1_794_900_000), description: "",
                geometry: .point(Point(x: -179.9, y: -16.6)), seen: Date(timeIntervalSince1970: 1_795_000_000)),
            Incident(
                id: "nowhere", source: "other", type: nil, categories: [], title: "No place", link: nil,
                published: Date(timeIntervalSince1970: 1_794_990_000), description: "",
                geometry: nil, seen: Date(timeIntervalSince1970: 1_795_000_000)),
            Incident(
                id: "markup", source: "other", type: nil, categories: [], title: "<script>alert(1)</script>",
                link: nil, published: nil, description: "", geometry: .point(Point(x: -0.88, y: 41.65)),
                seen: Date(timeIntervalSince1970: 1_795_000_000)),
        ], storeFile: "", defaultSectorLayer: "pamplona-sectors", geodesic: Geodesic.wgs84, loadedAt: Date())

    static func request(_ pairs: [(String, String)], accept: String? = nil) -> OGCFeatures.Request {
        OGCFeatures.Request(
            origin: origin, query: QueryParameters(pairs.map { (name: $0.0, value: $0.1) }), accept: accept,
            now: Date(timeIntervalSince1970: 1_795_000_000))
    }

    static func object(_ answer: OGCFeatures.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
    }

    static func items(
        _ collection: String, _ pairs: [(String, String)] = [], data: ServiceData = data
    ) throws -> [String: Any] {
        let answer = try OGCFeatures.items(collection, request(pairs), data: data)
        #expect(answer.contentType == "application/geo+json")
        return try object(answer)
    }

    static func ids(_ page: [String: Any]) -> [String] {
        (page["features"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func link(_ document: [String: Any], _ rel: String) -> String? {
        (document["links"] as? [[String: Any]])?.first { $0["rel"] as? String == rel }?["href"] as? String
    }

    /// A link's query as pairs (percent-decoded), for asking the page it names.
    static func pairs(of href: String) throws -> [(String, String)] {
        let components = try #require(URLComponents(string: href))
        return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }

    static func problem(_ body: () throws -> Void) -> Problem? {
        do {
            try body()
            return nil
        } catch { return error as? Problem }
    }

    @Test func landingAndConformanceLinkTheRestAndClaimNoOpenAPI30() throws {
        let landing = try Self.object(OGCFeatures.landing(Self.request([])))
        #expect(Self.link(landing, "conformance") == "\(Self.origin)/ogc/conformance")
        #expect(Self.link(landing, "data") == "\(Self.origin)/ogc/collections")
        #expect(Self.link(landing, "service-desc") == "\(Self.origin)/ogc/api")
        let links = try #require(landing["links"] as? [[String: Any]])
        #expect(
            links.first { $0["rel"] as? String == "service-desc" }?["type"] as? String
                == "application/vnd.oai.openapi+json;version=3.1")
        #expect(links.first { $0["rel"] as? String == "service-doc" }?["type"] as? String == "text/html")
        let conformance = try Self.object(OGCFeatures.conformance(Self.request([])))
        let classes = try #require(conformance["conformsTo"] as? [String])
        #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"))
        #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson"))
        #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html"))
        #expect(!classes.contains { $0.hasSuffix("/oas30") })
        let api = try OGCFeatures.api(Self.request([]), document: .service)
        #expect(api.contentType == "application/vnd.oai.openapi+json;version=3.1")
        let paths = try #require(try Self.object(api)["paths"] as? [String: Any])
        #expect(paths["/ogc/collections/{collectionId}/items"] != nil)
    }

    @Test func everyServedLayerIsACollectionWithItsExtentAndTypedItemsLinks() throws {
        let document = try Self.object(OGCFeatures.collections(Self.request([("lang", "es")]), data: Self.data))
        let collections = try #require(document["collections"] as? [[String: Any]])
        let served = Self.data.layers.filter { $0.error == nil }
        #expect(collections.map { $0["id"] as? String } == served.map(\.name) + ["incidents"])
        for (collection, summary) in zip(collections, served) {
            #expect(collection["itemType"] as? String == "feature")
            #expect(collection["title"] as? String == summary.titles?["es"] ?? summary.title, "\(summary.name)")
            let links = try #require(collection["links"] as? [[String: Any]])
            let items = links.filter { $0["rel"] as? String == "items" }
            #expect(Set(items.compactMap { $0["type"] as? String }) == ["application/geo+json", "text/html"])
            // The extent is every feature's bounds.
            let features =
                Self.data.sectorLookups[summary.name]?.layer.features
                ?? Self.data.pointLayers[summary.name]?.features ?? []
            let expected = features.reduce(BoundingBox.empty) { $0.union($1.geometry.boundingBox) }
            let bbox = ((collection["extent"] as? [String: Any])?["spatial"] as? [String: Any])?["bbox"] as? [[Double]]
            // Foundation's JSON reader may be one unit in the last place off.
            let given = try #require(bbox?.first)
            let wanted = [expected.minX, expected.minY, expected.maxX, expected.maxY]
            #expect(zip(given, wanted).allSatisfy { abs($0 - $1) < 1e-12 } && given.count == 4, "\(summary.name)")
        }
    }

    /// Following `next` from the first page with `limit=7` gives every feature once, in the
    /// layer's order, each page saying the same `numberMatched`.
    @Test func nextLinksPageThroughEveryFeatureOnce() throws {
        let layer = try #require(Self.data.sectorLookups["valencia-barrios"]?.layer)
        var pairs = [("limit", "7")]
        var seen: [String] = []
        var pages = 0
        while true {
            let page = try Self.items("valencia-barrios", pairs)
            pages += 1
            #expect(page["numberMatched"] as? Int == layer.features.count)
            #expect(page["numberReturned"] as? Int == Self.ids(page).count)
            #expect(page["timeStamp"] as? String == "2026-11-18T11:06:40Z")
            seen += Self.ids(page)
            guard let next = Self.link(page, "next") else { break }
            #expect(next.hasPrefix("\(Self.origin)/ogc/collections/valencia-barrios/items?"))
            pairs = try Self.pairs(of: next).filter { $0.0 != "f" }
        }
        #expect(seen == layer.features.map(\.id))
        #expect(pages == (layer.features.count + 6) / 7)
    }

    /// `bbox` keeps exactly the features whose geometry GEOS finds meeting the box.
    @Test(arguments: [
        ("valencia-barrios", "-0.39,39.46,-0.37,39.48"), ("pamplona-sectors", "-1.65,42.81,-1.64,42.815"),
        ("fallas", "-0.38,39.465,-0.37,39.475"),
    ])
    func bboxKeepsWhatGEOSFindsMeetingTheBox(layer name: String, bbox: String) throws {
        let features = Self.data.sectorLookups[name]?.layer.features ?? Self.data.pointLayers[name]?.features ?? []
        let numbers = bbox.split(separator: ",").compactMap { Double($0) }
        let context = GEOSContext()
        let box = try context.readWKT(
            "POLYGON((\(numbers[0]) \(numbers[1]), \(numbers[2]) \(numbers[1]), \(numbers[2]) \(numbers[3]), \(numbers[0]) \(numbers[3]), \(numbers[0]) \(numbers[1])))"
        )
        let expected = try features.filter { try context.intersects(context.makeGeometry($0.geometry), box) }.map(\.id)
        #expect(!expected.isEmpty && expected.count < features.count, "the box must choose")
        let page = try Self.items(name, [("bbox", bbox), ("limit", "10000")])
        #expect(Self.ids(page) == expected)
        #expect(page["numberMatched"] as? Int == expected.count)
    }

    @Test func selectionsSortingAndFilters() throws {
        let page = try Self.items(
            "valencia-barrios",
            [("properties", "name"), ("skipGeometry", "true"), ("sortby", "-name"), ("limit", "100")])
        let features = try #require(page["features"] as? [[String: Any]])
        let names = features.compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }
        #expect(names.count == 88)
        #expect(features.allSatisfy { ($0["properties"] as? [String: Any])?.keys.sorted() == ["name"] })
        #expect(features.allSatisfy { $0["geometry"] is NSNull })
        #expect(
            zip(names, names.dropFirst()).allSatisfy {
                Array($0.0.utf8).lexicographicallyPrecedes(Array($0.1.utf8)) == false
            })
        let one = try Self.items("valencia-barrios", [("name", "LA CREU COBERTA")])
        #expect(Self.ids(one) == ["093"])
        #expect(one["numberMatched"] as? Int == 1)
        // A number filter matches the number, whatever its spelling.
        let sectors = try Self.items("pamplona-sectors", [("ID", "2.0")])
        #expect(Self.ids(sectors) == ["2"])
    }

    @Test func anApproximateLayerSaysSoOnEveryPage() throws {
        let page = try Self.items("pamplona-sectors", [("lang", "es")])
        #expect(page["approximate"] as? Bool == true)
        let note = try #require(Self.data.sectorLookups["pamplona-sectors"]?.layer.approximation)
        #expect(page["approximation"] as? String == note[.es])
        let feature = try Self.object(
            OGCFeatures.item("pamplona-sectors", featureId: "1", Self.request([]), data: Self.data))
        #expect(feature["approximate"] as? Bool == true)
        #expect(feature["type"] as? String == "Feature" && feature["id"] as? String == "1")
    }

    @Test func datetimeChoosesIncidentsByTheirDateAndBboxMayCrossTheAntimeridian() throws {
        func ids(_ pairs: [(String, String)]) throws -> [String] {
            Self.ids(try Self.items("incidents", pairs, data: Self.incidents))
        }
        #expect(try ids([]) == ["feed:east", "feed:west", "other:nowhere", "other:markup"])
        #expect(try ids([("datetime", "2026-11-17")]) == ["feed:west"])
        #expect(try ids([("datetime", "2026-11-17T07:20:00Z")]) == ["feed:west"])
        #expect(try ids([("datetime", "2026-11-17T00:00:00Z/..")]) == ["feed:west", "other:nowhere"])
        #expect(try ids([("datetime", "../2026-11-17T07:19:59Z")]) == ["feed:east"])
        #expect(try ids([("datetime", "2026-11-16/2026-11-17")]) == ["feed:east", "feed:west"])
        #expect(try ids([("bbox", "179,-17,-179,-16")]) == ["feed:east", "feed:west"])
        #expect(try ids([("bbox", "179,-17,180,-16")]) == ["feed:east"])
        // A layer holds at every instant.
        let fallas = try Self.items("fallas", [("datetime", "1999-01-01T00:00:00Z"), ("limit", "1")])
        #expect(fallas["numberMatched"] as? Int == Self.data.pointLayers["fallas"]?.features.count)
        // An incident without a place has a null geometry.
        let nowhere = try Self.object(
            OGCFeatures.item("incidents", featureId: "other:nowhere", Self.request([]), data: Self.incidents))
        #expect(nowhere["geometry"] is NSNull)
    }

    @Test func htmlForBrowsersWithEveryTextEscaped() throws {
        let html = try OGCFeatures.items(
            "incidents", Self.request([], accept: "text/html,application/xhtml+xml,*/*;q=0.8"), data: Self.incidents)
        #expect(html.contentType == "text/html; charset=utf-8")
        let text = String(decoding: html.body, as: UTF8.self)
        #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!text.contains("<script>"))
        let json = try OGCFeatures.items(
            "incidents", Self.request([], accept: "application/json"), data: Self.incidents)
        #expect(json.contentType == "application/geo+json")
        let asked = try OGCFeatures.collections(
            Self.request([("f", "html")], accept: "application/json"), data: Self.data)
        #expect(asked.contentType == "text/html; charset=utf-8")
    }

    @Test func problemsNameWhatAndWhere() throws {
        let cases: [([(String, String)], String)] = [
            ([("limit", "0")], "limit"), ([("limit", "10001")], "limit"), ([("offset", "-1")], "offset"),
            ([("bbox", "1,2,3")], "bbox"), ([("bbox", "0,50,1,40")], "bbox"), ([("datetime", "yesterday")], "datetime"),
            ([("datetime", "2026-11-18/2026-11-17")], "datetime"), ([("sortby", "colour")], "sortby"),
            ([("properties", "name,colour")], "properties"), ([("colour", "red")], "colour"), ([("f", "xml")], "f"),
            ([("limit", "5"), ("limit", "6")], "limit"),
        ]
        for (pairs, parameter) in cases {
            let problem = Self.problem { _ = try Self.items("valencia-barrios", pairs) }
            #expect(problem?.status == 400, "\(pairs)")
            #expect(problem?.parameter == parameter, "\(pairs)")
        }
        let collection = Self.problem { _ = try Self.items("nowhere", []) }
        #expect(collection?.status == 404 && collection?.type == "/problems/unknown-collection")
        let feature = Self.problem {
            _ = try OGCFeatures.item("valencia-barrios", featureId: "999", Self.request([]), data: Self.data)
        }
        #expect(feature?.status == 404 && feature?.type == "/problems/unknown-feature")
        let unknown = Self.problem { _ = try OGCFeatures.landing(Self.request([("limit", "1")])) }
        #expect(unknown?.status == 400 && unknown?.parameter == "limit")
    }
}

/// Coordinates in another CRS (OGC API - Features Part 2): Web Mercator against its closed
/// formula, ETRS89 / UTM 30N against GDAL's gdaltransform, a bbox given in UTM against GDAL's
/// own spatial filter in that CRS.
@Suite struct OGCFeaturesCRSTests {
    static var data: ServiceData { SectorEndpointTests.data }
    static let mercator = "http://www.opengis.net/def/crs/EPSG/0/3857"
    static let utm = "http://www.opengis.net/def/crs/EPSG/0/25830"

    static func positions(_ page: [String: Any]) -> [[Double]] {
        func flatten(_ value: Any?) -> [[Double]] {
            if let pair = value as? [Double], pair.count == 2 { return [pair] }
            return (value as? [Any])?.flatMap(flatten) ?? []
        }
        let feature = (page["features"] as? [[String: Any]])?.first
        return flatten((feature?["geometry"] as? [String: Any])?["coordinates"])
    }

    static func items(_ pairs: [(String, String)]) throws -> (page: [String: Any], headers: [String: String]) {
        let answer = try OGCFeatures.items("pamplona-sectors", OGCFeaturesTests.request(pairs), data: data)
        return (try OGCFeaturesTests.object(answer), Dictionary(uniqueKeysWithValues: answer.headers.map { ($0, $1) }))
    }

    @Test func webMercatorIsTheSphericalFormula() throws {
        let degrees = Self.positions(try Self.items([("limit", "1")]).page)
        let (page, headers) = try Self.items([("limit", "1"), ("crs", Self.mercator)])
        #expect(headers["Content-Crs"] == "<\(Self.mercator)>")
        let metres = Self.positions(page)
        #expect(metres.count == degrees.count && metres.count > 10)
        let radius = 6_378_137.0
        for (m, d) in zip(metres, degrees) {
            let x = radius * d[0] * .pi / 180
            let y = radius * log(tan(.pi / 4 + d[1] * .pi / 360))
            #expect(abs(m[0] - x) < 1e-3 && abs(m[1] - y) < 1e-3, "\(d) gave \(m), not \(x), \(y)")
        }
    }

    @Test(.enabled(if: ExternalTool.path("gdaltransform") != nil, "gdal-bin not installed"))
    func utm30IsWhatGDALComputes() throws {
        let degrees = Self.positions(try Self.items([("limit", "1")]).page)
        let metres = Self.positions(try Self.items([("limit", "1"), ("crs", Self.utm)]).page)
        let input = degrees.prefix(20).map { "\($0[0]) \($0[1])" }.joined(separator: "\n") + "\n"
        let run = try ExternalTool.run(
            URL(fileURLWithPath: ExternalTool.path("gdaltransform")!),
            ["-s_srs", "EPSG:4326", "-t_srs", "EPSG:25830", "-output_xy"], input: input)
        let expected = run.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        #expect(expected.count == min(20, degrees.count))
        for (m, e) in zip(metres, expected) {
            #expect(abs(m[0] - e[0]) < 1e-3 && abs(m[1] - e[1]) < 1e-3, "\(m) against GDAL's \(e)")
        }
    }

    /// A box in UTM: the features that meet it there, which GDAL's filter in that CRS keeps too.
    @Test(.enabled(if: ExternalTool.path("ogr2ogr") != nil, "gdal-bin not installed"))
    func aBboxInUTMChoosesWhatGDALChooses() throws {
        let page = try OGCFeaturesTests.object(
            OGCFeatures.items(
                "valencia-barrios",
                OGCFeaturesTests.request([
                    ("bbox", "725000,4372000,727000,4374000"), ("bbox-crs", Self.utm), ("limit", "100"),
                ]),
                data: Self.data))
        let ids = OGCFeaturesTests.ids(page)
        #expect(!ids.isEmpty && ids.count < 88, "\(ids)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-crs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = try OGCFeaturesTests.object(
            OGCFeatures.items("valencia-barrios", OGCFeaturesTests.request([("limit", "100")]), data: Self.data))
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": all["features"]!])
            .write(to: dir.appendingPathComponent("in.geojson"))
        let run = try ExternalTool.run(
            ExternalTool.path("ogr2ogr")!,
            [
                "-f", "GeoJSON", dir.appendingPathComponent("out.geojson").path,
                dir.appendingPathComponent("in.geojson").path, "-spat", "725000", "4372000", "727000", "4374000",
                "-spat_srs", "EPSG:25830",
            ])
        #expect(run.status == 0, "\(run.output)")
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out.geojson")))
        let keptIDs = ((kept as? [String: Any])?["features"] as? [[String: Any]] ?? []).compactMap {
            $0["id"] as? String
        }
        #expect(ids == keptIDs)
    }

    @Test func theCollectionsOfferTheCRSsAndOthersAreRefused() throws {
        let document = try OGCFeaturesTests.object(
            OGCFeatures.collection("fallas", OGCFeaturesTests.request([]), data: Self.data))
        #expect(document["crs"] as? [String] == [OGCFeatures.crs84, Self.mercator, Self.utm])
        #expect(document["storageCrs"] as? String == OGCFeatures.crs84)
        for (pairs, parameter) in [
            ([("crs", "http://www.opengis.net/def/crs/EPSG/0/4326")], "crs"), ([("bbox-crs", Self.utm)], "bbox-crs"),
            ([("bbox", "1,2,3"), ("bbox-crs", Self.utm)], "bbox"),
        ] {
            let problem = OGCFeaturesTests.problem { _ = try Self.items(pairs) }
            #expect(problem?.status == 400 && problem?.parameter == parameter, "\(pairs)")
        }
    }
}
