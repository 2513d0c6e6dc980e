import GeoqAPI
import GeoqCore
import GeoqTestSupport
import Testing

@Suite struct QueryParametersTests {
    func query(_ pairs: [(String, String)]) -> QueryParameters { QueryParameters(pairs.map { ($0.0, $0.1) }) }

    func problem(_ pairs: [(String, String)]) -> Problem? {
        do {
            _ = try query(pairs).point()
            return nil
        } catch { return error }
    }

    @Test func aPointIsLatitudeFirst() throws {
        let p = try query([("lat", "42.81"), ("lon", "-1.64")]).point()
        #expect(p.latitude == 42.81 && p.longitude == -1.64)
        #expect(try query([("lon", "+1e1"), ("lat", "-90")]).point() == Point(latitude: -90, longitude: 10))
    }

    @Test func missingParametersAreNamed() {
        #expect(problem([("lon", "-1.64")])?.parameter == "lat")
        #expect(problem([("lon", "-1.64")])?.type == "/problems/missing-parameter")
        #expect(problem([("lat", "42.81")])?.parameter == "lon")
        #expect(problem([("lat", ""), ("lon", "1")])?.type == "/problems/missing-parameter")
        #expect(problem([("lat", "42.81")])?.status == 400)
    }

    @Test(arguments: ["abc", "nan", "inf", "-infinity", "1e999", "0x10", " 42", "42 ", "4,2", "٤٢", "42°", "1.2.3", ""])
    func nonNumbersAreInvalid(text: String) throws {
        let p = try #require(problem([("lat", "1"), ("lon", text)]))
        #expect(p.parameter == "lon")
        #expect(p.status == 400)
        #expect(p.type == (text.isEmpty ? "/problems/missing-parameter" : "/problems/invalid-parameter"))
    }

    @Test func outOfRangeNamesTheRange() throws {
        let lat = try #require(problem([("lat", "90.0001"), ("lon", "0")]))
        #expect(lat.type == "/problems/out-of-range" && lat.parameter == "lat")
        #expect(lat.detail == "lat must be between -90 and 90, got 90.0001")
        let lon = try #require(problem([("lat", "0"), ("lon", "-180.5")]))
        #expect(lon.parameter == "lon" && lon.detail == "lon must be between -180 and 180, got -180.5")
        #expect(problem([("lat", "1e300"), ("lon", "0")])?.type == "/problems/out-of-range")
    }

    @Test func duplicatesAndUnknownParametersAreRefused() throws {
        #expect(problem([("lat", "1"), ("lat", "2"), ("lon", "0")])?.detail == "lat is given 2 times; give it once")
        var refused: Problem?
        do { try query([("latitude", "1")]).allowOnly(["lat", "lon"]) } catch { refused = error }
        let unknown = try #require(refused)
        #expect(unknown.parameter == "latitude")
        #expect(unknown.detail == "unknown parameter \"latitude\"; this endpoint takes lat, lon")
    }

    /// Random bytes, long strings, huge and tiny numbers, unicode: every input gives a point in
    /// range or a 400 problem that names lat or lon, never a crash.
    @Test func fuzzedInputNeverCrashes() {
        var rng = SeededRandom(seed: 9457)
        let pieces = [
            "1", "9", "0", ".", "-", "+", "e", "E", "x", "٤", "é", "\u{0}", "%", " ", "𝟘", "9999999999", "nan",
        ]
        for k in 0..<20_000 {
            func text() -> String {
                if k % 3 == 0 {
                    let bytes = (0..<Int(rng.uniform(0...12))).map { _ in UInt8(rng.uniform(0...255)) }
                    return String(decoding: bytes, as: UTF8.self)
                }
                return (0..<Int(rng.uniform(0...(k % 7 == 0 ? 200 : 10)))).map { _ in
                    pieces[Int(rng.uniform(0...Double(pieces.count - 1)))]
                }.joined()
            }
            let lat = text(), lon = text()
            do {
                let p = try query([("lat", lat), ("lon", lon)]).point()
                #expect((-90...90).contains(p.latitude) && (-180...180).contains(p.longitude))
            } catch {
                #expect(error.status == 400)
                #expect(error.parameter == "lat" || error.parameter == "lon")
            }
        }
    }
}
