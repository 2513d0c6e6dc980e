import GeoqCore
import GeoqNearby
import GeoqPROJ
import GeoqTestSupport

/// The reference every nearest query is checked against: Karney's distance to every item,
/// sorted by (distance, index).
enum BruteForce {
    static func nearest(
        _ points: [Point], to q: Point, limit: Int, within maxMetres: Double = .infinity,
        where include: (Int) -> Bool = { _ in true }
    ) -> [NearestHit] {
        // The best `limit` so far, sorted by (distance, index): insertion, cheaper than sorting
        // every item in a debug build.
        var best: [NearestHit] = []
        for (i, p) in points.enumerated() where include(i) {
            let r = Geodesic.wgs84.distanceAndBearing(from: q, to: p)
            guard r.distance <= maxMetres, limit > 0 else { continue }
            if best.count == limit && r.distance >= best[limit - 1].distance { continue }
            let hit = NearestHit(item: i, distance: r.distance, bearing: r.bearing)
            var at = best.count
            while at > 0 && (best[at - 1].distance, best[at - 1].item) > (hit.distance, hit.item) { at -= 1 }
            best.insert(hit, at: at)
            if best.count > limit { best.removeLast() }
        }
        return best
    }
}

extension SeededRandom {
    /// A point uniform on the sphere (``positionOnSphere(_:)``).
    mutating func pointOnSphere() -> Point { positionOnSphere(Point.init(latitude:longitude:)) }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
