import Foundation

/// The overlay as `geoq ar --format json` and `GET /v1/ar` give it: the camera, how many labels
/// are visible, and the labels nearest first, values rounded to what a screen can use
/// (distances to 0.1 m, angles to 0.01°, pixels to 0.1).
public struct ARAnswer: Encodable, Sendable {
    /// The camera the labels were computed for.
    public struct Camera: Encodable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double
        /// True heading, degrees clockwise from north (smoothed, in a stream).
        public var heading: Double
        public var pitch: Double
        public var roll: Double
        public var hfov: Double
        public var vfov: Double
        public var width: Double
        public var height: Double
        /// In a stream, the heading as read, before smoothing.
        public var readHeading: Double?
    }

    public var camera: Camera
    /// How many labels are visible (whether or not the others are listed).
    public var visibleCount: Int
    /// Nearest first: draw them in reverse order so that the nearest is in front. Rounded;
    /// `x` and `y` are null for a target behind the camera.
    public var labels: [ARLabel]
    /// In a stream, the line of input this overlay answers.
    public var line: Int?

    /// The answer for `labels` (as ``AROverlay/compute(camera:targets:geodesic:options:)`` gives
    /// them) seen by `camera`; only the visible ones when `visibleOnly`.
    public init(camera: ARCamera, labels: [ARLabel], visibleOnly: Bool = false) {
        self.camera = Camera(
            latitude: camera.position.latitude, longitude: camera.position.longitude, altitude: camera.altitude,
            heading: Self.rounded(camera.heading, 2), pitch: camera.pitch, roll: camera.roll,
            hfov: camera.horizontalFieldOfView, vfov: Self.rounded(camera.verticalFieldOfView, 3),
            width: camera.width, height: camera.height)
        visibleCount = labels.filter(\.visible).count
        self.labels = (visibleOnly ? labels.filter(\.visible) : labels).map { $0.rounded() }
    }

    /// `value` rounded to `places` decimals.
    public static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10.0, Double(places))
        return (value * scale).rounded() / scale
    }
}

extension ARLabel {
    /// The label with its values rounded as ``ARAnswer`` gives them.
    func rounded() -> ARLabel {
        var label = self
        label.distance = ARAnswer.rounded(distance, 1)
        label.bearing = ARAnswer.rounded(bearing, 2)
        label.relativeBearing = ARAnswer.rounded(relativeBearing, 2)
        label.elevation = ARAnswer.rounded(elevation, 3)
        label.x = x.map { ARAnswer.rounded($0, 1) }
        label.y = y.map { ARAnswer.rounded($0, 1) }
        label.scale = ARAnswer.rounded(scale, 3)
        label.width = ARAnswer.rounded(width, 1)
        label.height = ARAnswer.rounded(height, 1)
        return label
    }
}
