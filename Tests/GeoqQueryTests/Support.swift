import Foundation
import GeoqCore
import GeoqQuery

/// A flat world with 100 km to the degree in both directions, so that every expected distance is
/// schoolroom arithmetic: Euclidean metres, bearing atan2(Δeast, Δnorth) in [0, 360).
struct FlatWorld: GeodesicSolving {
    static let metresPerDegree = 100_000.0

    func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double) {
        let (de, dn) = ((b.x - a.x) * Self.metresPerDegree, (b.y - a.y) * Self.metresPerDegree)
        let degrees = atan2(de, dn) * 180 / .pi
        return (hypot(de, dn), degrees < 0 ? degrees + 360 : degrees)
    }
}

/// An axis-aligned rectangle, longitude first as GeoJSON has it.
func rectangle(west: Double, south: Double, east: Double, north: Double) throws -> Geometry {
    let ring = try Ring(closing: [
        Point(x: west, y: south), Point(x: east, y: south), Point(x: east, y: north), Point(x: west, y: north),
    ])
    return .polygon(Polygon(shell: ring))
}

/// A point feature on the equator, `degrees` east of the prime meridian.
func onTheEquator(_ id: String, _ degrees: Double, properties: [String: PropertyValue] = [:]) -> Feature {
    Feature(id: id, name: "Feature \(id)", geometry: .point(Point(x: degrees, y: 0)), properties: properties)
}

/// Along the equator the geodesic is the equator itself (for arcs shorter than about 179.4°),
/// so the distance is the equatorial radius times the longitude difference in radians.
func equatorialArc(degrees: Double) -> Double { 6_378_137 * abs(degrees) * .pi / 180 }
