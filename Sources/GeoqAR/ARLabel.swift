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

    // x and y are written as null, not left out, so that every label has the same keys.
    enum CodingKeys: String, CodingKey {
        case id, name, distance, bearing, relativeBearing, elevation, x, y, visible, scale, stackLevel, width, height
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
