import Foundation
import GeoqAPI
import GeoqCore
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import GeoqTracking
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GeoqServer

/// Fences around the points of a point layer: "within 100 m of a falla". Which circles hold a
/// point is checked against a brute force over every falla with PROJ's geodesic (the oracle);
/// a walk past a falla enters and exits it by the same rules as a polygon; the service takes
/// `?layer=fallas&radius=100` and names what is wrong with a radius.
@Suite struct PointFenceTests {
    static var data: ServiceData { FixesRouteTests.data }

    static func fallas() throws -> PointLayer { try #require(data.pointLayers["fallas"]) }

    /// The fallas whose circle holds `p`, by PROJ's geodesic over every falla; nil when `p` is
    /// within a millimetre of some circle's edge (where two solvers may round either way).
    static func bruteForce(_ p: Point, centers: [Point], radii: [Double]) -> [Int]? {
        var inside: [Int] = []
        for (i, center) in centers.enumerated() where center.x.isFinite {
            let d = Geodesic.wgs84.inverse(from: p, to: center).distance
            if abs(d - radii[i]) < 0.001 { return nil }
            if d <= radii[i] { inside.append(i) }
        }
        return inside
    }

    @Test func circlesAreTheGeodesicBruteForce() throws {
        let layer = try Self.fallas()
        #expect(layer.features.count > 300)
        var rng = SeededRandom(seed: 2026)
        // One radius for all, then a radius of its own per falla (20 to 300 m).
        let sameRadius = [Double](repeating: 100, count: layer.positions.count)
        let ownRadii = layer.positions.map { _ in 20 + Double.random(in: 0..<1, using: &rng) * 280 }
        var compared = 0
        var covered = 0
        for radii in [sameRadius, ownRadii] {
            let circles = CircleFences(centers: layer.positions, radii: radii, index: layer.index)
            for k in 0..<3_000 {
                // Half near a falla (where circles are), half anywhere in the city's box.
                let p: Point
                if k % 2 == 0 {
                    let center = layer.positions[
                        Int(Double.random(in: 0..<1, using: &rng) * Double(layer.positions.count))]
                    p = Point(
                        x: center.x + (Double.random(in: 0..<1, using: &rng) - 0.5) * 0.008,
                        y: center.y + (Double.random(in: 0..<1, using: &rng) - 0.5) * 0.006)
                } else {
                    p = Point(
                        x: -0.42 + Double.random(in: 0..<1, using: &rng) * 0.08,
                        y: 39.42 + Double.random(in: 0..<1, using: &rng) * 0.08)
                }
                guard let expected = Self.bruteForce(p, centers: layer.positions, radii: radii) else { continue }
                #expect(circles.covering(p) == expected, "\(p)")
                compared += 1
                if !expected.isEmpty { covered += 1 }
            }
        }
        #expect(compared > 5_900)
        #expect(covered > 1_000)
    }

    @Test func aWalkPastAFallaEntersAndExitsIt() throws {
        let layer = try Self.fallas()
        // A falla with no other within 500 m: the walk meets its circle alone.
        let lonely = try #require(
            layer.positions.indices.first { i in
                layer.positions.indices.allSatisfy { j in
                    j == i || Geodesic.wgs84.inverse(from: layer.positions[i], to: layer.positions[j]).distance > 500
                }
            })
        let center = layer.positions[lonely]
        let fencer = Geofencer(points: layer, radius: 100)
        let start = Date(timeIntervalSince1970: 1_795_420_800)
        var track: DeviceTrack?
        var events: [TrackingEvent] = []
        // West to east through the centre, 1.4 m/s, a fix a second, 5 m accuracy.
        for second in 0..<430 {
            let p = Geodesic.wgs84.direct(from: center, azimuth: 90, distance: -300 + Double(second) * 1.4)
            let fix = Fix(
                device: "walker", time: start + Double(second), latitude: p.latitude, longitude: p.longitude,
                accuracy: 5)
            events += fencer.advance(&track, with: fix).events
        }
        // Two minutes in the circle: a dwell once a minute has passed since the enter.
        #expect(events.map(\.event) == [.enter, .dwell, .exit])
        #expect(events.allSatisfy { $0.featureID == layer.features[lonely].id && $0.layer == "fallas" })
        func metres(_ event: TrackingEvent) -> Double {
            Geodesic.wgs84.inverse(
                from: Point(latitude: event.position.latitude, longitude: event.position.longitude), to: center
            ).distance
        }
        // The enter once the accuracy circle is inside (d ≤ 100 - 5) on a run of fixes spanning
        // 5 s (the sixth such fix, 7 to 8.4 m further); the exit once past the 20 m margin on
        // such a run: by the geodesic from the falla.
        let enter = metres(events[0])
        let exit = metres(events[2])
        #expect(enter <= 95 - 5 * 1.4 + 0.001 && enter > 95 - 6 * 1.4, "\(enter)")
        #expect(exit > 120 + 5 * 1.4 - 0.001 && exit <= 120 + 6 * 1.4 + 0.001, "\(exit)")
    }

    @Test func theServiceTakesARadiusForPointLayersOnly() async throws {
        let fixture = TrackingFixture(now: { FixesRouteTests.clock })
        let key = try fixture.key("acme", [.track])
        let app = Application(router: Routes.router(state: ServiceState(Self.data), tracking: fixture.tracking))
        let headers = TrackingFixture.bearer(key, TrackingFixture.ndjson)
        let center = try Self.fallas().positions[0]
        let body = (0..<10).map { second in
            let time = ISO8601DateFormatter().string(from: FixesRouteTests.clock - 600 + Double(second))
            return #"{"device":"w","time":"\#(time)","lat":\#(center.y),"lon":\#(center.x),"accuracy":5}"#
        }.joined(separator: "\n")
        try await app.test(.router) { client in
            func post(_ query: String) async throws -> (HTTPResponse.Status, [String: Any]) {
                try await client.execute(
                    uri: "/v1/fixes?\(query)", method: .post, headers: headers, body: ByteBuffer(string: body)
                ) { ($0.status, (try? FixesRouteTests.object($0.body)) ?? [:]) }
            }
            let (status, answer) = try await post("layer=fallas&radius=100")
            #expect(status == .ok)
            let events = try #require(answer["events"] as? [[String: Any]])
            #expect(events.first?["event"] as? String == "enter")
            #expect(events.first?["layer"] as? String == "fallas")
            for (query, parameter) in [
                ("layer=fallas", "radius"), ("layer=pamplona-sectors&radius=100", "radius"),
                ("layer=fallas&radius=0", "radius"), ("layer=fallas&radius=ten", "radius"),
            ] {
                let (refused, problem) = try await post(query)
                #expect(refused == .badRequest, "\(query)")
                #expect(problem["parameter"] as? String == parameter, "\(query): \(problem)")
            }
            let (unknown, problem) = try await post("layer=nowhere&radius=100")
            #expect(unknown == .notFound)
            #expect((problem["detail"] as? String)?.contains("fallas") == true, "\(problem)")
        }
    }
}
