import GeoqCore
import GeoqTestSupport
import Testing

/// Douglas–Peucker against cases worked by hand (planar metric) and, on seeded random lines,
/// against its own promise: every dropped position lies within the tolerance of the kept
/// segment that replaced it.
@Suite struct DouglasPeuckerTests {
    static func points(_ pairs: [(Double, Double)]) -> [Point] { pairs.map { Point(x: $0.0, y: $0.1) } }

    /// (0,0) (1,0.5) (2,0) (3,0): (1,0.5) is 0.5 from the chord; then (2,0) is
    /// |2·(-0.5) - (-0.5)·1| / √4.25 = 0.2425 from (1,0.5)-(3,0).
    @Test(arguments: [(0.6, [0, 3]), (0.4, [0, 1, 3]), (0.2, [0, 1, 2, 3])])
    func handWorkedLine(tolerance: Double, kept: [Int]) {
        let line = Self.points([(0, 0), (1, 0.5), (2, 0), (3, 0)])
        #expect(DouglasPeucker.keptIndices(line, tolerance: tolerance, metric: .planar) == kept)
    }

    /// From (0,0) the farthest is (4,4); then (4,0) is 2.83 from (0,0)-(4,4) and (0,4) too;
    /// (2,0.05) is 0.05 from (0,0)-(4,0): dropped, the square stays closed.
    @Test func ringDropsTheSmallBumpAndStaysClosed() throws {
        let ring = try Ring(Self.points([(0, 0), (2, 0.05), (4, 0), (4, 4), (0, 4), (0, 0)]))
        let simplified = DouglasPeucker.simplify(ring, tolerance: 0.1, metric: .planar)
        #expect(simplified.points.array == Self.points([(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)]))
    }

    /// A 10 × 0.01 sliver at tolerance 1 would keep (0,0) (10,0.01) (0,0): 3 positions, so it
    /// is returned as it was.
    @Test func aRingThatWouldCollapseIsKept() throws {
        let ring = try Ring(Self.points([(0, 0), (10, 0), (10, 0.01), (0, 0.01), (0, 0)]))
        #expect(DouglasPeucker.simplify(ring, tolerance: 1, metric: .planar) == ring)
    }

    /// The bump (5,10.2) on the square's top is 0.2 from the top edge; a hole inside the bump
    /// would end up outside the simplified shell, so the polygon is kept; without the hole the
    /// shell loses the bump.
    @Test func aHoleThatWouldLeaveItsShellKeepsThePolygon() throws {
        let shell = try Ring(Self.points([(0, 0), (10, 0), (10, 10), (5, 10.2), (0, 10), (0, 0)]))
        let hole = try Ring(Self.points([(4.9, 10.05), (5.1, 10.05), (5, 10.1), (4.9, 10.05)]))
        let withHole = Polygon(shell: shell, holes: [hole])
        #expect(withHole.locate(Point(x: 5, y: 10.07)) == .exterior)  // the hole is a hole
        #expect(DouglasPeucker.simplify(withHole, tolerance: 0.5, metric: .planar) == withHole)
        let alone = DouglasPeucker.simplify(Polygon(shell: shell), tolerance: 0.5, metric: .planar)
        #expect(alone.shell.points.array == Self.points([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]))
    }

    @Test func endsAndShortLinesAreKept() {
        let two = Self.points([(0, 0), (5, 5)])
        #expect(DouglasPeucker.simplify(two, tolerance: 100, metric: .planar) == two)
        #expect(DouglasPeucker.keptIndices(two + two, tolerance: -1, metric: .planar) == [0, 1, 2, 3])
    }

    /// Random walks near Pamplona (degrees), tolerances in metres in the local plane: the ends
    /// are kept, indices ascend, every dropped position is within the tolerance of the kept
    /// segment that replaced it.
    @Test func droppedPositionsAreWithinTheTolerance() {
        var rng = SeededRandom(seed: 20_260_311)
        let metric = LocalMetric(wgs84AtLatitude: 42.81)
        for _ in 0..<200 {
            var position = Point(x: -1.64, y: 42.81)
            var line = [position]
            for _ in 0..<Int(rng.uniform(2...400)) {
                position.x += rng.uniform(-0.0005...0.0005)
                position.y += rng.uniform(-0.0004...0.0004)
                line.append(position)
            }
            let tolerance = rng.uniform(0...60)
            let kept = DouglasPeucker.keptIndices(line, tolerance: tolerance, metric: metric)
            #expect(kept.first == 0 && kept.last == line.count - 1)
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
            for (from, to) in zip(kept, kept.dropFirst()) where to - from > 1 {
                let segment = Segment(line[from], line[to])
                for index in (from + 1)..<to {
                    #expect(metric.closestPoint(on: segment, to: line[index]).distance <= tolerance)
                }
            }
            // Nothing kept between the ends: everything was within the tolerance of the chord.
            if kept == [0, line.count - 1] {
                let chord = Segment(line[0], line[line.count - 1])
                #expect(line.allSatisfy { metric.closestPoint(on: chord, to: $0).distance <= tolerance })
            }
        }
    }
}
