import GeoqCore

/// The coordinate reference systems the OGC API face answers in besides CRS84 (OGC API -
/// Features Part 2), and the conversions to and from them. The API itself links no C library:
/// the snapshot hands in an implementation over PROJ.
///
/// Axis order is the CRS's own, as Part 2 says: easting then northing for the projected
/// systems offered here, longitude then latitude for CRS84.
public protocol OGCCoordinateSystems: Sendable {
    /// The CRS URIs offered besides CRS84 (`http://www.opengis.net/def/crs/EPSG/0/3857`).
    var offered: [String] { get }
    /// `geometry` (longitude, latitude) in `crs`, one of ``offered``; nil when a position has
    /// no image there.
    func project(_ geometry: Geometry, to crs: String) -> Geometry?
    /// `point` given in `crs`, one of ``offered``, as longitude and latitude; nil when it has no
    /// image.
    func unproject(_ point: Point, from crs: String) -> Point?
}

/// CRS84 only: the snapshot of a process without PROJ (the API's tests, values built by hand).
public struct CRS84Only: OGCCoordinateSystems {
    public init() {}
    public var offered: [String] { [] }
    public func project(_ geometry: Geometry, to crs: String) -> Geometry? { nil }
    public func unproject(_ point: Point, from crs: String) -> Point? { nil }
}
