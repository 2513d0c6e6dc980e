import Foundation
import GeoqAPI
import GeoqAR
import GeoqCore
import GeoqPROJ
import Testing

/// `/v1/ar` over the real Valencia fallas. The projection itself is checked against worked
/// cases in GeoqARTests; here, cases worked out by hand from PROJ's bearing to one falla (a
/// camera pointed straight at it puts it at the screen's centre; turned half a field of view
/// away, at the edge), the options, and the errors.
@Suite struct AREndpointTests {
    static var data: ServiceData { SectorEndpointTests.data }
    static let cityHall = [("lat", "39.4699"), ("lon", "-0.3763")]
    static let device = Point(latitude: 39.4699, longitude: -0.3763)

    func ask(_ pairs: [(String, String)]) throws(Problem) -> ARAnswer {
        try AREndpoint.answer(QueryParameters(pairs.map { ($0.0, $0.1) }), data: Self.data)
    }

    /// The falla nearest to the city hall and PROJ's (Karney's) distance and bearing to it.
    static func nearestFalla() throws -> (id: String, distance: Double, bearing: Double) {
        let layer = try #require(data.pointLayers["fallas"])
        let lines = layer.positions.map { Geodesic.wgs84.inverse(from: device, to: $0) }
        let nearest = try #require(lines.indices.min { lines[$0].distance < lines[$1].distance })
        return (layer.features[nearest].id, lines[nearest].distance, lines[nearest].initialAzimuth)
    }

    static func degrees(_ value: Double) -> String { String(format: "%.9f", value) }

    @Test func pointedAtAFallaItIsAtTheCentreOfTheScreen() throws {
        let falla = try Self.nearestFalla()
        let answer = try ask(Self.cityHall + [("heading", Self.degrees(falla.bearing))])
        let label = try #require(answer.labels.first)
        #expect(label.id == falla.id)
        #expect(abs(label.distance - falla.distance) <= 0.05)
        #expect(abs(label.relativeBearing) <= 0.005)
        // Flat camera, target at the device's altitude: x = W/2, y = H/2 on the default 1080×1920.
        #expect(label.x == 540 && label.y == 960 && label.visible)
        #expect(answer.labels.count == Self.data.pointLayers["fallas"]?.features.count)
        #expect(answer.visibleCount == answer.labels.filter(\.visible).count)
        // The default vertical field of view follows the aspect: 2·atan(tan 30° · 1920/1080).
        #expect(abs(answer.camera.vfov - 2 * atan(tan(Double.pi / 6) * 1920 / 1080) * 180 / .pi) < 0.001)
    }

    /// Turned half the field of view (30°) to the left of the falla, the falla is at the right
    /// edge: x = W/2 + f·tan 30° with f = (W/2)/tan 30°, so x = W.
    @Test func halfAFieldOfViewAwayItIsAtTheEdge() throws {
        let falla = try Self.nearestFalla()
        let answer = try ask(Self.cityHall + [("heading", Self.degrees(falla.bearing - 30)), ("width", "800")])
        let label = try #require(answer.labels.first { $0.id == falla.id })
        #expect(abs(label.relativeBearing - 30) <= 0.005)
        let x = try #require(label.x)
        #expect(abs(x - 800) <= 0.1)
    }

    /// A magnetic heading is turned into a true one: true = magnetic + declination.
    @Test func magneticHeadingsAddTheDeclination() throws {
        let falla = try Self.nearestFalla()
        let answer = try ask(
            Self.cityHall + [
                ("heading", Self.degrees(falla.bearing - 2.5)), ("heading-ref", "magnetic"), ("declination", "2.5"),
            ])
        #expect(abs(ARAngles.wrapped(answer.camera.heading - falla.bearing)) <= 0.005)
        #expect(answer.labels.first { $0.id == falla.id }?.x == 540)
    }

    @Test func maxDistanceAndVisibleOnly() throws {
        let falla = try Self.nearestFalla()
        let all = try ask(Self.cityHall + [("heading", Self.degrees(falla.bearing)), ("max-distance", "400")])
        #expect(all.labels.filter(\.visible).allSatisfy { $0.distance <= 400 })
        #expect(all.labels.filter { $0.distance > 400 }.allSatisfy { !$0.visible })
        let visible = try ask(
            Self.cityHall + [
                ("heading", Self.degrees(falla.bearing)), ("max-distance", "400"), ("visible-only", "true"),
            ])
        #expect(visible.labels.count == all.visibleCount && visible.visibleCount == all.visibleCount)
        #expect(visible.labels.allSatisfy { $0.visible })
        // Behind the camera: no screen position.
        let behind = try ask(Self.cityHall + [("heading", Self.degrees(falla.bearing + 180))])
        let label = try #require(behind.labels.first { $0.id == falla.id })
        #expect(label.x == nil && label.y == nil && !label.visible)
    }

    /// Pitched up by 10°, a target level with the camera drops below the centre:
    /// y = H/2 + f_y·tan 10°, f_y = (H/2)/tan(vFOV/2).
    @Test func pitchMovesTheLabelDown() throws {
        let falla = try Self.nearestFalla()
        let answer = try ask(
            Self.cityHall + [("heading", Self.degrees(falla.bearing)), ("pitch", "10"), ("vfov", "90")])
        let label = try #require(answer.labels.first { $0.id == falla.id })
        let y = try #require(label.y)
        #expect(abs(y - (960 + 960 * tan(10 * Double.pi / 180))) <= 0.1)
    }

    @Test(arguments: [
        (cityHall, "heading", "/problems/missing-parameter"),
        (cityHall + [("heading", "north")], "heading", "/problems/invalid-parameter"),
        (cityHall + [("heading", "400")], "heading", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("hfov", "0")], "hfov", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("hfov", "180")], "hfov", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("vfov", "-3")], "vfov", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("width", "0")], "width", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("pitch", "95")], "pitch", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("declination", "east")], "declination", "/problems/invalid-parameter"),
        (cityHall + [("heading", "10"), ("heading-ref", "grid")], "heading-ref", "/problems/invalid-parameter"),
        (cityHall + [("heading", "10"), ("curvature", "yes")], "curvature", "/problems/invalid-parameter"),
        (cityHall + [("heading", "10"), ("max-distance", "-1")], "max-distance", "/problems/out-of-range"),
        (cityHall + [("heading", "10"), ("layer", "pamplona-sectors")], "layer", "/problems/unknown-layer"),
        (cityHall + [("heading", "10"), ("zoom", "2")], "zoom", "/problems/invalid-parameter"),
        ([("lon", "-0.3763"), ("heading", "10")], "lat", "/problems/missing-parameter"),
    ])
    func badRequests(pairs: [(String, String)], parameter: String, type: String) throws {
        do {
            _ = try ask(pairs)
            Issue.record("\(pairs) was answered")
        } catch {
            #expect(error.parameter == parameter && error.type == type, "\(error)")
            #expect(error.status == (type == "/problems/unknown-layer" ? 404 : 400))
        }
    }
}

/// Found by schemathesis: a field of view or a screen a few ulps wide made the focal length
/// overflow, and the answer (with infinite screen positions) could not be written as JSON.
@Suite struct ARDegenerateCameraTests {
    @Test(arguments: [
        [("hfov", "5e-324")], [("vfov", "5e-324")], [("height", "5e-324"), ("vfov", "5e-324")],
        [("width", "1e-300"), ("hfov", "1e-300")],
    ])
    func aDegenerateCameraGivesAnEncodableAnswer(pairs: [(String, String)]) throws {
        let query = QueryParameters(
            (AREndpointTests.cityHall + [("heading", "0"), ("pitch", "-90")] + pairs).map { ($0.0, $0.1) })
        let answer = try AREndpoint.answer(query, data: AREndpointTests.data)
        #expect(answer.labels.allSatisfy { ($0.x?.isFinite ?? true) && ($0.y?.isFinite ?? true) })
        let encoded = try JSONEncoder().encode(answer)
        #expect(!encoded.isEmpty)
    }
}
