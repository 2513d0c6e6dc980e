import Foundation
import GeoqCore
import GeoqLayers
import GeoqParking
import GeoqTestSupport
import Testing

/// The zone locator's indexed search against a plain scan of every kerb in layer order, on real
/// Pamplona boundaries standing in for zone lines (no zone-line layer is published in the shared
/// data): the rings of the 13 neighbourhood units and of the restricted-traffic zones. Adjacent
/// units share their boundary, so many points are equally near to two kerbs of different
/// features, and the first in layer order must win.
@Suite struct ZoneLocatorScanTests {
    struct Kerb {
        var zone: String
        var featureID: String
        var segment: GeoqCore.Segment
    }

    static let toleranceMetres = 15.0

    /// The kerbs written out from the features without the locator: every ring's edges, in
    /// feature order.
    static func kerbs(_ features: [(zone: String, feature: Feature)]) -> [Kerb] {
        var kerbs: [Kerb] = []
        for (zone, feature) in features {
            let rings: [[Point]]
            switch feature.geometry {
            case .polygon(let polygon): rings = polygon.rings.map(\.points.array)
            case .multiPolygon(let shape): rings = shape.polygons.flatMap { $0.rings.map(\.points.array) }
            default: rings = []
            }
            for ring in rings {
                for i in 1..<ring.count {
                    kerbs.append(Kerb(zone: zone, featureID: feature.id, segment: Segment(ring[i - 1], ring[i])))
                }
            }
        }
        return kerbs
    }

    /// The first kerb at the smallest distance within the tolerance, and that distance.
    static func scan(_ kerbs: [Kerb], _ p: Point) -> (kerb: Kerb, distance: Double)? {
        let metric = LocalMetric(wgs84AtLatitude: p.y)
        var best: (kerb: Kerb, distance: Double)?
        for kerb in kerbs {
            let d = metric.closestPoint(on: kerb.segment, to: p).distance
            if d <= toleranceMetres, d < (best?.distance ?? .infinity) { best = (kerb, d) }
        }
        return best
    }

    @Test func indexedSearchEqualsTheScanOnPamplonaBoundaries() throws {
        let library = try LayerLibrary(
            locations: DataLocations(
                catalogFile: TestData.packageRoot.appendingPathComponent("data/layers.json"),
                dataDirectory: TestData.directory, storeFile: URL(fileURLWithPath: "/nonexistent/store.gpkg")))
        let barrios = try library.features(of: "pamplona-barrios")
        let restricted = try library.features(of: "pamplona-restricted-access")
        #expect(barrios.count == 13 && restricted.count == 2)
        // Zones by layer: the neighbourhood units blue, the restricted-traffic zones red.
        let features = barrios.map { ("blue", $0) } + restricted.map { ("red", $0) }
        let tagged = features.map { zone, feature in
            var copy = feature
            copy.properties["ZONE"] = .string(zone)
            return copy
        }
        let locator = ZoneLocator(features: tagged, toleranceMetres: Self.toleranceMetres) {
            $0.properties["ZONE"]?.text
        }
        let kerbs = Self.kerbs(features.map { (zone: $0.0, feature: $0.1) })
        #expect(locator.segments.count == kerbs.count && kerbs.count > 1000)

        // Points around random kerbs: a random place along the kerb, then up to twice the
        // tolerance away in a random direction, so that some are beyond every kerb.
        var rng = SeededRandom(seed: 2024)
        var matched = 0, unmatched = 0, featuresFound = Set<String>()
        for _ in 0..<4000 {
            let kerb = kerbs[Int(rng.next() % UInt64(kerbs.count))].segment
            let t = rng.uniform(0...1)
            let on = Point(
                x: kerb.start.x + t * (kerb.end.x - kerb.start.x), y: kerb.start.y + t * (kerb.end.y - kerb.start.y))
            let metric = LocalMetric(wgs84AtLatitude: on.y)
            let angle = rng.uniform(0...(2 * .pi)), r = rng.uniform(0...(2 * Self.toleranceMetres))
            let p = Point(
                x: on.x + r * cos(angle) / metric.metresPerDegreeX, y: on.y + r * sin(angle) / metric.metresPerDegreeY)
            let expected = Self.scan(kerbs, p)
            let got = locator.zone(at: p)
            #expect(got?.zone == expected?.kerb.zone, "at \(p)")
            #expect(got?.featureID == expected?.kerb.featureID, "at \(p)")
            #expect(got?.distanceMetres == expected?.distance, "at \(p)")
            if let expected {
                matched += 1
                featuresFound.insert(expected.kerb.featureID)
            } else {
                unmatched += 1
            }
        }
        #expect(matched > 1000 && unmatched > 500, "matched \(matched), unmatched \(unmatched)")
        #expect(featuresFound.count >= 10, "\(featuresFound.count) features found")
    }
}
