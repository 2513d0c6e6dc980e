import Foundation
import GeoqAPI
import GeoqTestSupport
import Testing

/// Random requests against every endpoint and random bodies against the batch reader: each
/// gives an answer or a 4xx problem (naming a parameter, or the body), never a crash. Values
/// mix the documented examples with random bytes, huge and tiny numbers, unicode digits,
/// control characters, empty and long strings; names are sometimes unknown or repeated.
@Suite struct EndpointFuzzTests {
    static var data: ServiceData { SectorEndpointTests.data }

    static let pieces = [
        "1", "9", "0", ".", "-", "+", "e", "E", "x", ",", "٤", "é", "\u{0}", "%", " ", "𝟘", "9999999999", "nan", "inf",
        "1e999", "-0", "true", "blue", "fallas", "Especial", "2026-11-23T13:50", "T", ":", "\u{202E}", "🅰",
    ]

    static func text(_ rng: inout SeededRandom, long: Bool) -> String {
        if rng.uniform(0...1) < 0.3 {
            let bytes = (0..<Int(rng.uniform(0...12))).map { _ in UInt8(rng.uniform(0...255)) }
            return String(decoding: bytes, as: UTF8.self)
        }
        return (0..<Int(rng.uniform(0...(long ? 120 : 6)))).map { _ in
            pieces[Int(rng.uniform(0...Double(pieces.count - 1)))]
        }.joined()
    }

    /// A query for `endpoint`: each documented parameter absent, its example, or a random
    /// value; now and then an unknown name or a name given twice.
    static func query(_ endpoint: EndpointDescription, _ rng: inout SeededRandom, round: Int) -> QueryParameters {
        var pairs: [(name: String, value: String)] = []
        // One round in four: the examples with one value replaced, so that the fuzzing reaches
        // the checks past the first parameter; one in sixteen: the examples untouched.
        if round % 4 == 0 {
            let examples = endpoint.parameters.compactMap { p in p.example.map { (p.name, $0) } }
            pairs = examples
            if round % 16 != 0 && !pairs.isEmpty {
                pairs[Int(rng.uniform(0...Double(pairs.count - 1)))].value = text(&rng, long: false)
            }
            return QueryParameters(pairs)
        }
        for parameter in endpoint.parameters {
            let roll = rng.uniform(0...1)
            if roll < 0.2 { continue }
            if roll < 0.6, let example = parameter.example {
                pairs.append((parameter.name, example))
            } else {
                pairs.append((parameter.name, text(&rng, long: round % 9 == 0)))
            }
        }
        if rng.uniform(0...1) < 0.05 { pairs.append((text(&rng, long: false), "1")) }
        if rng.uniform(0...1) < 0.05, let first = pairs.first { pairs.append(first) }
        return QueryParameters(pairs)
    }

    static func ask(_ operationId: String, _ query: QueryParameters) throws(Problem) {
        switch operationId {
        case "sector": _ = try SectorEndpoint.answer(query, data: data)
        case "nearest": _ = try NearestEndpoint.answer(query, data: data)
        case "services": _ = try ServicesEndpoint.answer(query, data: data)
        case "ar": _ = try AREndpoint.answer(query, data: data)
        case "tariff": _ = try TariffEndpoint.answer(query, data: data, acceptLanguage: nil)
        case "park": _ = try ParkEndpoint.answer(query, data: data, acceptLanguage: nil)
        case "incidents": _ = try IncidentsEndpoint.answer(query, data: data)
        case "sectorBatch": _ = try SectorBatchEndpoint.target(query, data: data)
        case "layerFeatures":
            let name = query.pairs.last { $0.name == "name" }?.value ?? ""
            let selection = try LayerFeaturesEndpoint.selection(
                layer: name, QueryParameters(query.pairs.filter { $0.name != "name" }), data: data)
            _ = LayerFeaturesEndpoint.body(selection, data: data)
        case "ogcItems":
            let id = query.pairs.last { $0.name == "collectionId" }?.value ?? ""
            _ = try OGCFeatures.items(
                id,
                OGCFeatures.Request(
                    origin: "http://127.0.0.1", query: QueryParameters(query.pairs.filter { $0.name != "collectionId" })
                ),
                data: data)
        default: Issue.record("no fuzz case for \(operationId)")
        }
    }

    static let fuzzed = [
        "sector", "nearest", "services", "ar", "tariff", "park", "incidents", "sectorBatch", "layerFeatures",
        "ogcItems",
    ]

    @Test(arguments: fuzzed)
    func randomQueriesGiveAnAnswerOrA4xx(operationId: String) throws {
        let endpoint = try #require(EndpointDescription.all.first { $0.operationId == operationId })
        var rng = SeededRandom(seed: 7231 &+ UInt64(operationId.utf8.count))
        var answered = 0
        let rounds = operationId == "ar" ? 300 : 1500
        for round in 0..<rounds {
            let query = Self.query(endpoint, &rng, round: round)
            do {
                try Self.ask(operationId, query)
                answered += 1
            } catch {
                #expect((400..<500).contains(error.status), "\(query.pairs): \(error)")
                #expect(error.parameter != nil || error.status == 404 || error.status == 422, "\(error)")
            }
        }
        // The untouched examples (and some others) get through.
        #expect(answered >= rounds / 16)
    }

    /// Whole random query strings (random bytes, escapes, separators, the documented names):
    /// read and asked of every endpoint, each gives an answer or a 4xx problem.
    @Test func randomQueryStringsGiveAnAnswerOrA4xx() {
        var rng = SeededRandom(seed: 5309)
        let names = Array(Set(EndpointDescription.all.flatMap { $0.parameters.map(\.name) })).sorted()
        let pieces = names + ["=", "&", "%", "%2", "%41", "%C3%A9", "%FF", "%00", "+", "42.81", "-1.64", "1e308", "é"]
        for round in 0..<3000 {
            let query: String
            if round % 3 == 0 {
                query = String(
                    decoding: (0..<Int(rng.uniform(0...48))).map { _ in UInt8(rng.uniform(0...255)) }, as: UTF8.self)
            } else {
                query = (0..<Int(rng.uniform(0...14))).map { _ in pieces[Int(rng.uniform(0...Double(pieces.count - 1)))]
                }.joined()
            }
            let operationId = Self.fuzzed[round % Self.fuzzed.count]
            do {
                try Self.ask(operationId, QueryParameters(query: query))
            } catch {
                #expect((400..<500).contains(error.status), "\(operationId) \(query): \(error)")
            }
        }
    }

    /// Valid bodies with bytes flipped, cut short or spliced, and random bytes: the batch
    /// reader gives points in range or a 400/413/415 problem.
    @Test func randomBatchBodiesGiveItemsOrA4xx() {
        var rng = SeededRandom(seed: 4113)
        let valid: [(String, String)] = [
            (
                "application/x-ndjson",
                "{\"lat\": 42.81, \"lon\": -1.64, \"id\": \"a\"}\n{\"lat\": 39.47, \"lon\": -0.38}\n"
            ),
            ("text/csv", "lon,lat,id\n-1.64,42.81,a\n-0.38,39.47,b\n"),
            (
                "application/geo+json",
                "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"id\": 7, \"geometry\": "
                    + "{\"type\": \"Point\", \"coordinates\": [-1.64, 42.81]}, \"properties\": {\"n\": [1, {}]}}]}"
            ),
        ]
        var read = 0
        for round in 0..<6000 {
            let (mediaType, text) = valid[round % valid.count]
            var bytes = [UInt8](text.utf8)
            switch round % 4 {
            case 0:
                for _ in 0..<Int(rng.uniform(1...4)) {
                    bytes[Int(rng.uniform(0...Double(bytes.count - 1)))] = UInt8(rng.uniform(0...255))
                }
            case 1: bytes = Array(bytes.prefix(Int(rng.uniform(0...Double(bytes.count)))))
            case 2:
                let at = Int(rng.uniform(0...Double(bytes.count)))
                bytes.insert(contentsOf: Self.text(&rng, long: true).utf8, at: at)
            default: bytes = (0..<Int(rng.uniform(0...64))).map { _ in UInt8(rng.uniform(0...255)) }
            }
            do {
                let items = try SectorBatchEndpoint.items(Data(bytes), contentType: mediaType, maxPoints: 3)
                read += 1
                #expect(!items.isEmpty && items.count <= 3)
                for item in items {
                    #expect((-90...90).contains(item.point.latitude) && (-180...180).contains(item.point.longitude))
                }
            } catch {
                #expect([400, 413, 415].contains(error.status), "\(error)")
                #expect(error.parameter == "body" || error.parameter == "Content-Type")
            }
        }
        #expect(read > 0)
    }
}
