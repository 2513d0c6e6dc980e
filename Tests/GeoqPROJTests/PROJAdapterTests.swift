import Foundation
import GeoqCore
import GeoqPROJ
import GeoqTestSupport
import Testing

/// The PROJ adapter, checked against data published in both systems, round trips, the known
/// ED50 datum shift, and PROJ's error reporting.
@Suite struct PROJAdapterTests {
    let context = PROJContext()

    /// The same two Pamplona restricted-traffic zones, published as an EPSG:25830 shapefile and
    /// as WGS84 GeoJSON (8 decimals, about 1 mm).
    static let shapefile = TestData.url("pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.shp")
    static let prj = TestData.url("pamplona/shp_epsg25830/MOVI_Pol_ZonaAccesoRestr.prj")
    static let geoJSON = TestData.url("pamplona/geopamplona_datos_MOVI_Pol_ZonaAccesoRestr.json")

    @Test func shapefileVerticesReprojectOntoTheGeoJSONVertices() throws {
        let projected = try ShapefilePolygonReader.allVertices(of: Self.shapefile)
        let published = try GeoJSONVertices.all(in: Self.geoJSON)
        #expect(projected.count == 138)  // 14 + 124, as in the GeoJSON
        #expect(published.count == projected.count)

        for source in ["EPSG:25830", try String(contentsOf: Self.prj, encoding: .utf8)] {
            let transformer = try CoordinateTransformer(context: context, from: source)
            var points = projected
            try transformer.transform(&points)
            var worst = 0.0
            for p in points {
                let nearest = published.map { metres(from: p, to: $0) }.min() ?? .infinity
                worst = max(worst, nearest)
            }
            #expect(worst < 0.01, "worst vertex is \(worst) m from the published one (source \(source.prefix(20)))")
            print("EPSG:25830 shapefile vs WGS84 GeoJSON (\(source.prefix(20))...): worst vertex \(worst) m")
        }
    }

    @Test func firstShapefileVertexMatchesFirstGeoJSONVertex() throws {
        // Zone 1 starts at (611124.750 4742040.482) in the shapefile and at
        // (-1.64055444 42.82286255) in the GeoJSON.
        let first = try #require(try ShapefilePolygonReader.allVertices(of: Self.shapefile).first)
        let transformer = try CoordinateTransformer(context: context, from: "EPSG:25830")
        let p = try transformer.transform(first)
        #expect(metres(from: p, to: Point(x: -1.64055444, y: 42.82286255)) < 0.01)
    }

    @Test func wgs84ToUTMAndBackIsExact() throws {
        let forward = try CoordinateTransformer(context: context, from: "EPSG:4326", to: "EPSG:25830")
        let back = try CoordinateTransformer(context: context, from: "EPSG:25830", to: "EPSG:4326")
        var random = SeededRandom(seed: 25_830)
        // Zone 30 spans 6°W–0° around its central meridian 3°W; sample Spain, up to 5° off it.
        let original = (0..<500).map { _ in Point(x: random.uniform(-8...2), y: random.uniform(36...44)) }
        var points = original
        try forward.transform(&points)
        // Eastings: 500 km ± (5° of longitude at 36–44°N, at most 450 km); northings: a degree
        // of latitude is about 111 km, so 36–44°N lie between 3.98 and 4.88 Mm.
        #expect(points.allSatisfy { (45_000...955_000).contains($0.x) && (3_980_000...4_880_000).contains($0.y) })
        try back.transform(&points)
        for (a, b) in zip(original, points) {
            #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "\(a) came back as \(b)")
        }
    }

    @Test func inputIsLongitudeFirstWhateverTheAuthorityOrder() throws {
        // EPSG:4326 is latitude-first for EPSG; all spellings must read x = longitude here.
        let pamplona = Point(latitude: 42.8125, longitude: -1.6458)
        var results: [Point] = []
        for source in ["EPSG:4326", "urn:ogc:def:crs:EPSG::4326", "OGC:CRS84", "  EPSG:4326\n"] {
            let t = try CoordinateTransformer(context: context, from: source, to: "EPSG:25830")
            results.append(try t.transform(pamplona))
        }
        #expect(Set(results).count == 1)
        // Pamplona is about 1.35° east of the zone's central meridian: easting ~610 km.
        #expect((605_000...615_000).contains(results[0].x))
        #expect((4_738_000...4_744_000).contains(results[0].y))
        // And the identity when both sides are WGS84 keeps longitude first.
        let identity = try CoordinateTransformer(context: context, from: "urn:ogc:def:crs:EPSG::4326")
        #expect(try identity.transform(pamplona) == pamplona)
    }

    @Test func ed50DiffersFromETRS89ByTheKnownDatumShift() throws {
        // In Spain, ED50 grid coordinates exceed ETRS89 ones by roughly 110 m east and 208 m
        // north; the same numbers read as ED50 therefore land that far south-west.
        let utm = Point(x: 611_124.75, y: 4_742_040.48)
        let etrs = try CoordinateTransformer(context: context, from: "EPSG:25830").transform(utm)
        let ed50 = try CoordinateTransformer(context: context, from: "EPSG:23030").transform(utm)
        #expect(ed50.x.isFinite && ed50.y.isFinite)
        let (east, north) = metresEastNorth(from: etrs, to: ed50)
        #expect((-135 ... -85).contains(east), "east shift \(east) m")
        #expect((-235 ... -180).contains(north), "north shift \(north) m")
        #expect((200...260).contains((east * east + north * north).squareRoot()))
        print("ED50 vs ETRS89 reading of the same UTM numbers: \(east) m east, \(north) m north")
    }

    @Test func geometriesAreTransformedPositionByPosition() throws {
        let t = try CoordinateTransformer(context: context, from: "EPSG:25830")
        let shell = try Ring([
            Point(x: 610_000, y: 4_740_000), Point(x: 612_000, y: 4_740_000),
            Point(x: 612_000, y: 4_742_000), Point(x: 610_000, y: 4_740_000),
        ])
        let hole = try Ring([
            Point(x: 611_500, y: 4_740_200), Point(x: 611_800, y: 4_740_200),
            Point(x: 611_800, y: 4_740_500), Point(x: 611_500, y: 4_740_200),
        ])
        let geometry = Geometry.multiPolygon(MultiPolygon([Polygon(shell: shell, holes: [hole])]))
        let expected = try geometry.mapPoints { try t.transform($0) }
        #expect(try t.transform(geometry) == expected)
        #expect(
            try t.transform(Geometry.point(Point(x: 610_000, y: 4_740_000)))
                == .point(try t.transform(Point(x: 610_000, y: 4_740_000))))
    }

    // MARK: Errors

    @Test func unknownCodeNamesTheCRSAndPROJsReason() throws {
        let error = #expect(throws: PROJError.self) {
            try CoordinateTransformer(context: context, from: "EPSG:999999")
        }
        #expect(error?.crs == "EPSG:999999")
        #expect(error?.message.hasPrefix("Unknown error") == false)
        #expect(error?.message.contains("not found") == true)
        #expect(error?.description.contains("EPSG:999999") == true)
    }

    @Test(arguments: ["foo", "+proj=merc", "PROJCS[broken", ""])
    func definitionsThatAreNotACRSAreRejected(definition: String) throws {
        let error = #expect(throws: PROJError.self) {
            try CoordinateTransformer(context: context, from: definition)
        }
        #expect(error?.crs == definition)
        #expect(error?.message.isEmpty == false)
    }

    @Test func nonFiniteResultsNameThePosition() throws {
        let t = try CoordinateTransformer(context: context, from: "EPSG:25830")
        let single = #expect(throws: PROJError.self) { try t.transform(Point(x: 1e30, y: 1e30)) }
        #expect(single?.pointIndex == 0)
        #expect(single?.message.contains("outside") == true)

        let original = [
            Point(x: 610_000, y: 4_740_000), Point(x: 611_000, y: 4_741_000),
            Point(x: 1e30, y: 1e30), Point(x: 612_000, y: 4_742_000),
        ]
        var points = original
        let bulk = #expect(throws: PROJError.self) { try t.transform(&points) }
        #expect(bulk?.pointIndex == 2)
        #expect(points == original)  // all or nothing

        // After an error the transformer still works.
        #expect(try t.transform(original[0]).x.isFinite)
    }

    @Test(arguments: [
        ("EPSG:4326", true), ("epsg:4326", true), ("OGC:CRS84", true), ("CRS84", true), ("CRS:84", true),
        ("urn:ogc:def:crs:OGC:1.3:CRS84", true), ("urn:ogc:def:crs:EPSG::4326", true),
        ("urn:ogc:def:crs:EPSG:6.6:4326", true), ("http://www.opengis.net/def/crs/EPSG/0/4326", true),
        ("http://www.opengis.net/def/crs/OGC/1.3/CRS84", true), (" EPSG:4326 ", true),
        ("EPSG:25830", false), ("EPSG:43260", false), ("urn:ogc:def:crs:EPSG::25830", false),
        ("EPSG:4258", false), ("", false),
    ])
    func recognisesWGS84Spellings(definition: String, isWGS84: Bool) {
        #expect(CoordinateTransformer.isGeographicWGS84(definition) == isWGS84)
    }
}

// MARK: - Helpers

/// East and north offsets in metres between two nearby WGS84 positions, by the series for the
/// length of a degree of latitude and longitude on WGS84 (independent of PROJ and geodesics).
func metresEastNorth(from a: Point, to b: Point) -> (east: Double, north: Double) {
    let phi = (a.y + b.y) / 2 * .pi / 180
    let perDegreeLat = 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi)
    let perDegreeLon = 111_412.84 * cos(phi) - 93.5 * cos(3 * phi) + 0.118 * cos(5 * phi)
    return ((b.x - a.x) * perDegreeLon, (b.y - a.y) * perDegreeLat)
}

func metres(from a: Point, to b: Point) -> Double {
    let (e, n) = metresEastNorth(from: a, to: b)
    return (e * e + n * n).squareRoot()
}

/// Just enough of the shapefile format to read polygon vertices: a 100-byte header, then
/// records of [number, content length in 16-bit words] (big-endian) and content: shape type,
/// box (4 doubles), numParts, numPoints, parts[numParts], points[numPoints] (little-endian).
enum ShapefilePolygonReader {
    static func allVertices(of url: URL) throws -> [Point] {
        let bytes = [UInt8](try Data(contentsOf: url))
        func int32BE(_ o: Int) -> Int {
            Int(
                Int32(
                    bitPattern: UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8
                        | UInt32(bytes[o + 3])))
        }
        func int32LE(_ o: Int) -> Int {
            Int(
                Int32(
                    bitPattern: UInt32(bytes[o + 3]) << 24 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 1]) << 8
                        | UInt32(bytes[o])))
        }
        func doubleLE(_ o: Int) -> Double {
            var bits: UInt64 = 0
            for k in 0..<8 { bits |= UInt64(bytes[o + k]) << (8 * UInt64(k)) }
            return Double(bitPattern: bits)
        }
        #expect(int32BE(0) == 9994)  // file code
        var points: [Point] = []
        var offset = 100
        while offset + 8 <= bytes.count {
            let contentWords = int32BE(offset + 4)
            let content = offset + 8
            #expect(int32LE(content) == 5)  // polygon
            let numParts = int32LE(content + 36)
            let numPoints = int32LE(content + 40)
            let first = content + 44 + 4 * numParts
            for i in 0..<numPoints {
                points.append(Point(x: doubleLE(first + 16 * i), y: doubleLE(first + 16 * i + 8)))
            }
            offset = content + 2 * contentWords
        }
        return points
    }
}

/// Every position in a GeoJSON file, read with JSONSerialization (not with geoq's own reader).
enum GeoJSONVertices {
    static func all(in url: URL) throws -> [Point] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        var points: [Point] = []
        func walk(_ value: Any) {
            if let pair = value as? [Any], pair.count >= 2, let x = pair[0] as? Double, let y = pair[1] as? Double {
                points.append(Point(x: x, y: y))
            } else if let array = value as? [Any] {
                array.forEach(walk)
            } else if let object = value as? [String: Any] {
                if let features = object["features"] { walk(features) }
                if let geometry = object["geometry"] { walk(geometry) }
                if let coordinates = object["coordinates"] { walk(coordinates) }
            }
        }
        walk(json)
        return points
    }
}
