import Foundation
import GeoqCore
import GeoqGEOS
import GeoqNearby
import GeoqPROJ
import GeoqQuery

/// The whole which-sector answer (covering features, their location, the nearest edge point
/// and its geodesic distance; for a point outside every feature the nearest feature and the
/// swapped-numbers hint), through ``SectorLookup`` with ``EllipsoidGeodesic`` and, as its peer
/// in the same run, through GEOS and PROJ: prepared covers behind an STRtree,
/// `GEOSPreparedNearestPoints_r` on the prepared boundary for the edge point, the STRtree's
/// nearest search by `GEOSPreparedDistance_r` for the nearest feature, `geod_inverse` for the
/// distance. Points inside and outside are timed apart.
enum WholeAnswerBenchmark {
    struct Result {
        var inside: Stats, outside: Stats, geosInside: Stats, geosOutside: Stats
        /// All points in their random order, inside and outside mixed.
        var mixed: Stats
        var insideCount: Int, outsideCount: Int
        /// Answers where both agree (same features and locations, distances within 2 cm + 0.1 %).
        var agreements: Int
    }

    static func measure(
        _ layer: Layer, others: [Layer], points: [Point], runs: Int, progress: Progress, label: String
    ) throws -> Result {
        let lookup = SectorLookup(
            layer: layer, geodesic: EllipsoidGeodesic.wgs84,
            swapCandidateExtents: others.map(\.index.boundingBox))
        let peer = try GEOSWholeAnswer(layer: layer, others: others)
        let inside = points.filter { layer.index.firstCovering($0) != nil }
        let outside = points.filter { layer.index.firstCovering($0) == nil }

        var agreements = 0
        for p in points {
            let ours = lookup.answer(for: p, swapCandidates: { others })
            if try peer.answer(for: p).agrees(with: ours) { agreements += 1 }
        }
        if agreements != points.count {
            progress.note("\(label): \(points.count - agreements) whole answers where geoq and GEOS + PROJ disagree")
        }

        var times: [[Double]] = Array(repeating: [], count: 5)
        var sink = 0
        for run in 1...runs {
            progress.note("\(label): whole answers, run \(run)/\(runs)")
            times[0].append(GeoqBench.time(inside.count) { sink &+= geoqPass(lookup, inside, others) })
            times[1].append(GeoqBench.time(outside.count) { sink &+= geoqPass(lookup, outside, others) })
            times[2].append(try GeoqBench.timeThrowing(inside.count) { sink &+= try geosPass(peer, inside) })
            times[3].append(try GeoqBench.timeThrowing(outside.count) { sink &+= try geosPass(peer, outside) })
            times[4].append(GeoqBench.time(points.count) { sink &+= geoqPass(lookup, points, others) })
        }
        if sink == 42 { print("") }  // keep the work observable
        return Result(
            inside: Stats(times[0]), outside: Stats(times[1]), geosInside: Stats(times[2]),
            geosOutside: Stats(times[3]), mixed: Stats(times[4]), insideCount: inside.count,
            outsideCount: outside.count,
            agreements: agreements)
    }

    /// Whole answers through geoq. Not inlined, so that an instruction count
    /// (`valgrind --tool=callgrind --toggle-collect='*geoqPass*'`) isolates it.
    @inline(never)
    static func geoqPass(_ lookup: SectorLookup, _ points: [Point], _ others: [Layer]) -> Int {
        var sink = 0
        for p in points {
            let answer = lookup.answer(for: p, swapCandidates: { others })
            sink &+= answer.inside.count &+ Int(answer.nearest?.distanceToEdgeMetres ?? 0)
        }
        return sink
    }

    /// Whole answers through GEOS and PROJ. Not inlined, for the same reason.
    @inline(never)
    static func geosPass(_ peer: GEOSWholeAnswer, _ points: [Point]) throws -> Int {
        var sink = 0
        for p in points {
            let answer = try peer.answer(for: p)
            sink &+= answer.inside.count &+ Int(answer.nearest?.distance ?? 0)
        }
        return sink
    }
}

/// The which-sector answer computed with GEOS and PROJ, as a GEOS user would: the layer
/// scaled to metres by the WGS84 radii of curvature at its centre latitude (a local plane, so
/// that GEOS's planar nearest search ranks by metres), prepared polygons and prepared
/// boundaries, one STRtree; the distance to the edge point by PROJ's `geod_inverse`.
final class GEOSWholeAnswer {
    struct Match {
        var id: String, name: String?, location: String, distance: Double, edgePoint: Point
    }
    struct Answer {
        var inside: [Match], nearest: Match?, swapHint: (layer: String, features: [String])?

        func agrees(with ours: SectorAnswer) -> Bool {
            func same(_ a: Match, _ b: SectorAnswer.Match) -> Bool {
                // GEOS measures in one plane for the whole layer, geoq in the query's own: edge
                // points may slide along an edge by up to about 0.1 % of the distance.
                a.id == b.id && a.location == b.location
                    && abs(a.distance - b.distanceToEdgeMetres) <= 0.02 + 1e-3 * b.distanceToEdgeMetres
            }
            guard inside.count == ours.inside.count, zip(inside, ours.inside).allSatisfy(same) else { return false }
            switch (nearest, ours.nearest) {
            case (nil, nil): break
            case (let a?, let b?): if !same(a, b) { return false }
            default: return false
            }
            return swapHint?.layer == ours.swapHint?.layer && swapHint?.features == ours.swapHint?.features
        }
    }

    let layer: Layer
    let others: [Layer]
    let context: GEOSContext
    let scale: LocalMetric
    let polygons: [GEOSPreparedGeometry]
    let boundaries: [GEOSPreparedGeometry]
    let tree: GEOSSTRtree
    let geodesic = Geodesic.wgs84

    init(layer: Layer, others: [Layer]) throws {
        self.layer = layer
        self.others = others
        let scale = LocalMetric(wgs84AtLatitude: layer.index.boundingBox.center.latitude)
        self.scale = scale
        let context = GEOSContext()
        self.context = context
        func scaled(_ ring: Ring) -> [Point] {
            ring.points.map { Point(x: $0.x * scale.metresPerDegreeX, y: $0.y * scale.metresPerDegreeY) }
        }
        let shapes = try layer.features.map { feature in
            let areal = feature.geometry.areal ?? MultiPolygon([])
            let polygons = try areal.polygons.map { polygon in
                try Polygon(
                    shell: Ring(scaled(polygon.shell)), holes: polygon.holes.map { try Ring(scaled($0)) })
            }
            return (
                polygon: try context.makeGeometry(.multiPolygon(MultiPolygon(polygons))),
                boundary: try context.makeGeometry(.multiLineString(areal.polygons.flatMap { $0.rings.map(scaled) }))
            )
        }
        polygons = try shapes.map { try context.prepare($0.polygon) }
        boundaries = try shapes.map { try context.prepare($0.boundary) }
        tree = try GEOSSTRtree(context: context, items: shapes.enumerated().map { ($1.polygon, $0) })
    }

    func answer(for p: Point) throws -> Answer {
        let q = Point(x: p.x * scale.metresPerDegreeX, y: p.y * scale.metresPerDegreeY)
        var ids: [Int] = []
        try tree.query(q) { id in if (try? polygons[id].covers(q)) == true { ids.append(id) } }
        ids.sort()
        var inside: [Match] = []
        for id in ids {
            let edge = try boundaries[id].nearestPoint(to: q)
            inside.append(match(id, location: edge == q ? "boundary" : "interior", edge: edge, from: p))
        }
        var nearest: Match?
        var hint: (layer: String, features: [String])?
        if ids.isEmpty {
            let boundaries = self.boundaries
            if let id = try tree.nearest(to: q, distance: { (try? boundaries[$0].distance(to: q)) ?? .infinity }) {
                nearest = match(id, location: "exterior", edge: try boundaries[id].nearestPoint(to: q), from: p)
            }
            hint = swapHint(for: p)
        }
        return Answer(inside: inside, nearest: nearest, swapHint: hint)
    }

    func match(_ id: Int, location: String, edge: Point, from p: Point) -> Match {
        let edgePoint = Point(x: edge.x / scale.metresPerDegreeX, y: edge.y / scale.metresPerDegreeY)
        let metres = geodesic.inverse(from: p, to: edgePoint).distance
        let feature = layer.features[id]
        return Match(
            id: feature.id, name: feature.name, location: location, distance: (metres * 100).rounded() / 100,
            edgePoint: edgePoint)
    }

    /// The same rule as geoq's: swapped numbers that are a valid position in some layer's box
    /// are looked up there (covers through geoq's index: the hint is not what is measured).
    func swapHint(for p: Point) -> (layer: String, features: [String])? {
        guard p.x != p.y, let swapped = try? p.swapped.validatedGeographic() else { return nil }
        for candidate in [layer] + others where candidate.index.boundingBox.contains(swapped) {
            let items = candidate.index.covering(swapped)
            if !items.isEmpty {
                return (candidate.name, items.map { candidate.features[$0].name ?? candidate.features[$0].id })
            }
        }
        return nil
    }
}
