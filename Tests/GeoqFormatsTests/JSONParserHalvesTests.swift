import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqFormats

/// A large FeatureCollection's features are read in two halves on two threads: the value and
/// every error must be the ones of the reading in one piece. Here the split is forced on small
/// files (`splittingFrom: 0`) and compared with the plain reading.
@Suite("JSON arrays read in two halves")
struct JSONParserHalvesTests {
    static func parse(_ text: [UInt8], splittingFrom: Int) -> Result<JSONValue, JSONParser.SyntaxError> {
        text.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(bytes, splittingFrom: splittingFrom) }
        }
    }

    static func same(_ a: Result<JSONValue, JSONParser.SyntaxError>, _ b: Result<JSONValue, JSONParser.SyntaxError>)
        -> Bool
    {
        switch (a, b) {
        case (.success(let x), .success(let y)): return x == y
        case (.failure(let x), .failure(let y)):
            return x.offset == y.offset && x.line == y.line && x.column == y.column && x.message == y.message
        default: return false
        }
    }

    static let files = [
        "pamplona/cesium_datos_BIEN_Pol_UnidBarrio.json",
        "pamplona/cesium_datos_AMBI_Pol_Inundacion.json",
        "pamplona/geopamplona_datos_MOVI_Pol_ZonaAccesoRestr.json",
        "pamplona/cesium_datos_MOVI_Pto_AccesoRestr.json",
    ]

    @Test(arguments: files)
    func realFilesGiveTheSameValue(_ file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: TestData.url(file)))
        let whole = Self.parse(bytes, splittingFrom: .max)
        guard case .success(let value) = whole else {
            Issue.record("\(file) does not parse")
            return
        }
        let features = value.objectValue?["features"]?.arrayValue?.count ?? 0
        #expect(features >= 1, "\(file): \(features) features")
        #expect(Self.same(Self.parse(bytes, splittingFrom: 0), whole))
    }

    /// Errors before, at and after the middle, an object not closed, a split point inside a
    /// string, and a `features` array that ends before the middle: the same result as in one
    /// piece.
    @Test func errorsAndOddSplitsGiveTheSameResult() {
        let feature = #"{"type":"Feature","properties":{"n":1},"geometry":{"type":"Point","coordinates":[1,2]}}"#
        let many = Array(repeating: feature, count: 20).joined(separator: ",\n")
        let documents = [
            #"{"type":"FeatureCollection","features":["# + many + "]}",
            #"{"type":"FeatureCollection","features":["# + many + "]",
            #"{"type":"FeatureCollection","features":["# + many.replacingOccurrences(of: "[1,2]", with: "[1,]") + "]}",
            #"{"type":"FeatureCollection","features":["# + many + ",]}",
            #"{"type":"FeatureCollection","features":["# + feature + "], \"x\": \"" + many + "\"}",
            #"{"type":"FeatureCollection","features":[],"bbox":[1,2,3,4],"note":"# + "\""
                + many.replacingOccurrences(of: "\"", with: "'") + "\"}",
            #"{"type":"FeatureCollection","features":["# + many + "] trailing",
            #"{"type":"FeatureCollection","features":["# + feature + ", {\"s\": \", {\\\"a\\\": 1}\"}, " + many + "]}",
        ]
        for (k, text) in documents.enumerated() {
            let bytes = Array(text.utf8)
            #expect(
                Self.same(Self.parse(bytes, splittingFrom: 0), Self.parse(bytes, splittingFrom: .max)), "document \(k)")
        }
        // The second half's error is reported where it is, as in one piece.
        let broken = Array(
            (#"{"type":"FeatureCollection","features":["# + many + ",{\"type\":tru}]}").utf8)
        guard case .failure(let error) = Self.parse(broken, splittingFrom: 0) else {
            Issue.record("the broken document parsed")
            return
        }
        #expect(error.line == 20)
        #expect(error.message.contains("true"))
    }
}
