import Foundation
import GeoqAPI
import GeoqCore
import GeoqGEOS
import GeoqQuery
import GeoqTestSupport
import Testing

/// `/v1/layers/{name}` over the real layers: every feature of every layer, a bbox that keeps
/// the features whose own geometry's box meets it, simplification that GEOS finds valid, and
/// the problems.
@Suite struct LayerFeaturesEndpointTests {
    static var data: ServiceData { SectorEndpointTests.data }

    static func collection(_ name: String, _ pairs: [(String, String)] = []) throws -> [String: Any] {
        let selection = try LayerFeaturesEndpoint.selection(
            layer: name, QueryParameters(pairs.map { ($0.0, $0.1) }), data: data)
        let body = LayerFeaturesEndpoint.body(selection, data: data)
        return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    static func problem(_ name: String, _ pairs: [(String, String)]) -> Problem? {
        do {
            _ = try LayerFeaturesEndpoint.selection(
                layer: name, QueryParameters(pairs.map { ($0.0, $0.1) }), data: data)
            return nil
        } catch { return error }
    }

    static func features(_ collection: [String: Any]) throws -> [[String: Any]] {
        #expect(collection["type"] as? String == "FeatureCollection")
        return try #require(collection["features"] as? [[String: Any]])
    }

    @Test func everyLayerAnswersAllItsFeaturesInOrder() throws {
        let served = Self.data.layers.filter { $0.error == nil }
        #expect(served.count >= 10)
        for summary in served {
            let collection = try Self.collection(summary.name)
            let features = try Self.features(collection)
            let layerFeatures =
                Self.data.sectorLookups[summary.name]?.layer.features ?? Self.data.pointLayers[summary.name]?.features
            #expect(features.map { $0["id"] as? String } == (layerFeatures ?? []).map(\.id), "\(summary.name)")
            #expect(features.count == summary.features, "\(summary.name)")
            #expect(collection["name"] as? String == summary.name)
            #expect(collection["kind"] as? String == summary.kind)
            #expect(collection["approximate"] as? Bool == summary.approximate)
        }
    }

    @Test func polygonsAreLongitudeFirstAndNamed() throws {
        let layer = try #require(Self.data.sectorLookups["pamplona-sectors"]?.layer)
        let features = try Self.features(try Self.collection("pamplona-sectors"))
        for (feature, source) in zip(features, layer.features) {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["name"] as? String == source.name)
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == source.geometry.typeName)
            let shell = try #require(Self.polygons(geometry).first?.shell)
            #expect(shell.points.first == source.geometry.areal?.polygons.first?.shell.points.first)
        }
    }

    /// The bbox keeps exactly the features whose geometry's own box meets it (worked out here
    /// from the geometry, not the index).
    @Test(arguments: [
        ("pamplona-barrios", "-1.66,42.80,-1.64,42.82"), ("valencia-barrios", "-0.38,39.46,-0.37,39.48"),
        ("fallas", "-0.38,39.465,-0.37,39.475"), ("valencia-hospitals", "-0.40,39.45,-0.36,39.49"),
    ])
    func bboxKeepsTheFeaturesWhoseBoxMeetsIt(name: String, bbox: String) throws {
        let numbers = bbox.split(separator: ",").map { Double($0)! }
        let box = BoundingBox(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
        let all = Self.data.sectorLookups[name]?.layer.features ?? Self.data.pointLayers[name]?.features ?? []
        let expected = all.filter { $0.geometry.boundingBox.intersects(box) }.map(\.id)
        #expect(!expected.isEmpty && expected.count < all.count, "\(name): \(expected.count) of \(all.count)")
        let features = try Self.features(try Self.collection(name, [("bbox", bbox)]))
        #expect(features.map { $0["id"] as? String } == expected)
    }

    @Test func pointFeaturesCarryCategoryPinAndServiceType() throws {
        let layer = try #require(Self.data.pointLayers["fallas"])
        let features = try Self.features(try Self.collection("fallas"))
        #expect(features.count == layer.features.count)
        var withCategory = 0
        for (index, feature) in features.enumerated() {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect((properties["category"] as? String) == layer.categories[index]?.words)
            #expect((properties["categoryCode"] as? String) == layer.categories[index]?.code)
            #expect((properties["categoryRank"] as? Int) == layer.categories[index]?.rank)
            #expect((properties["pin"] as? String) == layer.pins[index])
            #expect(properties.keys.contains("serviceType"))
            if layer.categories[index] != nil { withCategory += 1 }
            let geometry = try #require(feature["geometry"] as? [String: Any])
            if geometry["type"] as? String == "Point" {
                // Foundation's reader may miss the last digit of the shortest round-trip form.
                let coordinates = try #require(geometry["coordinates"] as? [Double])
                #expect(abs(coordinates[0] - layer.positions[index].x) < 1e-13)
                #expect(abs(coordinates[1] - layer.positions[index].y) < 1e-13)
            }
        }
        #expect(withCategory > features.count / 2)
        let hospitals = try Self.features(try Self.collection("valencia-hospitals"))
        #expect(hospitals.allSatisfy { ($0["properties"] as? [String: Any])?["serviceType"] as? String != nil })
    }

    /// Simplified at 25 m the polygons have fewer vertices, and every part that GEOS found
    /// valid before is valid after.
    @Test(arguments: ["pamplona-barrios", "valencia-barrios", "pamplona-sectors"])
    func simplifyReducesVerticesAndKeepsPolygonsValid(name: String) throws {
        let context = GEOSContext()
        let plain = try Self.features(try Self.collection(name))
        let simplified = try Self.features(try Self.collection(name, [("simplify", "25")]))
        #expect(plain.count == simplified.count)
        var (before, after, checked) = (0, 0, 0)
        for (original, reduced) in zip(plain, simplified) {
            let originals = try Self.polygons(try #require(original["geometry"] as? [String: Any]))
            let reduceds = try Self.polygons(try #require(reduced["geometry"] as? [String: Any]))
            #expect(originals.count == reduceds.count)
            for (p, q) in zip(originals, reduceds) {
                before += p.vertexCount
                after += q.vertexCount
                #expect(q.rings.allSatisfy { $0.points.count >= 4 && $0.points.first == $0.points.last })
                guard context.validity(of: try context.makePolygon(p)).isValid else { continue }
                checked += 1
                #expect(context.validity(of: try context.makePolygon(q)).isValid, "\(original["id"] ?? "")")
            }
        }
        #expect(checked > 0)
        #expect(after < before, "\(name): \(after) of \(before) vertices")
    }

    @Test func problemsNameWhatIsWrong() throws {
        let unknown = try #require(Self.problem("nowhere", []))
        #expect(unknown.status == 404 && unknown.type == "/problems/unknown-layer" && unknown.parameter == "name")
        #expect(unknown.detail.contains("\"nowhere\"") && unknown.detail.contains("pamplona-sectors"))
        #expect(unknown.detail.contains("fallas"))
        let eu = try #require(Self.problem("nowhere", [("lang", "eu")]))
        let basque = eu.localized(to: eu.language ?? .en)
        #expect(basque.detail.contains("geruzarik"))
        for (pairs, status) in [
            ([("bbox", "1,2,3")], 400), ([("bbox", "a,b,c,d")], 400), ([("bbox", "-1.6,42.9,-1.7,42.8")], 400),
            ([("bbox", "-1.7,42.9,-1.6,42.8")], 400), ([("bbox", "-200,0,0,1")], 400), ([("bbox", "0,-91,1,1")], 400),
        ] {
            let problem = try #require(Self.problem("pamplona-sectors", pairs), "\(pairs)")
            #expect(problem.status == status && problem.parameter == "bbox", "\(pairs)")
        }
        let order = try #require(Self.problem("pamplona-sectors", [("bbox", "-1.6,42.8,-1.7,42.9")]))
        #expect(order.detail.contains("west <= east"))
        for value in ["-1", "10001", "x", "nan"] {
            let problem = try #require(Self.problem("pamplona-sectors", [("simplify", value)]))
            #expect(problem.status == 400 && problem.parameter == "simplify", "\(value)")
        }
        #expect(Self.problem("pamplona-sectors", [("layer", "x")])?.parameter == "layer")
    }

    @Test func theCanonicalKeyIgnoresHowNumbersAreWritten() throws {
        func key(_ pairs: [(String, String)]) throws -> String {
            try LayerFeaturesEndpoint.selection(
                layer: "fallas", QueryParameters(pairs.map { ($0.0, $0.1) }), data: Self.data
            ).canonicalKey
        }
        #expect(
            try key([("bbox", "-0.38,39.46,-0.37,39.48"), ("simplify", "5")])
                == key([("simplify", "5.0"), ("bbox", "-0.380,39.460,-0.37,39.48")]))
        #expect(try key([("simplify", "5")]) != key([("simplify", "6")]))
        #expect(try key([("lang", "eu")]) != key([("lang", "es")]))
    }

    /// The polygons of a GeoJSON Polygon or MultiPolygon object.
    static func polygons(_ geometry: [String: Any]) throws -> [Polygon] {
        func polygon(_ rings: [[[Double]]]) throws -> Polygon {
            let made = try rings.map { ring in try Ring(ring.map { Point(x: $0[0], y: $0[1]) }) }
            return Polygon(shell: made[0], holes: Array(made.dropFirst()))
        }
        switch geometry["type"] as? String {
        case "Polygon": return [try polygon(try #require(geometry["coordinates"] as? [[[Double]]]))]
        case "MultiPolygon": return try #require(geometry["coordinates"] as? [[[[Double]]]]).map(polygon)
        default: return []
        }
    }
}
