#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A flat metric for short distances: degrees of longitude and latitude scaled to metres by
/// the WGS84 radii of curvature at a reference latitude (a local equirectangular plane).
///
/// Use: choosing the nearest edge or feature around a query point, where only the order and
/// a close estimate matter. The scale is exact at the reference latitude; elsewhere the
/// east-west scale drifts by about tan(φ)·Δφ relative, so at 43°N a distance 1 km away in
/// latitude is off by about 0.015 %, and 10 km away by 0.15 %. Exact distances come from the
/// geodesic (Karney) in GeoqPROJ. Longitudes do not wrap across the antimeridian here.
///
/// The ``planar`` metric (scale 1 on both axes) makes the same code compute Cartesian
/// distances, as GEOS does for planar geometry.
public struct LocalMetric: Hashable, Sendable {
    /// Metres per degree of longitude (x).
    public let metresPerDegreeX: Double
    /// Metres per degree of latitude (y).
    public let metresPerDegreeY: Double

    public init(metresPerDegreeX: Double, metresPerDegreeY: Double) {
        self.metresPerDegreeX = metresPerDegreeX
        self.metresPerDegreeY = metresPerDegreeY
    }

    /// Unit scale on both axes: plain Cartesian distance in the coordinates' own units.
    public static let planar = LocalMetric(metresPerDegreeX: 1, metresPerDegreeY: 1)

    /// The metric of the WGS84 ellipsoid at `latitude` degrees: the meridional radius M and
    /// the prime-vertical radius N, times π/180.
    public init(wgs84AtLatitude latitude: Double) {
        let a = 6_378_137.0
        let f = 1 / 298.257_223_563
        let e2 = f * (2 - f)
        let phi = latitude * .pi / 180
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let n = a / w
        let m = a * (1 - e2) / (w * w * w)
        self.init(metresPerDegreeX: n * cos(phi) * .pi / 180, metresPerDegreeY: m * .pi / 180)
    }

    /// Distance between two points.
    @inlinable
    public func distance(_ p: Point, _ q: Point) -> Double {
        let dx = (q.x - p.x) * metresPerDegreeX, dy = (q.y - p.y) * metresPerDegreeY
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Distance from `p` to the nearest point of `box` (0 inside): a lower bound of the
    /// distance to anything in the box.
    @inlinable
    public func distance(_ p: Point, _ box: BoundingBox) -> Double {
        let dx = Swift.max(box.minX - p.x, 0, p.x - box.maxX) * metresPerDegreeX
        let dy = Swift.max(box.minY - p.y, 0, p.y - box.maxY) * metresPerDegreeY
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Of the four sides of `box`, the smallest distance from `p` to a side's farther end
    /// ("MINMAXDIST", Roussopoulos, Kelley and Vincent, "Nearest Neighbor Queries", SIGMOD
    /// 1995): anything that touches every side of the box has a point at most this far from
    /// `p`. Infinite for an empty box.
    @inlinable
    public func farEndOfNearestSide(_ p: Point, _ box: BoundingBox) -> Double {
        guard !box.isEmpty else { return .infinity }
        let west = (box.minX - p.x) * metresPerDegreeX, east = (box.maxX - p.x) * metresPerDegreeX
        let south = (box.minY - p.y) * metresPerDegreeY, north = (box.maxY - p.y) * metresPerDegreeY
        let w2 = west * west, e2 = east * east, s2 = south * south, n2 = north * north
        // A vertical side at x reaches farthest at the corner of the larger |y|, and so on.
        let farY2 = Swift.max(s2, n2), farX2 = Swift.max(w2, e2)
        let nearest = Swift.min(Swift.min(w2, e2) + farY2, Swift.min(s2, n2) + farX2)
        return nearest.squareRoot()
    }

    /// The square of ``distance(_:_:)-(Point,BoundingBox)``: the same arithmetic without the
    /// square root, for searches that only compare.
    @inlinable
    public func squaredDistance(_ p: Point, _ box: BoundingBox) -> Double {
        let dx = Swift.max(box.minX - p.x, 0, p.x - box.maxX) * metresPerDegreeX
        let dy = Swift.max(box.minY - p.y, 0, p.y - box.maxY) * metresPerDegreeY
        return dx * dx + dy * dy
    }

    /// The square of the distance ``closestPoint(on:to:)`` returns, by the same arithmetic
    /// (so that comparing squares orders segments as comparing those distances does), without
    /// the square root and without making the point.
    @inlinable
    public func squaredDistance(_ p: Point, _ segment: Segment) -> Double {
        projection(of: p, on: segment).squaredDistance
    }

    /// Where `p` falls on `segment` in this metric: the parameter t in [0, 1] of the nearest
    /// point (start + t·(end − start)) and the square of its distance in metres.
    @inlinable @inline(__always)
    func projection(of p: Point, on segment: Segment) -> (t: Double, squaredDistance: Double) {
        let ax = (segment.start.x - p.x) * metresPerDegreeX, ay = (segment.start.y - p.y) * metresPerDegreeY
        let bx = (segment.end.x - p.x) * metresPerDegreeX, by = (segment.end.y - p.y) * metresPerDegreeY
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? -(ax * dx + ay * dy) / length2 : 0
        t = Swift.min(Swift.max(t, 0), 1)
        let cx = ax + t * dx, cy = ay + t * dy
        return (t, cx * cx + cy * cy)
    }

    /// The point of `segment` nearest to `p`, and its distance.
    @inlinable
    public func closestPoint(on segment: Segment, to p: Point) -> (point: Point, distance: Double) {
        let (t, squaredDistance) = projection(of: p, on: segment)
        let point: Point
        if t == 0 {
            point = segment.start
        } else if t == 1 {
            point = segment.end
        } else {
            point = Point(
                x: segment.start.x + t * (segment.end.x - segment.start.x),
                y: segment.start.y + t * (segment.end.y - segment.start.y))
        }
        return (point, squaredDistance.squareRoot())
    }
}
