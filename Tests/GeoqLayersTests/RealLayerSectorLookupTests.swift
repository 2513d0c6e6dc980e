import Foundation
import GeoqCore
import GeoqGEOS
import GeoqLayers
import GeoqPROJ
import GeoqQuery
import GeoqTestSupport
import Testing

@Suite struct RealLayerSectorLookupTests {
    /// 42.81, -1.64 lies in the Ensanche unit (checked separately with a Python ray cast over
    /// the city's GeoJSON), which approximates sector 2.
    @Test func readmePointIsInSectorTwo() throws {
        let lookup = SectorLookup(
            layer: try LayerLoader().load("pamplona-sectors", from: try sharedCatalog()), geodesic: Geodesic.wgs84)
        let answer = lookup.answer(for: Point(latitude: 42.81, longitude: -1.64))
        #expect(answer.inside.map(\.id) == ["2"])
        #expect(answer.inside.first?.name == "Sector 2 — Ensanches")
        #expect(answer.inside.first?.location == "interior")
        #expect(answer.approximate)
        #expect(answer.approximation?.contains("neighbourhood units") == true)
        #expect(answer.nearest == nil && answer.swapHint == nil)
    }

    @Test func vertexIsOnTheBoundaryAtZeroMetres() throws {
        let layer = try LayerLoader().load("pamplona-sectors", from: try sharedCatalog())
        let vertex = layer.features[0].geometry.areal!.polygons[0].shell.points[5]
        let match = try #require(SectorLookup(layer: layer, geodesic: Geodesic.wgs84).answer(for: vertex).inside.first)
        #expect(match.id == "1")
        #expect(match.location == "boundary")
        #expect(match.distanceToEdgeMetres == 0)
    }

    @Test func swappedNumbersGetAHint() throws {
        let lookup = SectorLookup(
            layer: try LayerLoader().load("pamplona-sectors", from: try sharedCatalog()), geodesic: Geodesic.wgs84)
        let answer = lookup.answer(for: Point(latitude: -1.64, longitude: 42.81))
        #expect(answer.inside.isEmpty)
        #expect(answer.nearest != nil)
        let hint = try #require(answer.swapHint)
        #expect(hint.latitude == 42.81 && hint.longitude == -1.64)
        #expect(hint.layer == "pamplona-sectors" && hint.features == ["Sector 2 — Ensanches"])
    }

    /// Other layers are loaded only for a point outside every feature whose swapped numbers
    /// are a valid position, and then searched: Valencia's old town typed longitude first.
    @Test func swapCandidatesAreAskedForOnlyWhenNeeded() throws {
        let catalog = try sharedCatalog()
        let lookup = SectorLookup(
            layer: try LayerLoader().load("pamplona-sectors", from: catalog), geodesic: Geodesic.wgs84)
        let districts = try LayerLoader().load("valencia-districts", from: catalog)
        var asked = 0
        _ = lookup.answer(
            for: Point(latitude: 42.81, longitude: -1.64),
            swapCandidates: {
                asked += 1; return [districts]
            })
        #expect(asked == 0, "a point inside needs no hint")
        let answer = lookup.answer(
            for: Point(latitude: -0.3763, longitude: 39.4699),
            swapCandidates: {
                asked += 1; return [districts]
            })
        #expect(asked == 1)
        #expect(answer.swapHint?.layer == "valencia-districts")
        #expect(answer.swapHint?.features == ["CIUTAT VELLA"])
    }

    /// The distance to the nearest edge, checked against an independent computation: PROJ
    /// projects each polygon to an azimuthal equidistant plane centred on the query point (where
    /// distances from the centre are geodesic) and GEOS measures the distance from the centre
    /// to the polygon's boundary there.
    @Test(arguments: ["pamplona-sectors", "pamplona-barrios", "valencia-districts"])
    func edgeDistanceMatchesGEOSInAzimuthalEquidistantPlane(name: String) throws {
        let layer = try LayerLoader().load(name, from: try sharedCatalog())
        let lookup = SectorLookup(layer: layer, geodesic: Geodesic.wgs84)
        let box = layer.index.boundingBox
        var rng = SeededRandom(seed: 41)
        let proj = PROJContext()
        let geos = GEOSContext()
        var worst = 0.0, checked = 0
        for _ in 0..<60 {
            // Points in and around the layer, up to about 5 km outside its box.
            let p = Point(
                x: rng.uniform((box.minX - 0.05)...(box.maxX + 0.05)),
                y: rng.uniform((box.minY - 0.05)...(box.maxY + 0.05)))
            let answer = lookup.answer(for: p)
            let matches = answer.inside.isEmpty ? [answer.nearest!] : answer.inside
            let aeqd = try CoordinateTransformer(
                context: proj, from: "EPSG:4326",
                to: "+proj=aeqd +lat_0=\(p.y) +lon_0=\(p.x) +datum=WGS84 +units=m +type=crs")
            for m in matches {
                let feature = try #require(layer.features.first { $0.id == m.id })
                let projected = try aeqd.transform(feature.geometry)
                let boundary = try geos.makeGeometry(
                    .multiLineString(projected.areal!.polygons.flatMap { $0.rings.map(\.points.array) }))
                let expected = try geos.distance(try geos.makePoint(Point(x: 0, y: 0)), boundary)
                let error = abs(m.distanceToEdgeMetres - expected)
                worst = Swift.max(worst, error / Swift.max(expected, 1))
                // Centimetre rounding, plus the curvature of edges between projections.
                #expect(
                    error <= 0.011 + 1e-4 * expected,
                    "\(name) \(p): geoq \(m.distanceToEdgeMetres) m, oracle \(expected) m")
                checked += 1
            }
        }
        print("edge distance vs PROJ aeqd + GEOS, \(name): \(checked) answers, worst relative error \(worst)")
        #expect(checked >= 60)
    }
}
