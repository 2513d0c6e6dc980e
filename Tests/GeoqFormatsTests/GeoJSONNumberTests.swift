import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqFormats

/// The GeoJSON reader's own number conversion and its flat positions, checked against
/// `Double(String)` (correctly rounded: Swift's parser, an independent implementation) on
/// generated numbers and on every coordinate of real files, tokenised here from the raw text.
@Suite("GeoJSON numbers and positions")
struct GeoJSONNumberTests {
    /// Decimals of 1 to 19 significant digits and 0 to 21 fraction digits, seeded: the short
    /// ones take the exact-division path, the long ones the 128-bit one.
    @Test func generatedDecimalsMatchDoubleParsing() {
        var random = SplitMix64(seed: 2026)
        let conversion = DecimalConversion()
        var mismatches: [String] = []
        for _ in 0..<200_000 {
            let total = Int(random.next() % 19) + 1
            let fraction = min(Int(random.next() % 22), total + Int(random.next() % 3))
            var digits: UInt64 = 0
            var text = ""
            for k in 0..<total {
                let d = k == 0 ? random.next() % 9 + 1 : random.next() % 10
                digits = digits * 10 + d
                text += String(d)
            }
            // fraction may exceed the significant digits: leading zeros after the point.
            var literal: String
            if fraction >= total {
                literal = "0." + String(repeating: "0", count: fraction - total) + text
            } else {
                literal = String(text.prefix(total - fraction))
                if fraction > 0 { literal += "." + text.suffix(fraction) }
            }
            let expected = Double(literal)!
            let got = conversion.double(digits: digits, fractionDigits: fraction)
            if got?.bitPattern != expected.bitPattern { mismatches.append("\(literal): \(String(describing: got))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// Halfway cases and the largest inputs, where rounding to even decides.
    @Test func hardCasesMatchDoubleParsing() {
        let cases: [(UInt64, Int, String)] = [
            (9_007_199_254_740_993, 0, "9007199254740993"),  // 2^53 + 1: a tie, to even
            (9_007_199_254_740_995, 0, "9007199254740995"),  // a tie, up to even
            (26_259_159_999_999_997, 16, "2.6259159999999997"),  // from the time zones
            (9_999_999_999_999_999_999, 19, "0.9999999999999999999"),
            (9_999_999_999_999_999_999, 21, "0.009999999999999999999"),
            (1, 21, "0.000000000000000000001"),
            (47_397_344_855_332_365, 10, "4739734.4855332365"),  // the JSONSerialization example
            (1_844_674_407_370_955_161, 0, "1844674407370955161"),
            (9_324_147_401_536_699_531, 1, "932414740153669953.1"),  // 64 bits of digits, over 10
        ]
        let conversion = DecimalConversion()
        for (digits, fraction, text) in cases {
            #expect(conversion.double(digits: digits, fractionDigits: fraction) == Double(text)!, "\(text)")
        }
        #expect(conversion.double(digits: 1, fractionDigits: 22) == 1e-22)
        #expect(conversion.double(digits: 1 << 60, fractionDigits: 22) == nil, "beyond 21 digits: Double(String)")
    }

    /// Numbers as the parser reads them from text, eight digits at a time: runs of every length
    /// on either side of the point, leading zeros beyond 19 digits, exponents, and the last
    /// bytes of a document (fewer than eight left to read at once), alone and as positions.
    @Test func parsedLiteralsMatchDoubleParsing() throws {
        var random = SplitMix64(seed: 1128)
        func digitString(_ count: Int, leadingNonZero: Bool) -> String {
            String(
                (0..<count).map { k in
                    Character(String(k == 0 && leadingNonZero ? random.next() % 9 + 1 : random.next() % 10))
                })
        }
        var literals = ["0", "-0", "0.5", "-0.0", "7", "1e5", "2.5E-3", "-1.25e+2", "0.000000000000000000000012345"]
        for _ in 0..<20_000 {
            let integer = Int(random.next() % 12)
            let fraction = Int(random.next() % 22)
            var literal = random.next() % 2 == 0 ? "-" : ""
            literal += integer == 0 ? "0" : digitString(integer, leadingNonZero: true)
            if fraction > 0 || integer == 0 {
                literal +=
                    "." + String(repeating: "0", count: Int(random.next() % 4))
                    + digitString(max(1, fraction), leadingNonZero: false)
            }
            if random.next() % 10 == 0 { literal += "e" + String(Int(random.next() % 40) - 20) }
            literals.append(literal)
        }
        var mismatches: [String] = []
        for literal in literals {
            let expected = try #require(Double(literal))
            for document in [literal, "[\(literal)]", "[[\(literal),\(literal)]]", "[[1,2],[\(literal), \(literal)]]"] {
                let value = try JSONParser.parse(Array(document.utf8))
                let numbers: [Double]
                switch value {
                case .number(let d): numbers = [d]
                case .array(let items): numbers = items.compactMap(\.numberValue)
                case .positions(let points): numbers = points.suffix(1).flatMap { [$0.x, $0.y] }
                default: numbers = []
                }
                if numbers.isEmpty || numbers.contains(where: { $0.bitPattern != expected.bitPattern }) {
                    mismatches.append("\(document): \(numbers)")
                }
            }
        }
        #expect(mismatches.count == 0, "\(mismatches.prefix(10))")
        for bad in ["01", "-", "1.", "1.e5", "-a", "1e", "00.5"] {
            #expect(throws: JSONParser.SyntaxError.self, "\(bad)") { try JSONParser.parse(Array(bad.utf8)) }
        }
    }

    /// Every position of the city GeoJSON files equals the pair of numbers in the file's text.
    @Test(arguments: [
        "pamplona/geopamplona_datos_BIEN_Pol_UnidBarrio.json", "pamplona/cesium_datos_AMBI_Pol_Inundacion.json",
        "pamplona/geopamplona_datos_MOVI_Pol_ZonaAccesoRestr.json", "pamplona/cesium_datos_mobi_pol_juegosinf.json",
    ])
    func cityFilePositionsMatchTheText(_ file: String) throws {
        let url = TestData.url(file)
        let data = try Data(contentsOf: url)
        let collection = try GeoJSONReader().read(data: data, source: url.path)
        let read = collection.features.flatMap { Self.coordinates($0.geometry) }
        let text = Self.coordinateNumbers(in: [UInt8](data))
        #expect(read.count == text.count && !read.isEmpty)
        #expect(read.map(\.bitPattern) == text.map(\.bitPattern))
    }

    static let timezones = TestData.external("timezones/timezones.geojson")

    /// The first 40 zones of the world's time zones (one feature per line in the export; about
    /// 30 MB, so the debug build reads it in seconds): 17-digit float artefacts
    /// (`8.782392999999999`) come out exactly as `Double(String)` reads them.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: timezones.path),
            "the time zones are not fetched: run tools/fetch-benchmark-data.sh timezones"))
    func timeZonePositionsMatchTheText() throws {
        let lines = try Data(contentsOf: Self.timezones).split(separator: UInt8(ascii: "\n"), maxSplits: 41)
        var cut = Data(lines[0])
        for k in 1...40 { cut += Data(lines[k]) + Data("\n".utf8) }
        cut += Data("]}".utf8)  // each feature's line after the first starts with its comma
        let collection = try GeoJSONReader(options: ReadOptions(idField: "tzid")).read(data: cut, source: "cut")
        #expect(collection.features.count == 40)
        #expect(collection.features.first?.id == "Africa/Abidjan")
        let read = collection.features.flatMap { Self.coordinates($0.geometry) }
        let text = Self.coordinateNumbers(in: [UInt8](cut))
        #expect(read.count == text.count && read.count > 500_000)
        #expect(read.map(\.bitPattern) == text.map(\.bitPattern))
    }

    /// Arrays of number pairs outside geometries keep their JSON text as a property.
    @Test func pairsInPropertiesKeepTheirText() throws {
        let json = """
            {"type":"Feature","properties":{"route":[[1.5, 2], [3,4.25]],"one":[[-0.0,1e2]]},
             "geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}
            """
        let f = try #require(try GeoJSONReader().read(data: Data(json.utf8), source: "t").features.first)
        #expect(f.properties["route"] == .string("[[1.5,2],[3,4.25]]"))
        #expect(f.properties["one"] == .string("[[0,100]]"), "integral numbers without a point, -0 as 0")
        #expect(f.geometry == .lineString([Point(x: 1, y: 2), Point(x: 3, y: 4)]))
        #expect(JSONValue.positions([Point(x: 1, y: 2)]) == .array([.array([.number(1), .number(2)])]))
    }

    /// A pair array that is not all pairs is read the general way, with the same errors.
    @Test func irregularPairArraysKeepTheirErrors() throws {
        func error(_ coordinates: String) -> FormatError? {
            let json =
                "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":\(coordinates)}}"
            do {
                _ = try GeoJSONReader().read(data: Data(json.utf8), source: "t")
                return nil
            } catch { return error }
        }
        let notPair = try #require(error("[[1,2],[3,\"a\"]]"))
        #expect(notPair.fieldPath == "geometry.coordinates[1]")
        #expect(notPair.message.contains("expected [lon, lat] number pair, found [3,\"a\"]"))
        let syntax = try #require(error("[[1,2],[3,]]"))
        #expect(syntax.code == .invalidSyntax)
        #expect(syntax.message.contains("column 91: unexpected ']': expected a value"))
        // A third number (altitude) is allowed and ignored, as before.
        #expect(error("[[1,2,3],[3,4,5]]") == nil)
        let infinite = try #require(error("[[1,2],[1e400,4]]"))
        #expect(infinite.fieldPath == "geometry.coordinates[1]")
    }

    // MARK: An independent reading of the text

    static func coordinates(_ g: Geometry) -> [Double] {
        func flat(_ ps: [Point]) -> [Double] { ps.flatMap { [$0.x, $0.y] } }
        switch g {
        case .point(let p): return [p.x, p.y]
        case .multiPoint(let ps), .lineString(let ps): return flat(ps)
        case .multiLineString(let ls): return ls.flatMap(flat)
        case .polygon(let p): return p.rings.flatMap { flat($0.points.array) }
        case .multiPolygon(let mp): return mp.polygons.flatMap { $0.rings.flatMap { flat($0.points.array) } }
        }
    }

    /// The numbers inside every `"coordinates"` member, in order, each through `Double(String)`.
    static func coordinateNumbers(in bytes: [UInt8]) -> [Double] {
        let key = Array("\"coordinates\"".utf8)
        var numbers: [Double] = []
        var i = 0
        while i + key.count <= bytes.count {
            guard bytes[i..<(i + key.count)].elementsEqual(key) else {
                i += 1
                continue
            }
            i += key.count
            while bytes[i] != UInt8(ascii: "[") { i += 1 }
            var depth = 0
            repeat {
                let c = bytes[i]
                if c == UInt8(ascii: "[") {
                    depth += 1
                    i += 1
                } else if c == UInt8(ascii: "]") {
                    depth -= 1
                    i += 1
                } else if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                    let start = i
                    while i < bytes.count, "-+.eE0123456789".utf8.contains(bytes[i]) { i += 1 }
                    numbers.append(Double(String(decoding: bytes[start..<i], as: UTF8.self))!)
                } else {
                    i += 1
                }
            } while depth > 0
        }
        return numbers
    }
}

/// A small seeded generator (SplitMix64), so that the generated numbers are the same each run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49EB_133B_111F
        return z ^ (z >> 31)
    }
}
