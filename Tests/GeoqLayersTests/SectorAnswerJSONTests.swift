import Foundation
import GeoqCore
import GeoqJSON
import GeoqLayers
import GeoqPROJ
import GeoqTestSupport
import Testing

@testable import GeoqQuery

/// The which-sector answer written by hand (`JSONText`) is the text JSONEncoder writes for it.
@Suite struct SectorAnswerJSONTests {
    @Test func realAndMadeUpAnswersAsJSONEncoderWritesThem() throws {
        let lookup = SectorLookup(
            layer: try LayerLoader().load("pamplona-sectors", from: try sharedCatalog()), geodesic: Geodesic.wgs84)
        var answers = [
            Point(latitude: 42.81, longitude: -1.64), Point(latitude: -1.64, longitude: 42.81),
            Point(latitude: 42.0, longitude: -1.0), Point(latitude: 42.818, longitude: -1.644),
        ].map { lookup.answer(for: $0) }
        #expect(answers.contains { $0.swapHint != nil } && answers.contains { $0.nearest != nil })
        let match = SectorAnswer.Match(
            id: "7\"/\\", name: nil, location: "boundary", distanceToEdgeMetres: 0,
            nearestEdgePoint: .init(latitude: -0.0, longitude: 1e-7))
        answers.append(
            SectorAnswer(
                query: .init(latitude: 90, longitude: -180), layer: "x\n", approximate: false, approximation: nil,
                inside: [match, match], nearest: match,
                swapHint: .init(latitude: 1, longitude: 2, layer: "é", features: ["a", "b\u{1}"])))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for answer in answers {
            #expect(
                String(decoding: JSONText.of(answer), as: UTF8.self)
                    == String(decoding: try encoder.encode(answer), as: UTF8.self))
        }
    }
}
