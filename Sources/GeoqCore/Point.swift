/// A position on the WGS84 ellipsoid, or in any planar coordinate system.
///
/// Axis order is explicit: `x` is the longitude (easting) and `y` the latitude (northing),
/// as in GeoJSON, GEOS and WKT. Human input and GeoRSS are latitude first: build such points
/// with ``init(latitude:longitude:)`` so the order is spelled out at the call site.
public struct Point: Hashable, Sendable {
    /// Longitude in degrees (or easting in a projected system).
    public var x: Double
    /// Latitude in degrees (or northing in a projected system).
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// A geographic position, latitude first as people write it.
    @inlinable
    public init(latitude: Double, longitude: Double) {
        self.init(x: longitude, y: latitude)
    }

    @inlinable public var longitude: Double { x }
    @inlinable public var latitude: Double { y }

    /// The same numbers with the axes exchanged: what the user meant if they typed
    /// longitude before latitude.
    @inlinable public var swapped: Point { Point(x: y, y: x) }
}

extension Point: CustomStringConvertible {
    /// `(x y)` as in WKT, so that logs never hide the axis order.
    public var description: String { "(\(x) \(y))" }
}

/// Why a pair of numbers is not a geographic position.
public enum CoordinateRangeError: Error, Equatable, Sendable {
    case latitudeNotFinite(Double)
    case longitudeNotFinite(Double)
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
}

extension CoordinateRangeError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .latitudeNotFinite(let v): "latitude \(v) is not a finite number"
        case .longitudeNotFinite(let v): "longitude \(v) is not a finite number"
        case .latitudeOutOfRange(let v): "latitude \(v) is outside [-90, 90]"
        case .longitudeOutOfRange(let v): "longitude \(v) is outside [-180, 180]"
        }
    }
}

extension Point {
    /// Checks that the point is a WGS84 position: finite, latitude in [-90, 90],
    /// longitude in [-180, 180].
    public func validatedGeographic() throws(CoordinateRangeError) -> Point {
        guard y.isFinite else { throw .latitudeNotFinite(y) }
        guard x.isFinite else { throw .longitudeNotFinite(x) }
        guard (-90...90).contains(y) else { throw .latitudeOutOfRange(y) }
        guard (-180...180).contains(x) else { throw .longitudeOutOfRange(x) }
        return self
    }
}
