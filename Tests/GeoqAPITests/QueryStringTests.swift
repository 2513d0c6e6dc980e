import Foundation
import GeoqAPI
import GeoqTestSupport
import Testing

/// Reading a URI's query into parameters (`QueryParameters(query:)`): Foundation's percent
/// encoding is the oracle for round trips; the edge cases are RFC 3986's and URLSearchParams'.
@Suite struct QueryStringTests {
    func pairs(_ query: String) -> [String] { QueryParameters(query: query).pairs.map { "\($0.name)=\($0.value)" } }

    @Test func pairsInOrderDecoded() {
        #expect(pairs("lat=42.81&lon=-1.64") == ["lat=42.81", "lon=-1.64"])
        #expect(pairs("lat=4%32.81&%6Con=-1.64") == ["lat=42.81", "lon=-1.64"])
        #expect(pairs("name=Pla%C3%A7a%20de%20l%27Ajuntament") == ["name=Plaça de l'Ajuntament"])
        #expect(pairs("lat=1&lat=2") == ["lat=1", "lat=2"])
    }

    @Test func emptyPairsAreSkippedAndANameMayComeAlone() {
        #expect(pairs("") == [])
        #expect(pairs("&") == [])
        #expect(pairs("lat=1&&lon=2&") == ["lat=1", "lon=2"])
        #expect(pairs("geojson") == ["geojson="])
        #expect(pairs("=3") == ["=3"])
        #expect(pairs("a=b=c") == ["a=b=c"])
        #expect(pairs("a=") == ["a="])
    }

    /// `+` is a plus sign, not a space: a time zone offset keeps it.
    @Test func plusStaysAPlus() {
        #expect(pairs("start=2026-03-15T10:00+01:00") == ["start=2026-03-15T10:00+01:00"])
        #expect(pairs("start=2026-03-15T10:00%2B01:00") == ["start=2026-03-15T10:00+01:00"])
    }

    /// A malformed escape is kept as written (the parameter's own check then names it); escaped
    /// bytes that are not UTF-8 become U+FFFD.
    @Test func malformedEscapesStayAsWritten() {
        #expect(pairs("lat=%zz") == ["lat=%zz"])
        #expect(pairs("lat=4%") == ["lat=4%"])
        #expect(pairs("lat=%4") == ["lat=%4"])
        #expect(pairs("lat=%41%") == ["lat=%41%"])
        #expect(pairs("lat=%FF") == ["lat=\u{FFFD}"])
    }

    /// Random names and values, percent-encoded by Foundation, read back unchanged.
    @Test func foundationEncodedPairsRoundTrip() throws {
        var rng = SeededRandom(seed: 20261123)
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+%")
        let alphabet = Array("aZ09-._~ &=+%?/#éñ€😀\u{7}\"'").map(String.init)
        for _ in 0..<2000 {
            let expected = (0..<Int(rng.uniform(1...5))).map { _ in
                let name = (0..<Int(rng.uniform(1...6))).map { _ in
                    alphabet[Int(rng.uniform(0...Double(alphabet.count - 1)))]
                }
                let value = (0..<Int(rng.uniform(0...8))).map { _ in
                    alphabet[Int(rng.uniform(0...Double(alphabet.count - 1)))]
                }
                return (name.joined(), value.joined())
            }
            let query = try expected.map { name, value in
                let n = try #require(name.addingPercentEncoding(withAllowedCharacters: allowed))
                let v = try #require(value.addingPercentEncoding(withAllowedCharacters: allowed))
                return "\(n)=\(v)"
            }.joined(separator: "&")
            let read = QueryParameters(query: query).pairs
            #expect(read.map(\.name) == expected.map(\.0) && read.map(\.value) == expected.map(\.1), "\(query)")
        }
    }

    /// Random bytes (and random bytes among `%`, `&` and `=`): never a crash, and the text
    /// between the separators is all accounted for.
    @Test func randomBytesAreReadWithoutACrash() {
        var rng = SeededRandom(seed: 77)
        let separators: [UInt8] = Array("%&=".utf8)
        for round in 0..<5000 {
            let bytes = (0..<Int(rng.uniform(0...40))).map { _ in
                round % 2 == 0 && rng.uniform(0...1) < 0.4
                    ? separators[Int(rng.uniform(0...2))] : UInt8(rng.uniform(0...255))
            }
            let query = String(decoding: bytes, as: UTF8.self)
            let read = QueryParameters(query: query).pairs
            // Split as bytes: as characters, `&` before a combining mark is not a separator.
            let pieces = query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
            #expect(read.count == pieces.count, "\(bytes)")
        }
    }
}
