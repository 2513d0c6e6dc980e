import Foundation
import GeoqAR
import GeoqCore
import GeoqTestSupport
import Testing

/// The yaw–pitch–roll rotation: worked cases where the order matters, and properties on
/// seeded random cameras.
@Suite struct RotationTests {
    @Test func headingEastPitchedUp() {
        // Heading 90 (looking east), pitch +10: a target due east at eye level behaves like a
        // target due north with heading 0: F = 1000, R = 0 → Z = 1000·cos 10°, Y = −1000·sin 10°,
        // y = 1000 + 1000·tan 10° = 1176.327; x = 500.
        let l = label(planarTarget("e", bearing: 90, distance: 1000), camera: testCamera(heading: 90, pitch: 10))
        #expect(close(l.x, 500, 1e-6))
        #expect(close(l.y, 1176.326_980_708_465, 1e-6))
        // A target due south is then to the right: F = 0, R = 1000 → Z = 0: no image.
        let south = label(planarTarget("s", bearing: 180, distance: 1000), camera: testCamera(heading: 90))
        #expect(close(south.relativeBearing, 90) && south.x == nil)
    }

    @Test func pitchIsAppliedBeforeRoll() {
        // Pitch +10 then roll +90 (device turned clockwise): the level target straight ahead is
        // at Y₁ = −1000·sin 10° = −173.648 (below the optical axis), R = 0;
        // X = R·cos φ − Y₁·sin φ = 0 − (−173.648)·1 = +173.648,
        // Z = 1000·cos 10° = 984.808 → x = 500 + 500·173.648/984.808 = 500 + 500·tan 10° = 588.163;
        // Y = R·sin φ + Y₁·cos φ = 0 → y = 1000.
        // (Camera right points to world down when turned clockwise, so a point below the axis
        // is on the right of the image.)
        let l = label(planarTarget("n", bearing: 0, distance: 1000), camera: testCamera(pitch: 10, roll: 90))
        #expect(close(l.x, 500 + 500 * tan(10 * Double.pi / 180), 1e-6))
        #expect(close(l.y, 1000, 1e-6))
    }

    @Test func rotationKeepsLengthsAndTheOpticalAxis() {
        var random = SeededRandom(seed: 2026)
        for _ in 0..<500 {
            let camera = testCamera(
                heading: random.uniform(0...360), pitch: random.uniform(-80...80), roll: random.uniform(-180...180))
            let d = random.uniform(1...5000)
            let bearing = random.uniform(0...360)
            let up = random.uniform(-500...500)
            let v = AROverlay.cameraVector(distance: d, bearing: bearing, up: up, camera: camera)
            // A rotation: |v_cam| = |v_enu| = √(d² + u²).
            #expect(abs((v.x * v.x + v.y * v.y + v.z * v.z).squareRoot() - (d * d + up * up).squareRoot()) < 1e-6)
            // The optical axis (bearing = heading, elevation = pitch) projects to the centre.
            let pitch = camera.pitch * Double.pi / 180
            let axis = AROverlay.cameraVector(
                distance: 1000 * cos(pitch), bearing: camera.heading, up: 1000 * sin(pitch), camera: camera)
            #expect(abs(axis.x) < 1e-6 && abs(axis.y) < 1e-6 && close(axis.z, 1000, 1e-6))
        }
    }

    @Test func stackedYIsProjectedYMinusLevelsTimesHeight() {
        // Labels of different scales straight ahead: each moved label's projected y (1000) equals
        // y + stackLevel·height, and no two visible labels overlap afterwards.
        var random = SeededRandom(seed: 7)
        let targets = (0..<25).map { i in
            planarTarget("t\(i)", bearing: random.uniform(-3...3), distance: random.uniform(20...3000))
        }
        let labels = AROverlay.compute(camera: testCamera(), targets: targets, geodesic: PlanarGeodesic())
        for l in labels where l.visible {
            #expect(close(l.y! + Double(l.stackLevel) * l.height, 1000, 1e-6))
        }
        let visible = labels.filter(\.visible)
        #expect(visible.contains { $0.stackLevel > 0 })  // the case is not vacuous
        for i in visible.indices {
            for j in visible.indices where j > i {
                let (a, b) = (visible[i], visible[j])
                let apartX = abs(a.x! - b.x!) >= (a.width + b.width) / 2 - 1e-6
                let apartY = abs(a.y! - b.y!) >= (a.height + b.height) / 2 - 1e-6
                #expect(apartX || apartY, "\(a.id) and \(b.id) overlap")
            }
        }
    }
}
