import Foundation
import GeoqTestSupport
import GeoqTracking
import Testing

@Suite struct FixReaderTests {
    @Test func anArrayNamesEachBadFixByIndexAndField() throws {
        let body = """
            [{"device":"a","time":"2026-11-23T10:00:00+01:00","lat":42.81,"lon":-1.64,"accuracy":8},
             {"device":"a","time":"2026-11-23T10:00:01Z","lat":95,"lon":-1.64},
             {"time":"2026-11-23T10:00:02Z","lat":42.81,"lon":-1.64},
             {"device":"a","time":"yesterday","lat":42.81,"lon":-1.64},
             {"device":"a","time":"2026-11-23T10:00:03Z","lat":42.81,"lon":"west"},
             7,
             {"device":"b","time":"2026-11-23T09:00:04.5Z","lat":-33.9,"lon":151.2,"speed":3.5}]
            """
        let batch = FixReader.read(Data(body.utf8))
        #expect(batch.fixes.map(\.device) == ["a", "b"])
        #expect(batch.fixes[0].time == Fixtures.time("2026-11-23T09:00:00Z"))
        #expect(batch.fixes[0].latitude == 42.81 && batch.fixes[0].longitude == -1.64)
        #expect(batch.fixes[0].accuracy == 8 && batch.fixes[1].speed == 3.5)
        #expect(batch.fixes[1].time.timeIntervalSince(Fixtures.time("2026-11-23T09:00:04Z")) == 0.5)
        #expect(batch.errors.map(\.index) == [1, 2, 3, 4, 5])
        #expect(batch.errors.map(\.field) == ["lat", "device", "time", "lon", nil])
        #expect(batch.errors.allSatisfy { $0.line == nil })
        #expect(batch.errors[0].description == "fix 1: lat 95.0 is outside [-90, 90]")
    }

    @Test func ndjsonNamesLines() throws {
        let body = """
            {"device":"a","time":"2026-11-23T10:00:00Z","lat":42.81,"lon":-1.64}

            {"device":"a","time":"2026-11-23T10:00:01Z","lat":42.81,"lon":-181}
            not json
            {"device":"a","time":"2026-11-23T10:00:02Z","lat":42.82,"lon":-1.64,"accuracy":-1}
            {"device":"a","time":"2026-11-23T10:00:03Z","lat":42.83,"lon":-1.64}
            """
        let batch = FixReader.read(Data(body.utf8))
        #expect(batch.fixes.map(\.latitude) == [42.81, 42.83])
        #expect(batch.errors.map(\.line) == [3, 4, 5])
        #expect(batch.errors.map(\.field) == ["lon", nil, "accuracy"])
        #expect(batch.errors[0].description.hasPrefix("line 3: lon -181"))
    }

    /// CRLF line ends, a byte-order mark, a line with something after its object, a number
    /// that Foundation's Linux parser rounds wrongly, booleans that are not numbers.
    @Test func ndjsonAsPhonesAndSpreadsheetsWriteIt() throws {
        let body =
            "\u{FEFF}{\"device\":\"a\",\"time\":\"2026-11-23T10:00:00Z\",\"lat\":42.81,\"lon\":-0.3743054743542415}\r\n"
            + "{\"device\":\"a\",\"time\":\"2026-11-23T10:00:01Z\",\"lat\":42.81,\"lon\":-1.64} {}\r\n"
            + "{\"device\":\"a\",\"time\":\"2026-11-23T10:00:02Z\",\"lat\":true,\"lon\":-1.64}\r\n"
            + "\r\n"
            + "{\"device\":\"a\",\"time\":\"2026-11-23T10:00:03Z\",\"lat\":4.2e1,\"lon\":-1.64,\"speed\":null}\r\n"
        let batch = FixReader.read(Data(body.utf8))
        #expect(batch.fixes.map(\.longitude) == [-0.3743054743542415, -1.64])
        #expect(batch.fixes.map(\.latitude) == [42.81, 42])
        #expect(batch.fixes.map(\.speed) == [nil, nil])
        #expect(batch.errors.map(\.line) == [2, 3])
        #expect(batch.errors.map(\.field) == [nil, "lat"])
    }

    @Test func oneObjectAndTheCodableRoundTrip() throws {
        let body = #"{"device": "a",\#n "time": "2026-11-23T10:00:00+01:00",\#n "lat": 42.81, "lon": -1.64}"#
        let batch = FixReader.read(Data(body.utf8))
        #expect(batch.errors.isEmpty && batch.fixes.count == 1)
        let fix = try #require(batch.fixes.first)
        let json = try JSONEncoder().encode(fix)
        #expect(try JSONDecoder().decode(Fix.self, from: json) == fix)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""time":"2026-11-23T09:00:00Z""#) && text.contains(#""lat":42.81"#))
        // Decoding checks ranges too.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                Fix.self, from: Data(#"{"device":"a","time":"2026-11-23T10:00:00Z","lat":-91,"lon":0}"#.utf8))
        }
    }

    /// NDJSON lines are read by a quicker parser when their names and strings have no escapes,
    /// and by the general one otherwise. Seeded lines of every kind of member (good and bad
    /// values, escapes, other members, duplicates, spacing, broken syntax) give, line for line,
    /// the fixes and errors that the general parser gives for each line alone in an array.
    @Test func quickAndGeneralReadingsOfALineAgree() throws {
        var random = SeededRandom(seed: 41)
        func any(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
        /// Mostly one of the first `good` choices, so that many lines are fixes.
        func mostly(_ good: Int, of choices: [String]) -> String {
            random.next() % 5 != 0 ? any(Array(choices.prefix(good))) : any(choices)
        }
        let devices = [#""car-7""#, #""ünï-ç""#, #""a\"b""#, #""c\u0061r""#, #""""#, "5", "null", #""\#u{09}tab""#]
        let times = [
            #""2026-11-23T10:00:00Z""#, #""2026-11-23T10:00:01.25+01:00""#, #""2026-11-23t10:00:02z""#,
            #""yesterday""#, #""2026-11-23T10:00:03\u005a""#, "7", "null", #""2026-13-01T00:00:00Z""#,
        ]
        let numbers = [
            "42.81", "-1.6400000000000001", "4.281e1", "0", "-0", "1E2", "95", "-180", "0.000000000000000000001234",
            "123456789012345678901234.5", #""42.8""#, "null", "true", "[1]", "01", ".5", "-", "1.", "2e", "{}",
        ]
        let others = [#""note":"x""#, #""extra":{"a":[1,2,{"b":null}]}"#, #""flag":false"#, #""n":-3.5e-2"#]
        var lines: [String] = []
        for _ in 0..<4_000 {
            var members: [String] = []
            if random.next() % 8 != 0 { members.append(#""device":"# + mostly(4, of: devices)) }
            if random.next() % 8 != 0 { members.append(#""time":"# + mostly(3, of: times)) }
            if random.next() % 10 != 0 { members.append(#""lat":"# + mostly(9, of: numbers)) }
            if random.next() % 10 != 0 { members.append(#""lon":"# + mostly(9, of: numbers)) }
            if random.next() % 2 == 0 { members.append(#""accuracy":"# + mostly(9, of: numbers)) }
            if random.next() % 4 == 0 { members.append(#""speed":"# + mostly(9, of: numbers)) }
            if random.next() % 3 == 0 { members.append(any(others)) }
            if random.next() % 6 == 0, let first = members.first { members.append(first) }
            if random.next() % 12 == 0 { members.append(#""\u006cat":3"#) }
            members.shuffle(using: &random)
            let comma = any([",", " , ", ",\t"])
            var line = "{" + members.joined(separator: comma) + "}"
            if random.next() % 4 == 0 { line = line.replacingOccurrences(of: #"":"#, with: #"" : "#) }
            switch random.next() % 40 {
            case 0: line.removeLast()
            case 1: line += " x"
            case 2: line = line.replacingOccurrences(of: "}", with: ",}")
            case 3: line = "[" + line + "]"
            default: break
            }
            lines.append(line)
        }
        let read = FixReader.read(Data(lines.joined(separator: "\n").utf8))
        var fixes: [Fix] = []
        var errors: [FixError] = []
        for (number, line) in zip(1..., lines) {
            let alone = FixReader.read(Data(("[" + line + "]").utf8))
            if alone.errors.map(\.message) == ["the body is not a JSON array"] || line.hasPrefix("[") {
                errors.append(FixError(line: number, index: nil, field: nil, message: "not a JSON object"))
                continue
            }
            fixes += alone.fixes
            errors += alone.errors.map {
                FixError(line: number, index: nil, field: $0.field, message: $0.message, kind: $0.kind)
            }
        }
        #expect(
            read.fixes.count > 300 && read.errors.count > 1_000,
            "\(read.fixes.count) fixes, \(read.errors.count) errors")
        #expect(read.fixes == fixes)
        #expect(read.errors == errors)
    }
}
