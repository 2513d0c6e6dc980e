import GeoqJSON
import GeoqTestSupport
import Testing

/// A template filled with numbers is the text written at once with those numbers, and a
/// fragment copied in is the text written in its place: JSONText itself is the oracle (its own
/// bytes are held to JSONEncoder's by JSONTextTests).
@Suite struct JSONTextTemplateTests {
    /// An object whose members hold numbers at every place a hole can take: first in an object,
    /// after a comma, in an array, nested, last.
    static func write(_ json: inout JSONText, _ number: (inout JSONText, Double) -> Void, _ values: [Double]) {
        json.object { json in
            json.key("a")
            number(&json, values[0])
            json.key("b")
            json.array { json in
                json.string("x\"y")
                number(&json, values[1])
                number(&json, values[2])
            }
            json.key("c")
            json.object { json in
                json.key("d")
                number(&json, values[3])
            }
            json.key("e")
            number(&json, values[4])
        }
    }

    @Test func filledTemplatesAreTheTextWrittenAtOnce() {
        var holes: [Int] = []
        var text = JSONText()
        Self.write(&text, { json, _ in holes.append(json.hole()) }, [0, 0, 0, 0, 0])
        let template = JSONText.Template(text, holes: holes)
        #expect(template.holes.count == 5)
        var generator = SeededRandom(seed: 20_261_125)
        let special: [Double] = [0, -0.0, 1, 100, -3, 0.1, 1e-7, 1e21, 42.816_9, -1.644, .nan, .infinity]
        for round in 0..<2_000 {
            let values = (0..<5).map { _ in
                round < 200
                    ? special.randomElement(using: &generator)!
                    : generator.uniform(-1e6...1e6) * [1, 1e-9, 1e12].randomElement(using: &generator)!
            }
            var direct = JSONText()
            Self.write(&direct, { $0.number($1) }, values)
            var pieces: [UInt8] = []
            template.write(values) { pieces.append(contentsOf: $0) }
            guard template.filled(values) == direct.bytes, pieces == direct.bytes else {
                Issue.record("differs for \(values)")
                return
            }
        }
    }

    @Test func fragmentsAreTheTextWrittenInTheirPlace() {
        var direct = JSONText()
        direct.array { json in
            json.string("a")
            json.string("b\n")
            json.object { json in
                json.key("k")
                json.number(1.5)
            }
        }
        let elements = JSONText.Fragment(elements: ["a", "b\n"])!
        var members = JSONText()
        members.key("k")
        members.number(1.5)
        var copied = JSONText()
        copied.array { json in
            json.value(elements)
            json.object { json in json.value(JSONText.Fragment(members)) }
        }
        #expect(copied.bytes == direct.bytes)
        #expect(JSONText.Fragment(elements: []) == nil)
    }
}
