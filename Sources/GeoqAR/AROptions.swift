/// How the overlay is computed: range, earth curvature, label scale and size.
public struct AROptions: Hashable, Sendable {
    /// How the label scale falls from 1 at ``nearDistance`` to ``minScale`` at ``farDistance``.
    public enum ScaleCurve: String, Hashable, Sendable, CaseIterable {
        /// t = (d − near) / (far − near): the scale falls evenly per metre.
        case linear
        /// t = ln(d / near) / ln(far / near): the scale falls evenly per doubling of the
        /// distance (halfway at the geometric mean √(near·far)).
        case logarithmic
    }

    /// Targets farther than this (metres) are not visible; nil = no limit.
    public var maxDistance: Double?
    /// Lower each target by the earth-curvature drop d² / (2R) before computing its elevation
    /// and screen position (about 0.08 m at 1 km, 7.8 m at 10 km; no refraction term).
    public var earthCurvature: Bool
    /// R for the curvature drop, metres (default: the mean earth radius, 6 371 008.8 m).
    public var earthRadius: Double
    /// At or below this distance (metres) labels have scale 1.
    public var nearDistance: Double
    /// At or beyond this distance (metres) labels have scale ``minScale``.
    public var farDistance: Double
    /// The smallest label scale, in (0, 1].
    public var minScale: Double
    public var scaleCurve: ScaleCurve
    /// Width of one character of a label's name at scale 1, pixels: an unscaled label is
    /// `name.count × labelCharacterWidth + 2 × labelPadding` wide (unless ``labelFixedWidth``).
    public var labelCharacterWidth: Double
    /// Horizontal padding on each side of the name at scale 1, pixels.
    public var labelPadding: Double
    /// When set, every label is this wide at scale 1 whatever its name.
    public var labelFixedWidth: Double?
    /// Label height at scale 1, pixels; a stacked label moves up by its own (scaled) height.
    public var labelHeight: Double
    /// Move overlapping labels up ("stacked, nearest in front"); off leaves every label at its
    /// projected position.
    public var stackLabels: Bool

    public init(
        maxDistance: Double? = nil, earthCurvature: Bool = false, earthRadius: Double = 6_371_008.8,
        nearDistance: Double = 50, farDistance: Double = 2000, minScale: Double = 0.4,
        scaleCurve: ScaleCurve = .linear, labelCharacterWidth: Double = 8, labelPadding: Double = 6,
        labelFixedWidth: Double? = nil, labelHeight: Double = 24, stackLabels: Bool = true
    ) {
        self.maxDistance = maxDistance
        self.earthCurvature = earthCurvature
        self.earthRadius = earthRadius
        self.nearDistance = nearDistance
        self.farDistance = farDistance
        self.minScale = minScale
        self.scaleCurve = scaleCurve
        self.labelCharacterWidth = labelCharacterWidth
        self.labelPadding = labelPadding
        self.labelFixedWidth = labelFixedWidth
        self.labelHeight = labelHeight
        self.stackLabels = stackLabels
    }

    /// Checks the ranges: 0 < near < far, minScale in (0, 1], positive radius and label height,
    /// a non-negative maximum distance and label widths.
    public func validate() throws(ARError) {
        if let m = maxDistance, !(m >= 0) { throw .invalidOptions("maximum distance \(m) m must be 0 or more") }
        guard nearDistance > 0, farDistance > nearDistance, farDistance.isFinite else {
            throw .invalidOptions("label distances must satisfy 0 < near (\(nearDistance) m) < far (\(farDistance) m)")
        }
        guard minScale > 0, minScale <= 1 else {
            throw .invalidOptions("minimum label scale \(minScale) is outside (0, 1]")
        }
        guard earthRadius > 0, earthRadius.isFinite else {
            throw .invalidOptions("earth radius \(earthRadius) m must be positive")
        }
        guard labelHeight > 0, labelHeight.isFinite else {
            throw .invalidOptions("label height \(labelHeight) px must be positive")
        }
        guard labelCharacterWidth >= 0, labelPadding >= 0, (labelFixedWidth ?? 0) >= 0 else {
            throw .invalidOptions("label widths must be 0 or more pixels")
        }
    }
}
