import Foundation
import GeoqCore

/// The augmented-reality overlay (SPEC §2): where each target's label goes on the camera image.
///
/// For every target, with d and β the geodesic distance and initial bearing from the device
/// (from the injected ``GeodesicSolving``) and ψ, θ, φ the camera's heading, pitch and roll:
///
/// 1. Relative bearing Δψ = β − ψ wrapped to (−180, 180].
/// 2. Local east-north-up vector of the target: e = d·sin β, n = d·cos β,
///    u = (h_target − h_device) − drop, where drop = d² / (2R) with earth curvature on, else 0.
///    Elevation angle = atan2(u, d).
/// 3. Into camera space (X right, Y up, Z along the optical axis), by three rotations applied in
///    this order:
///    - yaw (heading ψ, about the up axis): F = e·sin ψ + n·cos ψ (forward, level),
///      R = e·cos ψ − n·sin ψ (right, level);
///    - pitch (θ, about the right axis, positive = camera tilted up):
///      Z = F·cos θ + u·sin θ, Y₁ = −F·sin θ + u·cos θ;
///    - roll (φ, about the optical axis, positive = device turned clockwise):
///      X = R·cos φ − Y₁·sin φ, Y = R·sin φ + Y₁·cos φ.
/// 4. Pinhole projection: x = W/2 + f·X/Z, y = H/2 − f_y·Y/Z with f = (W/2)/tan(hFOV/2),
///    f_y = (H/2)/tan(vFOV/2). With θ = φ = 0 and u = 0 this is x = W/2 + f·tan Δψ, y = H/2.
/// 5. Visible when Z > 0, 0 ≤ x ≤ W, 0 ≤ y ≤ H (edges included) and d ≤ maxDistance.
/// 6. Label scale s = 1 − (1 − minScale)·t, t = clamp((d − near)/(far − near), 0, 1) (linear)
///    or clamp(ln(d/near)/ln(far/near), 0, 1) (logarithmic).
/// 7. Stacking ("stacked, nearest in front"): labels are rectangles centred on (x, y), of size
///    (name.count·charWidth + 2·padding)·s × height·s. Visible labels are placed nearest first;
///    one that overlaps a placed label moves up by its own height until it overlaps none, and
///    `stackLevel` counts the moves. The nearest label always keeps its place.
///
/// The labels come back nearest first (ties in input order): draw them in reverse order so the
/// nearest is in front.
public enum AROverlay {
    public static func compute(
        camera: ARCamera, targets: [ARTarget], geodesic: some GeodesicSolving, options: AROptions = AROptions()
    ) -> [ARLabel] {
        var labels = targets.map { project($0, camera: camera, geodesic: geodesic, options: options) }
        // Stable sort: nearest first, input order among equals.
        labels = labels.enumerated().sorted { a, b in
            a.element.distance != b.element.distance ? a.element.distance < b.element.distance : a.offset < b.offset
        }.map(\.element)
        if options.stackLabels { stack(&labels) }
        return labels
    }

    /// One target's label before stacking.
    static func project(
        _ target: ARTarget, camera: ARCamera, geodesic: some GeodesicSolving, options: AROptions
    ) -> ARLabel {
        let (d, bearing) = geodesic.distanceAndBearing(from: camera.position, to: target.position)
        let relative = ARAngles.wrapped(bearing - camera.heading)
        let drop = options.earthCurvature ? d * d / (2 * options.earthRadius) : 0
        let up = (target.altitude.map { $0 - camera.altitude } ?? 0) - drop
        let elevation = ARAngles.degrees(atan2(up, d))
        let camera3 = cameraVector(distance: d, bearing: bearing, up: up, camera: camera)

        var x: Double?
        var y: Double?
        var visible = false
        // In front: Z_cam > 0, with a relative margin so a target exactly abeam (cos 90° ≈ 6e-17)
        // has no image rather than one at x ≈ 10¹⁹.
        let range = (camera3.x * camera3.x + camera3.y * camera3.y + camera3.z * camera3.z).squareRoot()
        let px = camera.width / 2 + camera.focalLengthX * camera3.x / camera3.z
        let py = camera.height / 2 - camera.focalLengthY * camera3.y / camera3.z
        // A screen position beyond Double's range (a field of view or a screen of a few
        // ulps, where the focal length overflows) is no position either.
        if camera3.z > 1e-12 * range && px.isFinite && py.isFinite {
            x = px
            y = py
            // A nanopixel of slack so a target exactly on an edge (tan 45° = 0.999…) counts as inside.
            let eps = 1e-9
            visible =
                px >= -eps && px <= camera.width + eps && py >= -eps && py <= camera.height + eps
                && options.maxDistance.map { d <= $0 } ?? true
        }
        let s = scale(distance: d, options: options)
        let width =
            (options.labelFixedWidth
                ?? (Double(target.name.count) * options.labelCharacterWidth + 2 * options.labelPadding)) * s
        return ARLabel(
            id: target.id, name: target.name, distance: d, bearing: bearing, relativeBearing: relative,
            elevation: elevation, x: x, y: y, visible: visible, scale: s, stackLevel: 0, width: width,
            height: options.labelHeight * s)
    }

    /// The target's east-north-up vector (d, β, u) in camera space: X right, Y up, Z forward.
    /// See the type's documentation for the rotations.
    public static func cameraVector(
        distance d: Double, bearing: Double, up u: Double, camera: ARCamera
    ) -> (x: Double, y: Double, z: Double) {
        let beta = ARAngles.radians(bearing)
        let (e, n) = (d * sin(beta), d * cos(beta))
        let psi = ARAngles.radians(camera.heading)
        let theta = ARAngles.radians(camera.pitch)
        let phi = ARAngles.radians(camera.roll)
        // Yaw: level forward and right axes of the camera.
        let forward = e * sin(psi) + n * cos(psi)
        let right = e * cos(psi) - n * sin(psi)
        // Pitch about the right axis.
        let z = forward * cos(theta) + u * sin(theta)
        let y1 = -forward * sin(theta) + u * cos(theta)
        // Roll about the optical axis (clockwise device turn).
        let x = right * cos(phi) - y1 * sin(phi)
        let y = right * sin(phi) + y1 * cos(phi)
        return (x, y, z)
    }

    /// Label scale for a target `distance` metres away: 1 at or below near, minScale at or
    /// beyond far, linear or logarithmic in between.
    public static func scale(distance d: Double, options: AROptions) -> Double {
        let near = options.nearDistance
        let far = options.farDistance
        guard far > near else { return d <= near ? 1 : options.minScale }
        let t: Double
        switch options.scaleCurve {
        case .linear: t = (d - near) / (far - near)
        case .logarithmic: t = d <= near ? 0 : log(d / near) / log(far / near)
        }
        let clamped = min(max(t, 0), 1)
        return 1 - (1 - options.minScale) * clamped
    }

    /// Moves visible labels up until none overlaps a nearer one; `labels` is nearest first.
    static func stack(_ labels: inout [ARLabel]) {
        var placed: [Rect] = []
        for i in labels.indices where labels[i].visible {
            guard let x = labels[i].x, var y = labels[i].y, labels[i].height > 0 else { continue }
            var rect = Rect(centreX: x, centreY: y, width: labels[i].width, height: labels[i].height)
            var level = 0
            while placed.contains(where: { $0.overlaps(rect) }) {
                level += 1
                y -= labels[i].height
                rect = Rect(centreX: x, centreY: y, width: labels[i].width, height: labels[i].height)
            }
            labels[i].y = y
            labels[i].stackLevel = level
            placed.append(rect)
        }
    }

    /// A label rectangle; touching edges do not overlap (a label moved up by exactly its height
    /// sits on top of the one below).
    struct Rect {
        var minX, maxX, minY, maxY: Double

        init(centreX: Double, centreY: Double, width: Double, height: Double) {
            minX = centreX - width / 2
            maxX = centreX + width / 2
            minY = centreY - height / 2
            maxY = centreY + height / 2
        }

        func overlaps(_ o: Rect) -> Bool {
            let eps = 1e-9
            return minX < o.maxX - eps && o.minX < maxX - eps && minY < o.maxY - eps && o.minY < maxY - eps
        }
    }
}
