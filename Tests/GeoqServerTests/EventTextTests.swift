import Foundation
import GeoqJSON
import GeoqTracking
import Testing

@testable import GeoqServer

/// Events and a batch's answer are written by hand (JSONText) for speed: the text must be
/// JSONEncoder's, byte for byte (sorted keys, slashes unescaped), for every kind of event a real
/// trace gives: enter, dwell, parked with its park answer and reminders, left, exit, and a
/// synthetic exit with its reason.
@Suite struct EventTextTests {
    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value))
    }

    @Test func everyKindOfEventIsJSONEncodersText() throws {
        let ingest = FixIngest(store: .init(storeFile: URL(fileURLWithPath: "/nonexistent/never-written.gpkg")))
        let fencer = try ingest.geofencer(layer: "pamplona-sectors", data: FixesRouteTests.data)
        let fixes = FixReader.read(Data(try FixesRouteTests.trace().ndjson.utf8)).fixes
        var track: DeviceTrack?
        var events: [TrackingEvent] = []
        // Stopped before the drive off, then silent: the sweep's synthetic exit.
        for fix in fixes.prefix(590) { events += fencer.advance(&track, with: fix).events }
        var silent = try #require(track)
        events += fencer.expire(&silent, at: try #require(fixes.last).time + 3_600)
        for fix in fixes.dropFirst(590) { events += fencer.advance(&track, with: fix).events }
        #expect(Set(events.map(\.event)) == Set(TrackingEvent.Kind.allCases))
        var parked = try #require(events.first { $0.park != nil && $0.reminders != nil })
        // Reminders as a ticket gives them (this trace's parking has none).
        parked.reminders = ["2026-11-23T10:45:00+01:00", "2026-11-23T10:55:00+01:00"]
        events.append(parked)
        #expect(events.contains { $0.reason == "silent" })
        for event in events {
            #expect(JSONText.of(event) == (try Self.encoded(event)), "\(event.event)")
        }
        let outcome = FixIngest.Outcome(
            accepted: fixes.count, ignored: 2, errors: ["line 3: lat is missing", "line 9: \"quoted\" / slashed"],
            events: events)
        #expect(JSONText.of(outcome) == (try Self.encoded(outcome)))
        let empty = FixIngest.Outcome(accepted: 0, ignored: 0, errors: [], events: [])
        #expect(JSONText.of(empty) == (try Self.encoded(empty)))
    }
}
