import Foundation
import GeoqAR
import GeoqCore
import Testing

/// Screen positions worked out by hand on the test camera (1000 × 2000 px, 90° × 90°, so
/// f = 500 px, f_y = 1000 px, centre (500, 1000)).
@Suite struct ProjectionTests {
    @Test func targetStraightAheadIsAtTheCentre() {
        // Heading 0, target due north 1000 m: Δψ = 0 → x = 500 + 500·tan 0 = 500; y = 1000.
        let l = label(planarTarget("n", bearing: 0, distance: 1000), camera: testCamera())
        #expect(close(l.relativeBearing, 0))
        #expect(close(l.x, 500))
        #expect(close(l.y, 1000))
        #expect(close(l.distance, 1000))
        #expect(l.visible)
    }

    @Test func targetAtHalfTheFieldOfViewIsOnTheScreenEdge() {
        // Heading 0, bearing 45°, hFOV 90°: x = 500 + 500·tan 45° = 500 + 500·1 = 1000 = W.
        let l = label(planarTarget("ne", bearing: 45, distance: 1000), camera: testCamera())
        #expect(close(l.relativeBearing, 45))
        #expect(close(l.x, 1000, 1e-6))
        #expect(l.visible)  // edges count as inside
        // Just past the edge (46°): x = 500 + 500·tan 46° ≈ 1017.8 > W.
        let out = label(planarTarget("ne", bearing: 46, distance: 1000), camera: testCamera())
        #expect(close(out.x, 500 + 500 * tan(46 * Double.pi / 180), 1e-6))
        #expect(!out.visible)
    }

    @Test func targetDueEastIsBesideTheCamera() {
        // Heading 0, bearing 90°: Δψ = 90°, Z_cam = d·cos 90° = 0: no image, not visible.
        let l = label(planarTarget("e", bearing: 90, distance: 1000), camera: testCamera())
        #expect(close(l.relativeBearing, 90))
        #expect(l.x == nil)
        #expect(!l.visible)
    }

    @Test func targetBehindTheUserIsNotVisible() {
        // Heading 0, bearing 180°: Δψ = 180 (wrapped to (−180, 180]), Z_cam = −1000 < 0.
        let l = label(planarTarget("s", bearing: 180, distance: 1000), camera: testCamera())
        #expect(close(l.relativeBearing, 180))
        #expect(l.x == nil && l.y == nil)
        #expect(!l.visible)
    }

    @Test func relativeBearingAcrossNorth() {
        // Heading 350, bearing 10: Δψ = 10 − 350 = −340 → wrapped +20;
        // x = 500 + 500·tan 20° = 500 + 181.985 = 681.985.
        let l = label(planarTarget("t", bearing: 10, distance: 1000), camera: testCamera(heading: 350))
        #expect(close(l.relativeBearing, 20))
        #expect(close(l.x, 681.985_117_133_101_2, 1e-6))
        #expect(l.visible)
        // And the other way: heading 10, bearing 350 → Δψ = −20, x = 500 − 181.985 = 318.015.
        let m = label(planarTarget("t", bearing: 350, distance: 1000), camera: testCamera(heading: 10))
        #expect(close(m.relativeBearing, -20))
        #expect(close(m.x, 318.014_882_866_898_8, 1e-6))
    }

    @Test func levelCameraReducesToTangentOfRelativeBearing() {
        // θ = φ = 0, same altitude: x = W/2 + f·tan Δψ and y = H/2 for every Δψ in front.
        for bearing in stride(from: -40.0, through: 40, by: 5) {
            let l = label(planarTarget("t", bearing: bearing, distance: 700), camera: testCamera())
            #expect(close(l.x, 500 + 500 * tan(bearing * .pi / 180), 1e-6))
            #expect(close(l.y, 1000, 1e-6))
        }
    }

    @Test func pitchingUpMovesATargetAtEyeLevelDown() {
        // Pitch +10°, target 1000 m ahead at the device's altitude (u = 0):
        // Z = 1000·cos 10°, Y = −1000·sin 10° → y = 1000 − 1000·(−tan 10°) = 1176.327 (below centre).
        let up = label(planarTarget("n", bearing: 0, distance: 1000), camera: testCamera(pitch: 10))
        #expect(close(up.y, 1176.326_980_708_465, 1e-6))
        #expect(close(up.x, 500, 1e-9))
        // Pitch −10°: y = 1000 − 1000·tan 10° = 823.673 (above centre).
        let down = label(planarTarget("n", bearing: 0, distance: 1000), camera: testCamera(pitch: -10))
        #expect(close(down.y, 823.673_019_291_535, 1e-6))
    }

    @Test func rollingNinetyDegreesSwapsTheAxes() {
        // Roll +90° (device turned clockwise): camera right = world down, camera up = world right.
        // Target Δψ = +20° at eye level: R = 1000·sin 20°, Y₁ = 0, Z = 1000·cos 20°;
        // X = R·cos 90° − 0 = 0 → x = 500; Y = R·sin 90° = R → y = 1000 − 1000·tan 20° = 636.030.
        let right = label(planarTarget("r", bearing: 20, distance: 1000), camera: testCamera(roll: 90))
        #expect(close(right.x, 500, 1e-6))
        #expect(close(right.y, 636.029_765_733_797_6, 1e-6))
        // Target straight ahead 100 m higher: R = 0, Y₁ = 100, Z = 1000;
        // X = −Y₁ = −100 → x = 500 − 500·0.1 = 450; Y = 0 → y = 1000.
        let above = label(
            planarTarget("a", bearing: 0, distance: 1000, altitude: 100), camera: testCamera(roll: 90))
        #expect(close(above.x, 450, 1e-6))
        #expect(close(above.y, 1000, 1e-6))
    }

    @Test func elevationAngleOfAHigherTarget() {
        // 100 m higher, 1000 m away: atan(100/1000) = 5.710593°; on screen y = 1000 − 1000·0.1 = 900.
        let flat = label(planarTarget("h", bearing: 0, distance: 1000, altitude: 100), camera: testCamera())
        #expect(close(flat.elevation, 5.710_593_137_499_643, 1e-9))
        #expect(close(flat.y, 900, 1e-6))
        // With curvature: drop = 1000² / (2·6 371 008.8) = 0.078481 m;
        // atan((100 − 0.078481) / 1000) = 5.706141°.
        let curved = label(
            planarTarget("h", bearing: 0, distance: 1000, altitude: 100), camera: testCamera(),
            options: AROptions(earthCurvature: true))
        #expect(close(curved.elevation, 5.706_141_021_905_582, 1e-9))
        // Device at 30 m, target at 130 m: the same 100 m difference.
        let raised = label(
            planarTarget("h", bearing: 0, distance: 1000, altitude: 130), camera: testCamera(altitude: 30))
        #expect(close(raised.elevation, 5.710_593_137_499_643, 1e-9))
        // No altitude given: at the device's altitude, elevation 0.
        #expect(close(label(planarTarget("h", bearing: 0, distance: 1000), camera: testCamera()).elevation, 0))
    }

    @Test func maximumDistanceHidesFartherTargets() {
        let options = AROptions(maxDistance: 2000)
        #expect(label(planarTarget("near", bearing: 0, distance: 2000), camera: testCamera(), options: options).visible)
        #expect(!label(planarTarget("far", bearing: 0, distance: 3000), camera: testCamera(), options: options).visible)
    }

    @Test func labelsComeBackNearestFirst() {
        let targets = [
            planarTarget("c", bearing: 0, distance: 300), planarTarget("a", bearing: 180, distance: 100),
            planarTarget("b", bearing: 10, distance: 200),
        ]
        let labels = AROverlay.compute(camera: testCamera(), targets: targets, geodesic: PlanarGeodesic())
        #expect(labels.map(\.id) == ["a", "b", "c"])
    }

    @Test func verticalFieldOfViewForSquarePixels() {
        // 2·atan(tan 45°·2000/1000) = 2·atan 2 = 126.87°; then f_y = 1000 / 2 = 500 = f.
        let v = ARCamera.verticalFieldOfView(horizontal: 90, width: 1000, height: 2000)
        #expect(close(v, 2 * atan(2.0) * 180 / .pi, 1e-9))
        var camera = testCamera()
        camera.verticalFieldOfView = v
        #expect(close(camera.focalLengthY, camera.focalLengthX, 1e-9))
    }

    @Test func invalidCamerasAreRefused() {
        var camera = testCamera()
        camera.horizontalFieldOfView = 180
        #expect(throws: ARError.fieldOfViewOutOfRange(name: "horizontal field of view", degrees: 180)) {
            try camera.validate()
        }
        camera = testCamera()
        camera.width = 0
        #expect(throws: ARError.screenSizeNotPositive(name: "width", pixels: 0)) { try camera.validate() }
        camera = testCamera()
        camera.heading = .nan
        #expect(throws: ARError.self) { try camera.validate() }
        #expect(throws: ARError.self) { try AROptions(nearDistance: 100, farDistance: 50).validate() }
        #expect(throws: Never.self) { try testCamera().validate() }
    }
}
