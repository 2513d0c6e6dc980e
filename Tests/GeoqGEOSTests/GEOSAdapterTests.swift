import GeoqCore
import GeoqGEOS
import GeoqTestSupport
import Testing

/// The GEOS adapter: conversions both ways, predicates with their boundary policy, validity,
/// prepared geometries and the STRtree, each against values worked out by hand or by brute force.
@Suite struct GEOSAdapterTests {
    let context = GEOSContext()

    private func ring(_ xy: [(Double, Double)]) throws -> Ring {
        try Ring(xy.map { Point(x: $0.0, y: $0.1) })
    }

    // MARK: WKT <-> core

    @Test func polygonWithHoleRoundTripsThroughWKTAndCore() throws {
        // Real-world coordinates with 8 decimals, so precision loss would show.
        let text =
            "POLYGON ((-1.64055444 42.82286255, -1.6353 42.8229, -1.6353 42.8299, -1.64055444 42.82286255), "
            + "(-1.638 42.824, -1.637 42.825, -1.6365 42.824, -1.638 42.824))"
        let expected = Geometry.polygon(
            Polygon(
                shell: try ring([
                    (-1.64055444, 42.82286255), (-1.6353, 42.8229), (-1.6353, 42.8299), (-1.64055444, 42.82286255),
                ]),
                holes: [try ring([(-1.638, 42.824), (-1.637, 42.825), (-1.6365, 42.824), (-1.638, 42.824)])]))

        let parsed = try context.readWKT(text)
        #expect(try parsed.typeName == "Polygon")
        #expect(try parsed.toCore() == expected)

        let rebuilt = try context.makeGeometry(expected)
        #expect(try rebuilt.wkt == text)
        #expect(try rebuilt.toCore() == expected)
    }

    @Test func multiPolygonRoundTripsThroughWKTAndCore() throws {
        let text =
            "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2)), ((20 20, 30 20, 25 28.5, 20 20)))"
        let expected = Geometry.multiPolygon(
            MultiPolygon([
                Polygon(
                    shell: try ring([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]),
                    holes: [try ring([(2, 2), (2, 4), (4, 4), (4, 2), (2, 2)])]),
                Polygon(shell: try ring([(20, 20), (30, 20), (25, 28.5), (20, 20)])),
            ]))
        let parsed = try context.readWKT(text)
        #expect(try parsed.typeName == "MultiPolygon")
        #expect(try parsed.toCore() == expected)
        let rebuilt = try context.makeGeometry(expected)
        #expect(try rebuilt.wkt == text)
        #expect(try context.makeMultiPolygon(expected.areal!).wkt == text)
    }

    @Test(arguments: [
        ("POINT (3.5 -7.25)", Geometry.point(Point(x: 3.5, y: -7.25))),
        // GEOS 3.11 writes multipoints without the inner parentheses (and reads both forms).
        ("MULTIPOINT (1 2, 3 4)", .multiPoint([Point(x: 1, y: 2), Point(x: 3, y: 4)])),
        ("LINESTRING (0 0, 1 1, 2 0)", .lineString([Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 0)])),
        (
            "MULTILINESTRING ((0 0, 1 1), (5 5, 6 6, 7 5))",
            .multiLineString([
                [Point(x: 0, y: 0), Point(x: 1, y: 1)], [Point(x: 5, y: 5), Point(x: 6, y: 6), Point(x: 7, y: 5)],
            ])
        ),
    ])
    func pointsAndLinesRoundTrip(text: String, expected: Geometry) throws {
        #expect(try context.readWKT(text).toCore() == expected)
        #expect(try context.makeGeometry(expected).wkt == text)
    }

    @Test func zIsDroppedAndEmptyPartsAreLeftOut() throws {
        #expect(try context.readWKT("POINT Z (1 2 3)").toCore() == .point(Point(x: 1, y: 2)))
        #expect(
            try context.readWKT("LINESTRING Z (0 0 1, 1 1 2)").toCore()
                == .lineString([Point(x: 0, y: 0), Point(x: 1, y: 1)]))
        let partlyEmpty = try context.readWKT("MULTIPOLYGON (EMPTY, ((0 0, 1 0, 1 1, 0 0)))")
        #expect(
            try partlyEmpty.toCore()
                == .multiPolygon(MultiPolygon([Polygon(shell: try ring([(0, 0), (1, 0), (1, 1), (0, 0)]))])))
    }

    @Test(arguments: ["POINT EMPTY", "POLYGON EMPTY", "MULTIPOLYGON EMPTY", "GEOMETRYCOLLECTION (POINT (1 2))"])
    func geometriesWithoutCoreFormThrow(text: String) throws {
        let g = try context.readWKT(text)
        #expect(throws: GEOSError.self) { try g.toCore() }
    }

    @Test func errorsCarryGEOSMessages() throws {
        let parse = #expect(throws: GEOSError.self) { try context.readWKT("POLYGON ((0 0, 1 1") }
        #expect(parse?.operation == "readWKT")
        #expect(parse?.message.contains("ParseException") == true)
        // GEOS checks what the core does not: a line needs 0 or at least 2 positions.
        let line = #expect(throws: GEOSError.self) { try context.makeGeometry(.lineString([Point(x: 1, y: 1)])) }
        #expect(line?.message.contains("IllegalArgumentException") == true)
        // The message is consumed: a later success does not inherit it, a later failure has its own.
        #expect(try context.readWKT("POINT (1 1)").typeName == "Point")
        let again = #expect(throws: GEOSError.self) { try context.readWKT("NOT WKT") }
        #expect(again?.message.contains("ParseException") == true)
        #expect(again?.message.contains("point array") == false)
    }

    // MARK: Predicates

    @Test func pointOnEdgeIsCoveredButNotContained() throws {
        let square = try context.readWKT("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))")
        let onEdge = try context.makePoint(Point(x: 10, y: 5))
        let inside = try context.makePoint(Point(x: 5, y: 5))
        let outside = try context.makePoint(Point(x: 13, y: 14))

        #expect(try context.covers(square, onEdge))
        #expect(try !context.contains(square, onEdge))
        #expect(try context.coveredBy(onEdge, square))
        #expect(try !context.within(onEdge, square))
        #expect(try context.touches(square, onEdge))
        #expect(try context.intersects(square, onEdge))
        #expect(try !context.disjoint(square, onEdge))
        // DE-9IM worked out by hand, rows I, B, E of the square against I, B, E of the point:
        // the point meets only the square's boundary (0); the square's interior (2) and
        // boundary minus the point (1) lie in the point's exterior.
        #expect(try context.relate(square, onEdge) == "FF20F1FF2")

        #expect(try context.contains(square, inside))
        #expect(try context.covers(square, inside))
        #expect(try !context.touches(square, inside))
        #expect(try context.relate(square, inside) == "0F2FF1FF2")

        #expect(try context.disjoint(square, outside))
        #expect(try !context.covers(square, outside))
        // Nearest point of the square to (13 14) is the corner (10 10): a 3-4-5 triangle.
        #expect(try context.distance(square, outside) == 5)
        #expect(try context.distance(square, try context.makePoint(Point(x: 13, y: 9))) == 3)
        #expect(try context.distance(square, inside) == 0)
    }

    // MARK: Validity

    @Test func bowTieIsInvalidAtItsCrossing() throws {
        let bowTie = try context.readWKT("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        guard case .invalid(let reason, let location) = context.validity(of: bowTie) else {
            Issue.record("a bow-tie must be invalid")
            return
        }
        #expect(reason.contains("Self-intersection"))
        // The diagonals (0 0)-(10 10) and (10 0)-(0 10) cross at (5 5).
        #expect(location == Point(x: 5, y: 5))

        #expect(context.validity(of: try context.readWKT("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))")) == .valid)

        // Repaired: two triangles of base 10 and height 5, area 25 each.
        let repaired = try context.makeValid(bowTie)
        #expect(context.validity(of: repaired) == .valid)
        let parts = try #require(try repaired.toCore().areal).polygons
        #expect(parts.count == 2)
        #expect(parts.map { abs($0.shell.signedDoubleArea) / 2 } == [25, 25])
    }

    @Test func holeOutsideShellIsInvalid() throws {
        let g = try context.readWKT("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (20 20, 21 20, 21 21, 20 20))")
        guard case .invalid(let reason, _) = context.validity(of: g) else {
            Issue.record("a hole outside its shell must be invalid")
            return
        }
        #expect(reason.contains("Hole lies outside shell"))
    }

    // MARK: Prepared geometries

    @Test func preparedPredicatesAgreeWithPlainOnes() throws {
        let polygon = try context.readWKT(
            "POLYGON ((0 0, 10 0, 12 6, 10 10, 4 9, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2))")
        let prepared = try context.prepare(polygon)
        var random = SeededRandom(seed: 0x6E05)
        var positions: [Point] = [
            Point(x: 5, y: 0), Point(x: 0, y: 5), Point(x: 3, y: 2), Point(x: 2, y: 3),  // edges
            Point(x: 12, y: 6), Point(x: 2, y: 2), Point(x: 4, y: 9),  // vertices
            Point(x: 3, y: 3),  // inside the hole
        ]
        for _ in 0..<2_000 {
            // Half the points snapped to a 0.5 grid, so many fall exactly on edges and vertices.
            var p = Point(x: random.uniform(-2...14), y: random.uniform(-2...12))
            if positions.count.isMultiple(of: 2) { p = Point(x: (p.x * 2).rounded() / 2, y: (p.y * 2).rounded() / 2) }
            positions.append(p)
        }
        var covered = 0
        var onBoundary = 0
        for p in positions {
            let g = try context.makePoint(p)
            let covers = try context.covers(polygon, g)
            let contains = try context.contains(polygon, g)
            #expect(try prepared.covers(g) == covers, "covers \(p)")
            #expect(try prepared.covers(p) == covers, "covers(Point) \(p)")
            #expect(try prepared.contains(g) == contains, "contains \(p)")
            #expect(try prepared.intersects(g) == context.intersects(polygon, g), "intersects \(p)")
            if covers { covered += 1 }
            if covers && !contains { onBoundary += 1 }
        }
        // The sample must exercise all three outcomes, boundary included.
        #expect(covered > 500 && covered < positions.count - 500)
        #expect(onBoundary >= 20)
    }

    // MARK: STRtree

    @Test func strtreePointQueriesMatchBruteForce() throws {
        var random = SeededRandom(seed: 20_251_122)
        var boxes: [BoundingBox] = []
        for i in 0..<3_000 {
            let x = random.uniform(0...100)
            let y = random.uniform(0...100)
            // Every 50th box is degenerate (a point or a segment); sizes otherwise up to 8 x 8.
            let w = i.isMultiple(of: 50) ? 0 : random.uniform(0...8)
            let h = i.isMultiple(of: 100) ? 0 : random.uniform(0...8)
            boxes.append(BoundingBox(minX: x, minY: y, maxX: x + w, maxY: y + h))
        }
        let tree = try GEOSSTRtree(
            context: context, items: boxes.enumerated().map { (box: $1, id: $0) }, nodeCapacity: 10)
        #expect(tree.count == boxes.count)

        var queries: [Point] = (0..<1_000).map { _ in Point(x: random.uniform(-5...110), y: random.uniform(-5...110)) }
        // Corners and edge midpoints of some boxes: the boxes are closed, so these must match.
        for b in boxes.prefix(100) {
            queries.append(Point(x: b.minX, y: b.minY))
            queries.append(Point(x: b.maxX, y: b.maxY))
            queries.append(Point(x: b.maxX, y: (b.minY + b.maxY) / 2))
        }
        var totalHits = 0
        for q in queries {
            var found: [Int] = []
            try tree.query(q) { found.append($0) }
            let expected = boxes.indices.filter { boxes[$0].contains(q) }
            #expect(found.sorted() == expected, "query \(q)")
            totalHits += found.count
        }
        #expect(totalHits > 1_000)  // the test is not vacuous

        // Queries by a geometry's envelope: ids whose boxes intersect the window.
        for _ in 0..<200 {
            let x = random.uniform(-5...105)
            let y = random.uniform(-5...105)
            let window = BoundingBox(minX: x, minY: y, maxX: x + random.uniform(0...6), maxY: y + random.uniform(0...6))
            let polygon = Polygon(
                shell: try ring([
                    (window.minX, window.minY), (window.maxX, window.minY), (window.maxX, window.maxY),
                    (window.minX, window.maxY), (window.minX, window.minY),
                ]))
            var found: [Int] = []
            try tree.query(try context.makePolygon(polygon)) { found.append($0) }
            #expect(found.sorted() == boxes.indices.filter { boxes[$0].intersects(window) })
        }
    }

    @Test func strtreeOverGeometriesFindsCandidatesForExactTests() throws {
        // Three squares side by side; id 0 is stored as a null pointer in GEOS and must come back.
        let squares = try (0..<3).map { i in
            try context.readWKT(
                "POLYGON ((\(i * 10) 0, \(i * 10 + 10) 0, \(i * 10 + 10) 10, \(i * 10) 10, \(i * 10) 0))")
        }
        let tree = try GEOSSTRtree(context: context, items: squares.enumerated().map { (geometry: $1, id: $0) })
        func ids(_ p: Point) throws -> [Int] {
            var found: [Int] = []
            try tree.query(p) { found.append($0) }
            return found.sorted()
        }
        #expect(try ids(Point(x: 5, y: 5)) == [0])
        #expect(try ids(Point(x: 10, y: 5)) == [0, 1])  // shared edge: both candidates
        #expect(try ids(Point(x: 30, y: 10)) == [2])  // corner
        #expect(try ids(Point(x: 31, y: 5)) == [])
        #expect(tree.count == 3)
    }

    @Test func strtreeSkipsEmptyBoxes() throws {
        let tree = try GEOSSTRtree(
            context: context,
            items: [(box: .empty, id: 7), (box: BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1), id: 8)])
        var found: [Int] = []
        try tree.query(Point(x: 0.5, y: 0.5)) { found.append($0) }
        #expect(found == [8])
        #expect(tree.count == 1)
    }
}
