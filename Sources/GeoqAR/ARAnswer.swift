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

    /// One target's label; `x` and `y` are null for a target behind the camera.
    public struct Label: Encodable, Sendable {
        public var id: String
        public var name: String
        public var distance: Double
        public var bearing: Double
        public var relativeBearing: Double
        public var elevation: Double
        public var x: Double?
        public var y: Double?
        public var visible: Bool
        public var scale: Double
        public var stackLevel: Int
        public var width: Double
        public var height: Double

        init(_ label: ARLabel) {
            id = label.id
            name = label.name
            distance = ARAnswer.rounded(label.distance, 1)
            bearing = ARAnswer.rounded(label.bearing, 2)
            relativeBearing = ARAnswer.rounded(label.relativeBearing, 2)
            elevation = ARAnswer.rounded(label.elevation, 3)
            x = label.x.map { ARAnswer.rounded($0, 1) }
            y = label.y.map { ARAnswer.rounded($0, 1) }
            visible = label.visible
            scale = ARAnswer.rounded(label.scale, 3)
            stackLevel = label.stackLevel
            width = ARAnswer.rounded(label.width, 1)
            height = ARAnswer.rounded(label.height, 1)
        }

        // x and y are written as null, not left out, so that every label has the same keys.
        enum CodingKeys: String, CodingKey {
            case id, name, distance, bearing, relativeBearing, elevation, x, y, visible, scale, stackLevel, width,
                height
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
            try c.encode(distance, forKey: .distance)
            try c.encode(bearing, forKey: .bearing)
            try c.encode(relativeBearing, forKey: .relativeBearing)
            try c.encode(elevation, forKey: .elevation)
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
            try c.encode(visible, forKey: .visible)
            try c.encode(scale, forKey: .scale)
            try c.encode(stackLevel, forKey: .stackLevel)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
        }
    }

    public var camera: Camera
    /// How many labels are visible (whether or not the others are listed).
    public var visibleCount: Int
    /// Nearest first: draw them in reverse order so that the nearest is in front.
    public var labels: [Label]
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
        self.labels = (visibleOnly ? labels.filter(\.visible) : labels).map(Label.init)
    }

    /// `value` rounded to `places` decimals.
    public static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10.0, Double(places))
        return (value * scale).rounded() / scale
    }
}
