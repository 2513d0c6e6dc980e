import Foundation
import GeoqCore

/// Where the device is and how its camera is held.
///
/// Angles are degrees. `heading` is the **true** heading of the camera's optical axis
/// (clockwise from true north; convert a magnetic one with ``ARAngles/trueHeading(magnetic:declination:)``).
/// `pitch` is positive when the camera is tilted up above the horizon, `roll` positive when the
/// device is turned clockwise about the optical axis, as seen by the user looking through the
/// screen. Fields of view are full angles (edge to edge); the screen is `width` × `height`
/// pixels with (0, 0) at the top-left corner, x to the right and y down.
public struct ARCamera: Hashable, Sendable {
    /// The device position, WGS84 (x = longitude, y = latitude).
    public var position: Point
    /// Device altitude in metres (any datum, as long as targets use the same one).
    public var altitude: Double
    public var heading: Double
    public var pitch: Double
    public var roll: Double
    /// Horizontal field of view, degrees, in (0, 180).
    public var horizontalFieldOfView: Double
    /// Vertical field of view, degrees, in (0, 180).
    public var verticalFieldOfView: Double
    /// Screen width in pixels.
    public var width: Double
    /// Screen height in pixels.
    public var height: Double

    public init(
        position: Point, altitude: Double = 0, heading: Double, pitch: Double = 0, roll: Double = 0,
        horizontalFieldOfView: Double, verticalFieldOfView: Double, width: Double, height: Double
    ) {
        self.position = position
        self.altitude = altitude
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
        self.horizontalFieldOfView = horizontalFieldOfView
        self.verticalFieldOfView = verticalFieldOfView
        self.width = width
        self.height = height
    }

    /// The vertical field of view that matches `horizontalFieldOfView` on a `width` × `height`
    /// screen with square pixels: 2·atan(tan(hFOV/2)·H/W).
    public static func verticalFieldOfView(horizontal: Double, width: Double, height: Double) -> Double {
        ARAngles.degrees(2 * atan(tan(ARAngles.radians(horizontal) / 2) * height / width))
    }

    /// Focal length in pixels along x: f = (W/2) / tan(hFOV/2).
    public var focalLengthX: Double { (width / 2) / tan(ARAngles.radians(horizontalFieldOfView) / 2) }
    /// Focal length in pixels along y: f_y = (H/2) / tan(vFOV/2).
    public var focalLengthY: Double { (height / 2) / tan(ARAngles.radians(verticalFieldOfView) / 2) }

    /// Checks every number: finite, fields of view in (0, 180), a positive screen size.
    public func validate() throws(ARError) {
        let finite: [(String, Double)] = [
            ("latitude", position.y), ("longitude", position.x), ("altitude", altitude), ("heading", heading),
            ("pitch", pitch), ("roll", roll), ("horizontal field of view", horizontalFieldOfView),
            ("vertical field of view", verticalFieldOfView), ("width", width), ("height", height),
        ]
        for (name, value) in finite where !value.isFinite { throw .notFinite(name: name, value: value) }
        for (name, value) in [
            ("horizontal field of view", horizontalFieldOfView), ("vertical field of view", verticalFieldOfView),
        ]
        where !(value > 0 && value < 180) {
            throw .fieldOfViewOutOfRange(name: name, degrees: value)
        }
        for (name, value) in [("width", width), ("height", height)] where !(value > 0) {
            throw .screenSizeNotPositive(name: name, pixels: value)
        }
    }
}
