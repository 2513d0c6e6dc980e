/// One target as the overlay draws it.
public struct ARLabel: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    /// Geodesic distance from the device, metres.
    public var distance: Double
    /// Initial geodesic bearing from the device, degrees clockwise from true north, [0, 360).
    public var bearing: Double
    /// bearing − heading wrapped to (−180, 180]: positive to the right of the optical axis.
    public var relativeBearing: Double
    /// Angle above (positive) or below the horizontal, degrees: atan2(Δh − drop, distance).
    public var elevation: Double
    /// Screen x of the target in pixels (0 = left edge); nil when it is behind the camera
    /// (Z_cam ≤ 0), where a pinhole has no image of it.
    public var x: Double?
    /// Screen y of the label in pixels (0 = top edge), after stacking: the projected y minus
    /// `stackLevel` × `height`; nil when the target is behind the camera.
    public var y: Double?
    /// In front of the camera, inside the screen (by its projected point, before stacking)
    /// and not beyond the maximum distance.
    public var visible: Bool
    /// Label scale factor in [minScale, 1], smaller when farther.
    public var scale: Double
    /// How many label heights this label was moved up to clear nearer labels (0 = in place).
    public var stackLevel: Int
    /// The label rectangle (centred on x, y), pixels, after scaling.
    public var width: Double
    public var height: Double

    public init(
        id: String, name: String, distance: Double, bearing: Double, relativeBearing: Double, elevation: Double,
        x: Double?, y: Double?, visible: Bool, scale: Double, stackLevel: Int, width: Double, height: Double
    ) {
        self.id = id
        self.name = name
        self.distance = distance
        self.bearing = bearing
        self.relativeBearing = relativeBearing
        self.elevation = elevation
        self.x = x
        self.y = y
        self.visible = visible
        self.scale = scale
        self.stackLevel = stackLevel
        self.width = width
        self.height = height
    }
}
