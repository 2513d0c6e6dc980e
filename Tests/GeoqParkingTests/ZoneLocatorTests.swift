import GeoqCore
import GeoqPROJ
import GeoqParking
import Testing

/// The zone mechanism on synthetic street segments placed with PROJ's geodesic (no real zone
/// layer is published in the shared data yet).
@Suite struct ZoneLocatorTests {
    static let geodesic = Geodesic.wgs84
    static let origin = Point(latitude: 42.8169, longitude: -1.6440)

    /// Two parallel north–south kerbs 30 m apart: blue to the west, orange to the east.
    static let locator: ZoneLocator = {
        let west = geodesic.direct(from: origin, azimuth: 270, distance: 15)
        let east = geodesic.direct(from: origin, azimuth: 90, distance: 15)
        func kerb(_ p: Point) -> [Point] {
            [geodesic.direct(from: p, azimuth: 180, distance: 50), geodesic.direct(from: p, azimuth: 0, distance: 50)]
        }
        let features = [
            Feature(id: "w", name: nil, geometry: .lineString(kerb(west)), properties: ["COLOR": .string("AZUL")]),
            Feature(id: "e", name: nil, geometry: .lineString(kerb(east)), properties: ["COLOR": .string("NARANJA")]),
            Feature(id: "x", name: nil, geometry: .lineString(kerb(origin)), properties: ["COLOR": .string("CARGA")]),
        ]
        let colours = ["AZUL": "blue", "NARANJA": "orange"]
        return ZoneLocator(features: features, toleranceMetres: 10) {
            $0.properties["COLOR"]?.text.flatMap { colours[$0] }
        }
    }()

    @Test(arguments: [(-12.0, "blue", 3.0), (-20.0, "blue", 5.0), (9.0, "orange", 6.0), (24.9, "orange", 9.9)])
    func nearestSegmentWithinTolerance(offset: Double, zone: String, distance: Double) throws {
        let p = Self.geodesic.direct(from: Self.origin, azimuth: offset < 0 ? 270 : 90, distance: abs(offset))
        let match = try #require(Self.locator.zone(at: p))
        #expect(match.zone == zone)
        #expect(abs(match.distanceMetres - distance) < 0.01, "\(match.distanceMetres)")
    }

    @Test func nothingBeyondTheToleranceAndUnregulatedSegmentsIgnored() {
        #expect(Self.locator.segments.count == 2)
        // On the unregulated kerb in the middle, 15 m from both: beyond 10 m.
        #expect(Self.locator.zone(at: Self.origin) == nil)
        let far = Self.geodesic.direct(from: Self.origin, azimuth: 90, distance: 25.2)
        #expect(Self.locator.zone(at: far) == nil)
        // Past the end of the kerbs.
        let north = Self.geodesic.direct(from: Self.origin, azimuth: 0, distance: 70)
        #expect(Self.locator.zone(at: north) == nil)
    }
}
