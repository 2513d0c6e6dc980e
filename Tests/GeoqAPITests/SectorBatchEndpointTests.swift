import Foundation
import GeoqCore
import GeoqLayers
import GeoqQuery
import Testing

@testable import GeoqAPI

/// `POST /v1/sector:batch` without HTTP: reading the three body formats, the errors that name
/// the line or feature, and answer lines equal to `/v1/sector`'s answers.
@Suite struct SectorBatchEndpointTests {
    static var data: ServiceData { SectorEndpointTests.data }

    func items(_ text: String, _ contentType: String?, max: Int = 100) throws(Problem) -> [SectorBatchEndpoint.Item] {
        try SectorBatchEndpoint.items(Data(text.utf8), contentType: contentType, maxPoints: max)
    }

    func problem(_ text: String, _ contentType: String?, max: Int = 100) -> Problem? {
        do {
            _ = try items(text, contentType, max: max)
            return nil
        } catch { return error }
    }

    @Test func ndjsonCsvAndFeatureCollectionsGiveTheSamePoints() throws {
        let ndjson = try items(
            "{\"lat\": 42.81, \"lon\": -1.64, \"id\": \"car-1\"}\n\n# a comment\n{\"latitude\": 39.4699, \"lng\": -0.3763}\n",
            "application/x-ndjson; charset=utf-8")
        #expect(
            ndjson.map(\.point) == [
                Point(latitude: 42.81, longitude: -1.64), Point(latitude: 39.4699, longitude: -0.3763),
            ])
        #expect(ndjson.map(\.line) == [1, 4] && ndjson.map(\.id) == ["car-1", nil])
        // A header may put longitude first.
        let csv = try items("lon,lat,id\n-1.64,42.81,car-1\n-0.3763,39.4699,x\n", "text/csv")
        #expect(csv.map(\.point) == ndjson.map(\.point) && csv.map(\.line) == [2, 3])
        // GeoJSON is longitude first; a feature without an id is numbered.
        let collection = try items(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "car-1", "geometry": {"type": "Point", "coordinates": [-1.64, 42.81]}, "properties": {}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-0.3763, 39.4699]}, "properties": {}}]}
            """, "application/geo+json")
        #expect(collection.map(\.point) == ndjson.map(\.point))
        #expect(collection.map(\.feature) == [1, 2] && collection[0].id == "car-1")
    }

    @Test(
        arguments: [
            (
                "{\"lat\": 42.81, \"lon\": -1.64}\n{\"lat\": 42.81}\n", "application/x-ndjson", 2, nil,
                "/problems/malformed-body"
            ),
            (
                "{\"lat\": 42.81, \"lon\": -1.64}\n{\"lat\": 42.8", "application/x-ndjson", 2, nil,
                "/problems/malformed-body"
            ),
            ("42.81,-1.64\n95,-1.64\n", "text/csv", 2, nil, "/problems/malformed-body"),
            ("42.81;-1.64\n", "text/csv", 1, nil, "/problems/malformed-body"),
            ("# nothing\n\n", "text/csv", nil, nil, "/problems/malformed-body"),
            (
                "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": "
                    + "{\"type\": \"LineString\", \"coordinates\": [[0, 0], [1, 1]]}, \"properties\": {}}]}",
                "application/geo+json", nil, 1, "/problems/malformed-body"
            ),
            (
                "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": "
                    + "{\"type\": \"Point\", \"coordinates\": [42.81, 95]}, \"properties\": {}}]}",
                "application/json", nil, 1, "/problems/malformed-body"
            ),
            (
                "{\"type\": \"FeatureCollection\", \"features\": [", "application/json", 1, nil,
                "/problems/malformed-body"
            ),
            ("42.81,-1.64\n", "application/xml", nil, nil, "/problems/unsupported-media-type"),
            ("42.81,-1.64\n", nil, nil, nil, "/problems/unsupported-media-type"),
        ] as [(String, String?, Int?, Int?, String)])
    func badBodiesNameTheLineOrFeature(text: String, contentType: String?, line: Int?, feature: Int?, type: String)
        throws
    {
        let p = try #require(problem(text, contentType))
        #expect(p.type == type && p.line == line && p.feature == feature, "\(p)")
        #expect(p.status == (type == "/problems/unsupported-media-type" ? 415 : 400))
    }

    @Test func notUTF8AndTooManyPoints() throws {
        let bytes = Data([0x34, 0x32, 0xFF, 0x2C, 0x31, 0x0A])
        do {
            _ = try SectorBatchEndpoint.items(bytes, contentType: "text/csv", maxPoints: 10)
            Issue.record("bytes that are not UTF-8 were read")
        } catch { #expect(error.type == "/problems/malformed-body" && error.detail.contains("UTF-8")) }
        let lines = String(repeating: "42.81,-1.64\n", count: 4)
        #expect(problem(lines, "text/csv", max: 3)?.status == 413)
        #expect(problem(lines, "text/csv", max: 3)?.type == "/problems/batch-too-large")
        #expect(try items(lines, "text/csv", max: 4).count == 4)
    }

    /// Each answer line is `/v1/sector`'s answer for the same point, with the line and id.
    @Test func answerLinesAreTheSectorAnswers() throws {
        let target = try SectorBatchEndpoint.target(QueryParameters([]), data: Self.data)
        let batch = try items("lat,lon,id\n42.81,-1.64,car-1\n39.4699,-0.3763,far\n", "text/csv")
        for item in batch {
            let line = Data(target.answerLine(item))
            #expect(line.last == UInt8(ascii: "\n"))
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            #expect(object["line"] as? Int == item.line && object["id"] as? String == item.id)
            let single = try SectorEndpoint.answer(
                QueryParameters([("lat", "\(item.point.latitude)"), ("lon", "\(item.point.longitude)")]),
                data: Self.data
            ).answer
            #expect(try JSONDecoder().decode(SectorAnswer.self, from: line) == single)
        }
        let first = try JSONDecoder().decode(SectorAnswer.self, from: Data(target.answerLine(batch[0])))
        #expect(first.inside.map(\.id) == ["2"] && first.approximate)
        let second = try JSONDecoder().decode(SectorAnswer.self, from: Data(target.answerLine(batch[1])))
        #expect(second.inside.isEmpty)
        do {
            _ = try SectorBatchEndpoint.target(QueryParameters([("layer", "fallas")]), data: Self.data)
            Issue.record("a point layer was taken for a batch")
        } catch { #expect(error.status == 404 && error.parameter == "layer") }
    }

    /// The answer's members and the item's, as JSONEncoder writes them (sorted keys, slashes
    /// unescaped): the oracle for the hand-written lines.
    struct EncodedLine: Encodable {
        var answer: SectorAnswer
        var item: SectorBatchEndpoint.Item
        enum CodingKeys: String, CodingKey { case line, feature, id }
        func encode(to encoder: any Encoder) throws {
            try answer.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(item.line, forKey: .line)
            try container.encodeIfPresent(item.feature, forKey: .feature)
            try container.encodeIfPresent(item.id, forKey: .id)
        }
    }

    /// Lines from both body kinds (line numbers, feature numbers, ids with quotes and slashes,
    /// points inside, outside and swapped) are JSONEncoder's text, byte for byte.
    @Test func answerLinesAreJSONEncodersText() throws {
        let target = try SectorBatchEndpoint.target(QueryParameters([]), data: Self.data)
        let lines = try items(
            "lat,lon,id\n42.81,-1.64,car-1\n39.4699,-0.3763,\"a \"\"b\"\"/c\"\n-1.64,42.81,\n42.8,-1.65,é\n", "text/csv"
        )
        let features = try items(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "x/1", "geometry": "#
                + #"{"type": "Point", "coordinates": [-1.64, 42.81]}, "properties": {}}, {"type": "Feature", "#
                + #""geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {}}]}"#,
            "application/geo+json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for item in lines + features {
            let expected = try encoder.encode(
                EncodedLine(
                    answer: target.lookup.answer(for: item.point, swapCandidates: { target.others }), item: item))
            #expect(
                String(decoding: target.answerLine(item).dropLast(), as: UTF8.self)
                    == String(decoding: expected, as: UTF8.self))
        }
        #expect(lines.count == 4 && features.count == 2)
    }
}
