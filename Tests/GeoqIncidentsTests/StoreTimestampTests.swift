import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqIncidents

/// The store's timestamps against `Date.ISO8601FormatStyle`, which wrote and read them before.
@Suite struct StoreTimestampTests {
    @Test func seededInstantsWriteAndReadAsTheFormatStyleDoes() throws {
        var rng = SeededRandom(seed: 8601)
        var instants: [Double] = [0, 0.5, 59.999_999, 951_782_400, 4_107_542_400, 253_402_300_799.5, -1, -0.25]
        for _ in 0..<20_000 { instants.append(rng.uniform(-2e9...2.6e11)) }
        for _ in 0..<2_000 {
            instants.append(Double(Int(rng.uniform(0...4e9))) + [0, 0.999_999_9, 1e-9].randomElement(using: &rng)!)
        }
        for t in instants {
            let date = Date(timeIntervalSince1970: t)
            let expected = date.formatted(.iso8601)
            #expect(StoreTimestamp.text(date) == expected, "\(t)")
            #expect(StoreTimestamp.date(expected) == (try? Date(expected, strategy: .iso8601)), "\(expected)")
        }
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2024-02-29T23:59:59Z", "2026-13-01T00:00:00Z", "2026-11-31T00:00:00Z",
        "2026-11-22T24:00:00Z", "2026-11-22T07:60:00Z", "2026-11-22T07:10:60Z", "2026-11-22T07:10:00+01:00",
        "2026-11-22 07:10:00Z", "1969-12-31T23:59:59Z", "2000-02-29T12:00:00Z", "2100-02-29T12:00:00Z",
        "x026-11-22T07:10:00Z", "", "2026-11-22T07:10:00.5Z",
    ])
    func textsOfOtherFormsReadAsTheFormatStyleReadsThem(text: String) {
        #expect(StoreTimestamp.date(text) == (try? Date(text, strategy: .iso8601)))
    }
}
