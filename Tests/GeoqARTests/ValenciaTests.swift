import Foundation
import GeoqAR
import GeoqCore
import GeoqPROJ
import Testing

/// End to end on the WGS84 ellipsoid with Karney's geodesics.
@Suite struct ValenciaTests {
    /// Plaça de l'Ajuntament, Valencia (latitude first as people write it).
    static let cityHall = Point(latitude: 39.4699, longitude: -0.3763)

    @Test func pointsFiveHundredMetresAwayFromTheCityHallSquare() throws {
        let geodesic = Geodesic.wgs84
        let north = geodesic.direct(from: Self.cityHall, azimuth: 0, distance: 500)
        let thirty = geodesic.direct(from: Self.cityHall, azimuth: 30, distance: 500)
        let south = geodesic.direct(from: Self.cityHall, azimuth: 180, distance: 500)
        // 1080 × 1920 portrait, hFOV 90°: f = 540 / tan 45° = 540 px.
        let camera = ARCamera(
            position: Self.cityHall, altitude: 15, heading: 0, horizontalFieldOfView: 90,
            verticalFieldOfView: ARCamera.verticalFieldOfView(horizontal: 90, width: 1080, height: 1920),
            width: 1080, height: 1920)
        try camera.validate()
        let labels = AROverlay.compute(
            camera: camera,
            targets: [
                ARTarget(id: "n", name: "North", position: north, altitude: 15),
                ARTarget(id: "t", name: "Thirty", position: thirty, altitude: 15),
                ARTarget(id: "s", name: "South", position: south, altitude: 15),
            ], geodesic: geodesic, options: AROptions(stackLabels: false))
        let byID = Dictionary(uniqueKeysWithValues: labels.map { ($0.id, $0) })
        let n = try #require(byID["n"])
        // Straight ahead: distance 500 m, bearing 0 (within a nano-degree), x = W/2, y = H/2.
        #expect(close(n.distance, 500, 1e-6))
        #expect(abs(ARAngles.wrapped(n.bearing)) < 1e-9)
        #expect(close(n.x, 540, 1e-6) && close(n.y, 960, 1e-6) && n.visible)
        // Azimuth 30°: x = 540 + 540·tan 30° = 540 + 311.769 = 851.769.
        let t = try #require(byID["t"])
        #expect(close(t.bearing, 30, 1e-9) && close(t.relativeBearing, 30, 1e-9))
        #expect(close(t.x, 540 + 540 * tan(Double.pi / 6), 1e-6) && t.visible)
        // Behind.
        let s = try #require(byID["s"])
        #expect(close(s.relativeBearing, 180, 1e-9) && !s.visible)
        // Scale at 500 m: 1 − 0.6·450/1950 = 0.861538…
        #expect(close(n.scale, 1 - 0.6 * 450 / 1950, 1e-9))
    }
}
