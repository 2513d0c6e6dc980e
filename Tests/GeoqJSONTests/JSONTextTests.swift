import Foundation
import GeoqJSON
import GeoqTestSupport
import Testing

/// `JSONText` writes the bytes Foundation's JSONEncoder writes (sorted keys, slashes unescaped):
/// JSONEncoder is the oracle, over random numbers and strings (seeded, so a failure replays).
@Suite struct JSONTextTests {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    struct Numbers: JSONWritable {
        var values: [Double]
        func write(to json: inout JSONText) { json.array { json in for v in values { json.number(v) } } }
    }

    struct Strings: JSONWritable {
        var values: [String]
        func write(to json: inout JSONText) { json.array { json in for v in values { json.string(v) } } }
    }

    @Test func numbersAsJSONEncoderWritesThem() throws {
        var generator = SeededRandom(seed: 20_240_317)
        var values: [Double] = [0, -0.0, 1, -3, 100, 12345, 53.63, 0.1, 1e-5, 1.5e-7, 1e16, 1e17, 2.5e21, 1e300]
        values += [
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude, 9_007_199_254_740_992,
            9_007_199_254_740_994,
        ]
        for _ in 0..<20_000 {
            // Every bit pattern that is a finite number, and ordinary coordinates and distances.
            let bits = Double(bitPattern: generator.next())
            if bits.isFinite { values.append(bits) }
            values.append(generator.uniform(-180...180))
            values.append((generator.uniform(0...50_000) * 100).rounded() / 100)
        }
        let expected = try Self.encoder().encode(values)
        #expect(JSONText.of(Numbers(values: values)) == Array(expected))
    }

    @Test func stringsAsJSONEncoderWritesThem() throws {
        var values = [
            "", "plain", #"quote " and \ backslash"#, "a/b", "\u{0}\u{1f}\u{7f}", "\n\r\t\u{8}\u{c}", "é€😀\u{2028}",
        ]
        let alphabet: [Unicode.Scalar] =
            (0..<0x80).compactMap(Unicode.Scalar.init) + ["é", "ñ", "—", "€", "\u{2028}", "😀", "\u{FEFF}"]
        var generator = SeededRandom(seed: 1_902)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...12, using: &generator)
            values.append(
                String(
                    String.UnicodeScalarView(
                        (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })))
        }
        let expected = try Self.encoder().encode(values)
        #expect(JSONText.of(Strings(values: values)) == Array(expected))
    }

    struct Record: Encodable, JSONWritable {
        var b: Bool
        var items: [Int]
        var name: String?
        var nested: [Record]

        func write(to json: inout JSONText) {
            json.object { json in
                json.key("b")
                json.bool(b)
                json.key("items")
                json.array { json in for i in items { json.number(i) } }
                json.member("name", name) { $0.string($1) }
                json.key("nested")
                json.array { json in for r in nested { r.write(to: &json) } }
            }
        }
    }

    @Test func objectsArraysAndAbsentMembers() throws {
        let inner = Record(b: false, items: [], name: nil, nested: [])
        let record = Record(b: true, items: [1, -2, 3], name: "x", nested: [inner, inner])
        #expect(JSONText.of(record) == Array(try Self.encoder().encode(record)))
        #expect(String(decoding: JSONText.of(inner), as: UTF8.self) == #"{"b":false,"items":[],"nested":[]}"#)
    }

    @Test func numbersThatAreNotFiniteAreNull() {
        #expect(String(decoding: JSONText.of(Numbers(values: [.nan, .infinity, 1])), as: UTF8.self) == "[null,null,1]")
    }
}
