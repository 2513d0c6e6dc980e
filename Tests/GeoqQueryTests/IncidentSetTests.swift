import Foundation
import GeoqCore
import GeoqIncidents
import GeoqTestSupport
import Testing

@testable import GeoqQuery

/// Incidents near a position: to a point, to the nearest point of a line, zero inside an area.
@Suite struct IncidentSetTests {
    static func incident(_ id: String, _ geometry: Geometry?) -> Incident {
        Incident(
            id: id, source: "test", type: nil, categories: [], title: id, link: nil, published: nil,
            description: "", geometry: geometry, seen: Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test func nearestFirstToEachKindOfGeometry() throws {
        let set = IncidentSet([
            Self.incident("line", .lineString([Point(x: 0.001, y: -0.001), Point(x: 0.001, y: 0.001)])),
            Self.incident("square", try rectangle(west: 0.002, south: 0.002, east: 0.003, north: 0.003)),
            Self.incident("none", nil),
            Self.incident("around", try rectangle(west: -0.001, south: -0.001, east: 0.001, north: 0.001)),
            Self.incident("points", .multiPoint([Point(x: 0, y: 0.004), Point(x: 0, y: -0.0005)])),
        ])
        let origin = Point(latitude: 0, longitude: 0)
        let hits = IncidentQuery(near: origin).run(set, geodesic: FlatWorld())
        // In the flat world (100 km to the degree): inside the area 0 m; the southern point 50 m
        // due south; the line's foot (0.001, 0) 100 m due east; the square's corner (0.002, 0.002)
        // √2 × 200 m to the north-east; the incident without a location last.
        #expect(hits.map(\.incident.id) == ["around", "points", "line", "square", "none"])
        #expect(hits[0].distanceMetres == 0)
        #expect(hits[1].distanceMetres == 50 && hits[1].bearing == 180)
        #expect(hits[2].distanceMetres == 100 && hits[2].bearing == 90)
        #expect(abs(hits[3].distanceMetres! - 200 * 2.0.squareRoot()) < 1e-9 && abs(hits[3].bearing! - 45) < 1e-9)
        #expect(hits[4].distanceMetres == nil)
        // Within 120 m: the incident without a location cannot be said to be near, so it goes.
        let near = IncidentQuery(near: origin, withinMetres: 120).run(set, geodesic: FlatWorld())
        #expect(near.map(\.incident.id) == ["around", "points", "line"])
    }

    /// The indexed search gives the point a scan of every segment in order gives, for random
    /// lines and areas around Zaragoza.
    @Test func theIndexFindsWhatAScanFinds() throws {
        var random = SeededRandom(seed: 0x1AC1_DE47)
        func point() -> Point {
            Point(
                x: -0.89 + .random(in: -0.02...0.02, using: &random),
                y: 41.65 + .random(in: -0.02...0.02, using: &random))
        }
        var incidents: [Incident] = []
        for i in 0..<200 {
            if i % 2 == 0 {
                let line = (0..<Int.random(in: 1...12, using: &random)).map { _ in point() }
                incidents.append(Self.incident("l\(i)", .lineString(line)))
            } else {
                let c = point(), r = Double.random(in: 0.0005...0.005, using: &random)
                incidents.append(
                    Self.incident("a\(i)", try rectangle(west: c.x - r, south: c.y - r, east: c.x + r, north: c.y + r)))
            }
        }
        let set = IncidentSet(incidents)
        var inside = 0
        for _ in 0..<300 {
            let p = point()
            let metric = LocalMetric(wgs84AtLatitude: p.y)
            for (i, incident) in incidents.enumerated() {
                let expected: Point
                switch incident.geometry {
                case .lineString(let line)?:
                    expected = Self.scan(line, to: p, metric: metric)
                case .polygon(let polygon)?:
                    let box = polygon.shell.points.array
                    let (xs, ys) = (box.map(\.x), box.map(\.y))
                    if (xs.min()!...xs.max()!).contains(p.x) && (ys.min()!...ys.max()!).contains(p.y) {
                        expected = p
                        inside += 1
                    } else {
                        expected = Self.scan(box, to: p, metric: metric)
                    }
                default: Issue.record("unexpected geometry"); continue
                }
                #expect(set.nearestPoint(of: i, to: p) == expected, "incident \(incident.id) from \(p)")
            }
        }
        #expect(inside > 100, "the points fall inside areas often enough to test that case")
    }

    /// The first nearest point over the segments in order, a single point as itself.
    static func scan(_ line: [Point], to p: Point, metric: LocalMetric) -> Point {
        if line.count == 1 { return line[0] }
        var best: (point: Point, distance: Double) = (p, .infinity)
        for (a, b) in zip(line, line.dropFirst()) {
            let c = metric.closestPoint(on: Segment(a, b), to: p)
            if c.distance < best.distance { best = c }
        }
        return best.point
    }
}
