import Foundation
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
}
