import Foundation
import GeoqAPI
import GeoqCore
import GeoqLayers
import GeoqPROJ
import GeoqServer
import GeoqSnapshot
import GeoqStore
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/fixes` over the real Pamplona sectors and tariffs: a car parks in Sector 2 for ten
/// minutes and drives off; the events come back in the answer, are pulled from `/v1/events`, and
/// sit in a hook's outbox.
@Suite struct FixesRouteTests {
    static let data = ServiceData.load(from: TestLibrary.catalogOnly())
    /// The service's clock in these tests: an hour after the traces begin.
    static let clock = Date(timeIntervalSince1970: 1_795_420_800 + 3_600)

    /// 1 Hz fixes as NDJSON: parked at 42.81, -1.64 (Sector 2, 54 m from its edge) with a few
    /// metres of seeded jitter for `parkedSeconds`, then driving at 10 m/s straight out of the
    /// sector through its nearest edge for a minute.
    static func trace(parkedSeconds: Int = 600) throws -> (ndjson: String, exitPoint: Point) {
        let car = Point(latitude: 42.81, longitude: -1.64)
        let lookup = try #require(data.sectorLookups["pamplona-sectors"])
        let edge = try #require(lookup.answer(for: car).inside.first?.nearestEdgePoint)
        let azimuth = Geodesic.wgs84.inverse(from: car, to: Point(latitude: edge.latitude, longitude: edge.longitude))
            .initialAzimuth
        var lines: [String] = []
        let start = Date(timeIntervalSince1970: 1_795_420_800)  // 2026-11-23 08:00 UTC, a Monday
        let formatter = ISO8601DateFormatter()
        var seed: UInt64 = 0x5EC7_0002
        func jitter() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 6  // ±3 m
        }
        for second in 0..<parkedSeconds {
            let p = Geodesic.wgs84.direct(from: car, azimuth: Double(second % 360), distance: abs(jitter()))
            lines.append(fix(formatter.string(from: start.addingTimeInterval(Double(second))), p, accuracy: 5))
        }
        var last = car
        for second in 0..<60 {
            last = Geodesic.wgs84.direct(from: car, azimuth: azimuth, distance: Double(second + 1) * 10)
            lines.append(
                fix(formatter.string(from: start.addingTimeInterval(Double(parkedSeconds + second))), last, accuracy: 5)
            )
        }
        return (lines.joined(separator: "\n"), last)
    }

    static func fix(_ time: String, _ p: Point, accuracy: Double) -> String {
        #"{"device":"car-1","time":"\#(time)","lat":\#(p.latitude),"lon":\#(p.longitude),"accuracy":\#(accuracy)}"#
    }

    static func object(_ body: ByteBuffer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
    }

    @Test func aCarParksAndDrivesOff() async throws {
        let fixture = TrackingFixture(now: { Self.clock })
        let store = fixture.store
        let key = try fixture.key("acme", [.track, .events])
        let hook = try store.addHook(tenant: "acme", url: "http://127.0.0.1:9/hook", events: ["parked", "left"])
        let app = Application(router: Routes.router(state: ServiceState(Self.data), tracking: fixture.tracking))
        let headers = TrackingFixture.bearer(key, TrackingFixture.ndjson)
        let (ndjson, _) = try Self.trace()
        try await app.test(.router) { client in
            let answer = try await client.execute(
                uri: "/v1/fixes", method: .post, headers: headers, body: ByteBuffer(string: ndjson)
            ) {
                response in
                #expect(response.status == .ok)
                return try Self.object(response.body)
            }
            let events = try #require(answer["events"] as? [[String: Any]])
            // The exit (a run of fixes past the margin) before the departure is judged (20 s of
            // vehicle speed out of the car's radius): the car parked near the edge.
            #expect(events.map { $0["event"] as? String } == ["enter", "dwell", "parked", "exit", "left"])
            #expect(Set(events.compactMap { $0["visit"] as? String }).count == 1)
            #expect(events.map { $0["featureID"] as? String } == Array(repeating: "2", count: 5))
            #expect(events.map { $0["sequence"] as? Int } == [1, 2, 3, 4, 5])
            let park = try #require(events[2]["park"] as? [String: Any])
            #expect((park["sector"] as? [String: Any])?["id"] as? String == "2")
            #expect(answer["accepted"] as? Int == 660 && answer["ignored"] as? Int == 0)

            // The same fixes again: every one older or repeated, nothing new.
            let again = try await client.execute(
                uri: "/v1/fixes", method: .post, headers: headers, body: ByteBuffer(string: ndjson)
            ) {
                try Self.object($0.body)
            }
            #expect(again["ignored"] as? Int == 660 && (again["events"] as? [Any])?.isEmpty == true)

            // Pulled from the store, in order; the hook's outbox holds the two it asked for.
            let pulled = try await client.execute(uri: "/v1/events?since=0", method: .get, headers: headers) {
                try Self.object($0.body)
            }
            let kinds = (pulled["events"] as? [[String: Any]])?.map { $0["kind"] as? String }
            #expect(kinds == ["enter", "dwell", "parked", "exit", "left"])
            #expect(try store.outbox(hook: hook.id).count == 2)
        }
    }

    /// Every posted fix is counted in `/metrics`: taken, or set aside and why.
    @Test func fixesAreCountedByWhatBecameOfThem() async throws {
        let fixture = TrackingFixture(now: { Self.clock })
        let headers = TrackingFixture.bearer(try fixture.key("acme", [.track]), TrackingFixture.ndjson)
        let app = Application(router: Routes.router(state: ServiceState(Self.data), tracking: fixture.tracking))
        let formatter = ISO8601DateFormatter()
        func line(_ device: String, _ seconds: Double) -> String {
            let time = formatter.string(from: Self.clock.addingTimeInterval(seconds))
            return #"{"device":"\#(device)","time":"\#(time)","lat":42.81,"lon":-1.64}"#
        }
        let body = [
            line("a", -30), line("a", -20), line("a", -25), line("a", -20), line("a", -10),
            line("a", 3_600), line("a", -40 * 86_400), line(String(repeating: "x", count: 200), -5),
            #"{"device":"a","time":"2026-11-23T09:00:00Z","lat":"north","lon":-1.64}"#,
        ].joined(separator: "\n")
        try await app.test(.router) { client in
            let answer = try await client.execute(
                uri: "/v1/fixes", method: .post, headers: headers, body: ByteBuffer(string: body)
            ) { try Self.object($0.body) }
            #expect(answer["accepted"] as? Int == 3 && answer["ignored"] as? Int == 2)
            #expect((answer["errors"] as? [String])?.count == 4)
        }
        let text = fixture.tracking.metricsExposition()
        for expected in [
            "geoq_fixes_accepted_total 3", #"geoq_fixes_ignored_total{reason="older"} 1"#,
            #"geoq_fixes_ignored_total{reason="duplicate"} 1"#, #"geoq_fixes_ignored_total{reason="future"} 1"#,
            #"geoq_fixes_ignored_total{reason="past_retention"} 1"#,
            #"geoq_fixes_ignored_total{reason="device_too_long"} 1"#,
            #"geoq_fixes_ignored_total{reason="malformed"} 1"#,
        ] {
            #expect(text.contains(expected + "\n"), "\(expected)")
        }
    }

    @Test func badFixesAreNamedAndTheRestGoOn() async throws {
        let fixture = TrackingFixture(now: { Self.clock })
        let headers = TrackingFixture.bearer(try fixture.key("acme", [.track]), TrackingFixture.json)
        let app = Application(router: Routes.router(state: ServiceState(Self.data), tracking: fixture.tracking))
        let body = """
            [{"device":"a","time":"2026-11-23T09:00:00+01:00","lat":42.81,"lon":-1.64},
             {"device":"a","time":"2026-11-23T09:00:01+01:00","lat":95,"lon":-1.64},
             {"time":"2026-11-23T09:00:02+01:00","lat":42.81,"lon":-1.64}]
            """
        try await app.test(.router) { client in
            let answer = try await client.execute(
                uri: "/v1/fixes", method: .post, headers: headers, body: ByteBuffer(string: body)
            ) {
                response in
                #expect(response.status == .ok)
                return try Self.object(response.body)
            }
            #expect(answer["accepted"] as? Int == 1)
            let errors = try #require(answer["errors"] as? [String])
            #expect(errors.count == 2)
            #expect(errors[0].contains("1") && errors[0].contains("lat"), "\(errors)")
            #expect(errors[1].contains("2") && errors[1].contains("device"), "\(errors)")
            try await client.execute(
                uri: "/v1/fixes", method: .post, headers: headers,
                body: ByteBuffer(string: #"[{"device":"a","lat":1}]"#)
            ) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(
                uri: "/v1/fixes?layer=nowhere", method: .post, headers: headers, body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
