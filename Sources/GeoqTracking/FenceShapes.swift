import GeoqCore
import GeoqNearby

/// What a geofence engine's features are: the polygons of an areal layer, or circles around the
/// points of a point layer ("within 100 m of a falla"). The rules are the same for both; they
/// ask the shapes the three things of ``FenceShape``.
public enum FenceShapes: Sendable {
    case polygons(PolygonIndex)
    case circles(CircleFences)
}

/// What the rules ask of fences: whether a point is in a feature, how far it is from a
/// feature's edge, and which features cover it. The engine is generic over it, so that each
/// kind of fence is called directly (its index is not copied out of an enum at every call).
protocol FenceShape {
    /// Whether `p` is in feature `item` (its edge counts as inside).
    func contains(_ p: Point, item: Int) -> Bool
    /// The distance in metres from `p` to feature `item`'s edge; `metric` is the local metric
    /// at `p` (a polygon's edge is measured in it, a circle's geodesically from its centre).
    func distanceToEdge(_ p: Point, item: Int, metric: LocalMetric) -> Double
    /// Calls `body` with each feature that covers `p`.
    func forEachCovering(_ p: Point, _ body: (Int) -> Void)
}

extension PolygonIndex: FenceShape {
    @inline(__always) func contains(_ p: Point, item: Int) -> Bool { locate(p, item: item) != .exterior }

    @inline(__always) func distanceToEdge(_ p: Point, item: Int, metric: LocalMetric) -> Double {
        nearestBoundaryPoint(to: p, item: item, metric: metric).distance
    }
}

extension CircleFences: FenceShape {
    func contains(_ p: Point, item: Int) -> Bool { distance(p, item: item) <= radii[item] }

    func distanceToEdge(_ p: Point, item: Int, metric: LocalMetric) -> Double {
        abs(distance(p, item: item) - radii[item])
    }

    func forEachCovering(_ p: Point, _ body: (Int) -> Void) { for item in covering(p) { body(item) } }
}

/// Circles on the WGS84 ellipsoid: every point within a geodesic distance (its radius) of a
/// centre. Feature `i` is the circle around `centers[i]` of radius `radii[i]` metres.
///
/// Covering points are found through the point layer's nearest-N index (all centres within
/// the largest radius, then each by its own), so a fence layer of 23,000 points costs a few
/// nearby centres per fix; distances are Karney's, as every geodesic of geoq.
public struct CircleFences: Sendable {
    public let centers: [Point]
    public let radii: [Double]
    let index: PointIndex
    let largestRadius: Double

    /// `index` must index `centers` (item `i` is `centers[i]`), as a point layer's does; else
    /// it is built here. A radius that is not a positive finite number makes an empty circle.
    public init(centers: [Point], radii: [Double], index: PointIndex? = nil) {
        precondition(centers.count == radii.count, "a radius per centre")
        precondition(index == nil || index?.count == centers.count, "an index of other points")
        self.centers = centers
        self.radii = radii.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        self.index = index ?? PointIndex(centers)
        largestRadius = self.radii.max() ?? 0
    }

    /// The geodesic distance in metres from `p` to feature `item`'s centre.
    func distance(_ p: Point, item: Int) -> Double {
        KarneyGeodesic.wgs84.distanceAndBearing(from: p, to: centers[item]).distance
    }

    /// The features whose circle holds `p`, in increasing item order.
    public func covering(_ p: Point) -> [Int] {
        guard largestRadius > 0 else { return [] }
        var limit = 64
        while true {
            let hits = index.nearest(to: p, limit: limit, within: largestRadius, geodesic: KarneyGeodesic.wgs84)
            if hits.count < limit || limit >= centers.count {
                return hits.filter { $0.distance <= radii[$0.item] }.map(\.item).sorted()
            }
            limit *= 4
        }
    }
}
