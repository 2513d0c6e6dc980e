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
        var all: [NearestHit] = []
        for (i, p) in points.enumerated() where include(i) {
            let r = Geodesic.wgs84.distanceAndBearing(from: q, to: p)
            if r.distance <= maxMetres { all.append(NearestHit(item: i, distance: r.distance, bearing: r.bearing)) }
        }
        all.sort { ($0.distance, $0.item) < ($1.distance, $1.item) }
        return Array(all.prefix(limit))
    }
}

extension SeededRandom {
    /// A point uniform on the sphere: latitude asin(2u − 1), longitude uniform in [-180, 180).
    mutating func pointOnSphere() -> Point {
        let lat = asin(2 * uniform(0...1) - 1) * 180 / .pi
        return Point(latitude: lat, longitude: uniform(-180...180))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
