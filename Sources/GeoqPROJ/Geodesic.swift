import CPROJ
import GeoqCore

/// Geodesics on an ellipsoid of revolution by Karney's algorithms (C. F. F. Karney,
/// "Algorithms for geodesics", J. Geodesy 87, 43–55, 2013), through the `geodesic.h` that
/// ships with PROJ. Accurate to about 15 nanometres on WGS84, for any pair of points,
/// antipodal ones included.
///
/// A plain value: `geod_geodesic` holds only doubles (the ellipsoid and its series
/// coefficients, no pointers), so copies are independent and the type is `Sendable`.
///
/// Conventions: positions are ``Point``s with x = longitude and y = latitude in degrees
/// (latitudes must lie in [-90, 90]; anything else gives NaN); azimuths are degrees clockwise
/// from north in [-180, 180]; distances are metres.
public struct Geodesic: Sendable {
    private var ellipsoid: geod_geodesic

    /// The ellipsoid's equatorial radius, in metres.
    public var equatorialRadius: Double { ellipsoid.a }
    /// The ellipsoid's flattening (0 for a sphere).
    public var flattening: Double { ellipsoid.f }

    /// An ellipsoid with equatorial radius `equatorialRadius` metres and flattening `flattening`.
    public init(equatorialRadius: Double, flattening: Double) {
        ellipsoid = geod_geodesic()
        geod_init(&ellipsoid, equatorialRadius, flattening)
    }

    /// The WGS84 ellipsoid: a = 6378137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

    /// The inverse problem: the shortest geodesic from `start` to `end`.
    public func inverse(from start: Point, to end: Point) -> GeodesicInverse {
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            geod_inverse(g, start.latitude, start.longitude, end.latitude, end.longitude, &s12, &azi1, &azi2)
        }
        return GeodesicInverse(distance: s12, initialAzimuth: azi1, finalAzimuth: azi2)
    }

    /// The direct problem: where a geodesic leaving `start` at `azimuth` degrees arrives after
    /// `distance` metres (negative goes backwards). The longitude is reduced to [-180, 180].
    public func direct(from start: Point, azimuth: Double, distance: Double) -> Point {
        var lat2 = 0.0
        var lon2 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            geod_direct(g, start.latitude, start.longitude, azimuth, distance, &lat2, &lon2, nil)
        }
        return Point(x: lon2, y: lat2)
    }
}

/// The solution of an inverse geodesic problem.
public struct GeodesicInverse: Hashable, Sendable {
    /// Length of the geodesic, in metres.
    public var distance: Double
    /// Direction of travel at the start, degrees clockwise from north, in [-180, 180].
    public var initialAzimuth: Double
    /// Direction of travel on arrival (forward azimuth at the end), in [-180, 180].
    public var finalAzimuth: Double

    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }
}

extension Geodesic: GeodesicSolving {
    public func distanceAndBearing(from a: Point, to b: Point) -> (distance: Double, bearing: Double) {
        let r = inverse(from: a, to: b)
        let bearing = r.initialAzimuth < 0 ? r.initialAzimuth + 360 : r.initialAzimuth
        return (r.distance, bearing >= 360 ? bearing - 360 : bearing)
    }
}
