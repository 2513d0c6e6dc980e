import Foundation
import GeoqTestSupport
import Testing

@testable import GeoqSchedule

/// Instants read byte by byte agree with Foundation's ISO 8601 formatter (the oracle), and what
/// is not RFC 3339 is refused.
@Suite struct InternetTimeTests {
    @Test func agreesWithFoundationsFormatter() {
        var random = SeededRandom(seed: 0xF1C5)
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for _ in 0..<5_000 {
            let seconds = Double(Int.random(in: 0...4_102_444_800, using: &random))  // 1970–2100
            let millis = Bool.random(using: &random) ? Double(Int.random(in: 0...999, using: &random)) / 1000 : 0
            let date = Date(timeIntervalSince1970: seconds + millis)
            let zone = TimeZone(secondsFromGMT: 60 * 15 * Int.random(in: -48...56, using: &random))!
            let formatter = millis == 0 ? whole : fractional
            formatter.timeZone = zone
            let text = formatter.string(from: date)
            let parsed = InternetTime.parse(text)
            #expect(parsed.map { abs($0.timeIntervalSince(date)) < 0.0005 } == true, "\(text)")
            #expect(
                parsed == formatter.date(from: text)
                    || abs(parsed!.timeIntervalSince(formatter.date(from: text)!)) < 1e-6, "\(text)")
        }
    }

    @Test(arguments: [
        "2026-11-23", "2026-11-23T09:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-23T24:00:00Z",
        "2026-11-23T09:00:00+0100", "2026-11-23T09:00:00.Z", "2026-11-23T09:00:00Z ", "yesterday",
    ])
    func refusesWhatIsNotRFC3339(text: String) {
        #expect(InternetTime.parse(text) == nil)
    }

    @Test func leapDayAndOffsets() {
        #expect(InternetTime.parse("2024-02-29T12:00:00Z")?.timeIntervalSince1970 == 1_709_208_000)
        #expect(InternetTime.parse("2026-11-23T09:00:00+01:00")?.timeIntervalSince1970 == 1_795_420_800)
        #expect(InternetTime.parse("2026-11-23T08:00:00.250Z")?.timeIntervalSince1970 == 1_795_420_800.25)
    }
}
