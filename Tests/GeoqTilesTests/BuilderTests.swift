import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

/// Features in longitude and latitude through projection, clipping, simplification, rounding and
/// winding. Tile 0/0/0 with extent 4096 makes hand-worked values easy: longitude 0 is x = 2048,
/// latitude 0 is y = 2048, and longitude ±90 is x = 1024 / 3072.
@Suite struct BuilderTests {
    static let world = try! TileID(z: 0, x: 0, y: 0)

    static func build(_ geometry: Geometry, options: TileEncodingOptions = TileEncodingOptions())
        -> TileFeatureBuilder.Outcome
    {
        var builder = TileFeatureBuilder(tile: world, options: options)
        return builder.build(Feature(id: "f", geometry: geometry))
    }

    static func geometry(_ outcome: TileFeatureBuilder.Outcome) -> TileGeometry? {
        if case .feature(let f) = outcome { return f.geometry }
        return nil
    }

    /// A square of ±45° longitude, given counter-clockwise on the map (east then north) and
    /// clockwise: on the grid (y down) both come out with positive area.
    @Test(arguments: [false, true])
    func exteriorWinding(reversed: Bool) throws {
        var corners = [(-45.0, -20.0), (45.0, -20.0), (45.0, 20.0), (-45.0, 20.0)]
        if reversed { corners.reverse() }
        let g = try #require(Self.geometry(Self.build(.polygon(Polygon(shell: ring(corners))))))
        #expect(g.kind == .polygon && g.partCount == 1)
        #expect(doubleArea(g.points[g.range(ofPart: 0)]) > 0)
        #expect(Set(g.points.map(\.x)) == [1536, 2560])
    }

    /// Holes come out negative whichever way they were given; each exterior is followed by its
    /// holes in a multipolygon.
    @Test(arguments: [false, true])
    func holeWinding(reversed: Bool) throws {
        var hole = [(-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0)]
        if reversed { hole.reverse() }
        let first = Polygon(shell: ring([(-45, -40), (45, -40), (45, 40), (-45, 40)]), holes: [ring(hole)])
        let second = Polygon(shell: ring([(100, 10), (100, 30), (120, 30), (120, 10)]))
        let g = try #require(Self.geometry(Self.build(.multiPolygon(MultiPolygon([first, second])))))
        let areas = (0..<g.partCount).map { doubleArea(g.points[g.range(ofPart: $0)]) }
        #expect(areas.count == 3)
        #expect(areas[0] > 0 && areas[1] < 0 && areas[2] > 0)
        #expect((0..<3).map { g.signedDoubleArea(ofPart: $0) } == areas)
        // The hole is the square of ±10°: x = 4096 × 170/360 = 1934.2 and 4096 × 190/360 = 2161.8;
        // y = 4096 × (1/2 ∓ ln((1 + sin 10°) / (1 - sin 10°)) / 4π) = 1933.6 and 2162.4.
        #expect(
            Set(g.points[g.range(ofPart: 1)]) == Set(grid([(1934, 1934), (2162, 1934), (2162, 2162), (1934, 2162)])))
    }

    /// A polygon larger than the tile: the buffered square, corners in the grid.
    @Test func polygonLargerThanTile() throws {
        let tile = try TileID(z: 10, x: 500, y: 300)
        var builder = TileFeatureBuilder(tile: tile)
        let big = Polygon(shell: ring([(-170, -80), (170, -80), (170, 80), (-170, 80)]))
        let f = try #require(built(builder.build(Feature(id: "1", geometry: .polygon(big)))), "dropped")
        #expect(Set(f.geometry.points) == Set(grid([(-64, -64), (4160, -64), (4160, 4160), (-64, 4160)])))
        #expect(f.geometry.points.count == 4)
        #expect(f.geometry.signedDoubleArea(ofPart: 0) == 2 * 4224 * 4224)
    }

    /// A hole that falls outside the buffered square goes; the exterior stays.
    @Test func holeOutsideTheTile() throws {
        let tile = try TileID(z: 1, x: 0, y: 0)  // the north-west quarter: x = 0 at -180, 4096 at 0
        var builder = TileFeatureBuilder(tile: tile)
        let polygon = Polygon(
            shell: ring([(-170, 10), (60, 10), (60, 60), (-170, 60)]),
            holes: [ring([(30, 20), (50, 20), (50, 30), (30, 30)])])
        let g = try #require(Self.geometry(builder.build(Feature(id: "1", geometry: .polygon(polygon)))))
        #expect(g.partCount == 1)
    }

    /// Too small to draw: a polygon that rounds into less than a unit, a line that rounds to one
    /// point; and outside: features beyond the buffer.
    @Test func tooSmallAndOutside() {
        let tiny = Polygon(shell: ring([(0, 0), (0.01, 0), (0.01, 0.01), (0, 0.01)]))
        #expect(Self.build(.polygon(tiny)) == .tooSmall)
        #expect(Self.build(.lineString([Point(x: 0, y: 0), Point(x: 0.01, y: 0.01)])) == .tooSmall)
        var builder = TileFeatureBuilder(tile: try! TileID(z: 2, x: 0, y: 0))
        let far = Feature(id: "x", geometry: .point(Point(x: 100, y: -60)))
        #expect(builder.build(far) == .outside)
        // A 1024 × 1 sliver (latitude 0.09° is about 1.02 units) stays under a minimum area of
        // 1000 square units and goes under one of 2000.
        let sliver = Polygon(shell: ring([(0, 0), (90, 0), (90, 0.09), (0, 0.09)]))
        #expect(Self.geometry(Self.build(.polygon(sliver), options: TileEncodingOptions(minimumRingArea: 1000))) != nil)
        #expect(Self.build(.polygon(sliver), options: TileEncodingOptions(minimumRingArea: 2000)) == .tooSmall)
    }

    /// Douglas–Peucker by hand: of (0,0) (1,0.4) (2,-0.3) (3,5) (4,6) (5,7), tolerance 1 keeps
    /// (0,0), (3,5) — farthest from the chord — then (5,7); the others lie within 1 of their chords.
    @Test func douglasPeucker() {
        let line = [
            Point(x: 0, y: 0), Point(x: 1, y: 0.4), Point(x: 2, y: -0.3), Point(x: 3, y: 5), Point(x: 4, y: 6),
            Point(x: 5, y: 7),
        ]
        #expect(
            TileSimplifier.simplify(line: line, tolerance: 1) == [
                Point(x: 0, y: 0), Point(x: 2, y: -0.3), Point(x: 3, y: 5), Point(x: 5, y: 7),
            ])
        #expect(TileSimplifier.simplify(line: line, tolerance: 0) == line)
        #expect(TileSimplifier.simplify(line: line, tolerance: 100) == [line[0], line[5]])
    }

    /// Repeated points, collinear points and a spike go; the corners stay.
    @Test func ringReduction() {
        var points = grid([(0, 0), (5, 0), (10, 0), (10, 0), (10, 10), (10, 20), (10, 10), (0, 10), (0, 5)])
        GridGeometry.reduceRing(&points, from: 0)
        #expect(
            points == grid([(10, 0), (10, 10), (0, 10), (0, 0)])
                || points == grid([(0, 0), (10, 0), (10, 10), (0, 10)]))
        var flat = grid([(0, 0), (5, 0), (10, 0), (5, 0)])
        GridGeometry.reduceRing(&flat, from: 0)
        #expect(flat.isEmpty)
    }

    /// A dense line simplified at tolerance 1 keeps fewer points than at 0, never more.
    @Test func simplificationReducesVertices() throws {
        var random = SeededRandom(seed: 3)
        var line: [Point] = []
        for i in 0..<2000 {
            line.append(Point(x: -40 + Double(i) * 0.04, y: Double.random(in: -0.01...0.01, using: &random)))
        }
        let simplified = try #require(Self.geometry(Self.build(.lineString(line))))
        let full = try #require(
            Self.geometry(Self.build(.lineString(line), options: TileEncodingOptions(simplificationTolerance: 0))))
        #expect(simplified.points.count < full.points.count)
        #expect(simplified.points.first == full.points.first && simplified.points.last == full.points.last)
    }

    /// Attributes: properties in key order, nulls left out, numbers as int / sint / double, then
    /// name and id; the MVT id only for decimal ids.
    @Test func attributes() throws {
        var builder = TileFeatureBuilder(tile: Self.world)
        let feature = Feature(
            id: "42", name: "Plaza del Castillo", geometry: .point(Point(x: -1.6432, y: 42.8169)),
            properties: [
                "b": .number(-3), "a": .number(7), "c": .number(2.5), "d": .null, "e": .bool(false),
                "f": .number(1e300), "g": .string("x"),
            ])
        let f = try #require(built(builder.build(feature)), "dropped")
        #expect(f.id == 42)
        #expect(f.attributes.map(\.key) == ["a", "b", "c", "e", "f", "g", "name", "id"])
        #expect(
            f.attributes.map(\.value) == [
                .int(7), .sint(-3), .double(2.5), .bool(false), .double(1e300), .string("x"),
                .string("Plaza del Castillo"), .string("42"),
            ])
        #expect(TileFeatureBuilder.numericID("007") == 7)
        #expect(TileFeatureBuilder.numericID("-1") == nil)
        #expect(TileFeatureBuilder.numericID("+1") == nil)
        #expect(TileFeatureBuilder.numericID("18446744073709551616") == nil)
        #expect(TileFeatureBuilder.numericID("abc") == nil)
        #expect(TileValue(.number(9_007_199_254_740_992)) == .double(9_007_199_254_740_992))
        #expect(TileValue(.number(9_007_199_254_740_991)) == .int(9_007_199_254_740_991))
        // A property named "name" or "id" wins over the feature's.
        let own = Feature(
            id: "a1", name: "N", geometry: .point(Point(x: 0, y: 0)),
            properties: ["name": .string("P"), "id": .number(5)])
        let g = try #require(built(builder.build(own)), "dropped")
        #expect(g.id == nil)
        #expect(g.attributes.map(\.key) == ["id", "name"])
        #expect(g.attributes.map(\.value) == [.int(5), .string("P")])
    }
}
