/// Where an archive's tiles lie and where a viewer should open, as the PMTiles header states it.
///
/// Degrees on WGS84, longitude (x) before latitude (y) in every name here. The header stores each
/// value as a 32-bit integer of degrees × 10^7, rounded to the nearest, so positions keep about a
/// centimetre. A western bound greater than the eastern one is accepted, for extents that cross
/// the antimeridian.
public struct PMTilesExtent: Equatable, Sendable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double
    public var centerLongitude: Double
    public var centerLatitude: Double
    /// The zoom a viewer should open at; `nil` means the lowest zoom among the archive's tiles.
    public var centerZoom: Int?

    /// An extent whose centre is given explicitly.
    public init(
        west: Double, south: Double, east: Double, north: Double,
        centerLongitude: Double, centerLatitude: Double, centerZoom: Int? = nil
    ) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
        self.centerLongitude = centerLongitude
        self.centerLatitude = centerLatitude
        self.centerZoom = centerZoom
    }

    /// An extent centred on the middle of its bounds.
    public init(west: Double, south: Double, east: Double, north: Double, centerZoom: Int? = nil) {
        self.init(
            west: west, south: south, east: east, north: north,
            centerLongitude: (west + east) / 2, centerLatitude: (south + north) / 2, centerZoom: centerZoom)
    }

    /// The whole Web Mercator world, the default of most tile viewers.
    public static let webMercatorWorld = PMTilesExtent(
        west: -180, south: -85.051_128_779_806_6, east: 180, north: 85.051_128_779_806_6)

    /// Checks that every value is a finite position and the centre zoom a PMTiles zoom.
    func validated() throws(PMTilesError) -> PMTilesExtent {
        let longitudes = [("west", west), ("east", east), ("centre longitude", centerLongitude)]
        for (name, value) in longitudes where !(value.isFinite && (-180...180).contains(value)) {
            throw .invalidExtent(reason: "\(name) \(value) is not a longitude in [-180, 180]")
        }
        let latitudes = [("south", south), ("north", north), ("centre latitude", centerLatitude)]
        for (name, value) in latitudes where !(value.isFinite && (-90...90).contains(value)) {
            throw .invalidExtent(reason: "\(name) \(value) is not a latitude in [-90, 90]")
        }
        if south > north {
            throw .invalidExtent(reason: "south \(south) lies north of north \(north)")
        }
        if let centerZoom, !(0...31).contains(centerZoom) {
            throw .invalidExtent(reason: "centre zoom \(centerZoom) is outside 0...31")
        }
        return self
    }
}
