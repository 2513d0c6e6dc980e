import GeoqCore
import Testing

@testable import GeoqFormats

/// NDJSON batch lines: which JSON values are numbers.
@Suite struct BatchReaderTests {
    func item(_ line: String) -> Result<Point, CoordinateInputError> {
        var reader = BatchReader()
        return reader.item(line: line, number: 1)?.result ?? .failure(.init(description: "no item"))
    }

    /// 0 and 1, written as integers or not, are coordinates (on Linux they also cast to Bool).
    @Test(arguments: [
        (#"{"lat": 0, "lon": 0}"#, 0.0, 0.0), (#"{"lat": 1, "lon": 1}"#, 1, 1), (#"{"lat": 0.0, "lon": -0}"#, 0, 0),
        (#"{"lat": 1e0, "lon": 1.0}"#, 1, 1), (#"{"lat": 42, "lon": -1}"#, 42, -1),
    ])
    func integersAndZerosAreNumbers(line: String, latitude: Double, longitude: Double) throws {
        #expect(try item(line).get() == Point(latitude: latitude, longitude: longitude))
    }

    @Test(arguments: [
        #"{"lat": true, "lon": 0}"#, #"{"lat": 0, "lon": false}"#, #"{"lat": "0", "lon": 0}"#,
        #"{"lat": null, "lon": 0}"#, #"{"lat": [0], "lon": 0}"#,
    ])
    func otherValuesAreNot(line: String) {
        guard case .failure(let error) = item(line) else {
            Issue.record("\(line) must be refused")
            return
        }
        #expect(error.description == #"line 1: "lat" and "lon" must be numbers"#)
    }
}
