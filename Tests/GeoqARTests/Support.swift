import Foundation
import GeoqAR
import GeoqCore

/// A flat world for geometry-only tests: a point's x is metres east and y metres north of an
/// arbitrary origin; distance is Euclidean and the bearing atan2(Δeast, Δnorth) in [0, 360).
struct PlanarGeodesic: GeodesicSolving {
    func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double) {
        let (de, dn) = (b.x - a.x, b.y - a.y)
        return (hypot(de, dn), ARAngles.normalized(atan2(de, dn) * 180 / .pi))
    }
}

/// A 1000 × 2000 px screen with 90° fields of view: f = 500 / tan 45° = 500 px and
/// f_y = 1000 / tan 45° = 1000 px, centre (500, 1000). The device stands at the planar origin.
func testCamera(heading: Double = 0, pitch: Double = 0, roll: Double = 0, altitude: Double = 0) -> ARCamera {
    ARCamera(
        position: Point(x: 0, y: 0), altitude: altitude, heading: heading, pitch: pitch, roll: roll,
        horizontalFieldOfView: 90, verticalFieldOfView: 90, width: 1000, height: 2000)
}

/// A target `distance` metres away at `bearing` degrees on the planar world.
func planarTarget(_ id: String, bearing: Double, distance: Double, altitude: Double? = nil) -> ARTarget {
    let b = bearing * .pi / 180
    return ARTarget(
        id: id, name: id, position: Point(x: distance * sin(b), y: distance * cos(b)), altitude: altitude)
}

/// The one label computed for `target` (stacking plays no part with one target).
func label(_ target: ARTarget, camera: ARCamera, options: AROptions = AROptions()) -> ARLabel {
    AROverlay.compute(camera: camera, targets: [target], geodesic: PlanarGeodesic(), options: options)[0]
}

func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}
