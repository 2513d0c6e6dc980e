import Foundation
import GeoqFormats
import GeoqGEOS
import GeoqTestSupport
import Testing

@testable import GeoqCore

/// ``ValidityProof`` may say "valid" only where GEOS says valid: on crafted polygons, on every
/// polygon of the GEOS/JTS XML test suite and on Natural Earth's countries. Where it gives up,
/// GEOS decides; the crafted cases also pin down which common shapes it does prove.
@Suite struct ValidityProofTests {
    /// GEOS's verdict and the proof's on the polygon written as `wkt`.
    static func verdicts(_ wkt: String, context: GEOSContext) throws -> (geos: Bool, proof: Bool) {
        let geometry = try context.readWKT(wkt)
        let polygons = try geometry.toCore().areal?.polygons ?? []
        return (context.validity(of: geometry).isValid, ValidityProof.provesValid(polygons))
    }

    /// name, WKT, GEOS's verdict (as the OGC rules give it), whether the proof decides it.
    static let crafted: [(String, String, valid: Bool, proved: Bool)] = [
        ("square", "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))", true, true),
        ("clockwise square", "POLYGON((0 0, 0 4, 4 4, 4 0, 0 0))", true, true),
        ("triangle", "POLYGON((0 0, 4 0, 0 4, 0 0))", true, true),
        ("extra vertices on straight sides", "POLYGON((0 0, 2 0, 4 0, 4 2, 4 4, 2 2, 0 0))", true, true),
        ("extra vertex on a slanted side", "POLYGON((0 0, 1 1, 3 3, 0 3, 0 0))", true, true),
        ("hole inside", "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2, 4 4, 2 4, 2 2))", true, true),
        (
            "two holes side by side",
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 3 1, 3 3, 1 3, 1 1), (5 5, 7 5, 7 7, 5 7, 5 5))", true, true
        ),
        ("hole outside the shell", "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (6 6, 8 6, 8 8, 6 8, 6 6))", false, false),
        ("hole crossing the shell", "POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (3 1, 5 1, 5 3, 3 3, 3 1))", false, false),
        (
            "hole touching the shell at one point",
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (0 5, 4 3, 4 7, 0 5))", true, false
        ),
        (
            "hole touching the shell at two points",
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (0 5, 5 0, 5 5, 0 5))", false, false
        ),
        (
            "nested holes",
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 9 1, 9 9, 1 9, 1 1), (3 3, 5 3, 5 5, 3 5, 3 3))", false,
            false
        ),
        (
            "two holes touching at a point",
            "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 5 1, 5 5, 1 5, 1 1), (5 5, 8 5, 8 8, 5 8, 5 5))", true,
            false
        ),
        ("bow tie", "POLYGON((0 0, 4 4, 4 0, 0 4, 0 0))", false, false),
        ("zigzag of chains joined at strict turns", "POLYGON((0 0, 1 2, 2 0, 3 2, 4 0, 4 5, 0 5, 0 0))", true, true),
        ("a chain crossing the one before it", "POLYGON((0 0, 4 0, 4 4, 2 -1, 0 0))", false, false),
        (
            "a crossing two chains past a strict turn",
            "POLYGON((0 0, 4 0, 4 4, 1 1, 2 -1, 0 0))", false, false
        ),
        ("ring touching itself at a vertex", "POLYGON((0 0, 10 0, 5 5, 8 8, 2 8, 5 5, 0 10, 0 0))", false, false),
        ("shell touching itself along an edge", "POLYGON((0 0, 4 0, 4 4, 2 4, 2 0, 1 0, 1 5, 0 5, 0 0))", false, false),
        ("spike", "POLYGON((0 0, 4 0, 4 2, 6 2, 4 2, 4 4, 0 4, 0 0))", false, false),
        ("spike back along the closing edge", "POLYGON((0 0, 4 0, 4 4, 0 4, 0 -2, 0 0))", false, false),
        ("repeated point", "POLYGON((0 0, 4 0, 4 0, 4 4, 0 4, 0 0))", true, false),
        ("collapsed to a line", "POLYGON((0 0, 4 0, 2 0, 0 0))", false, false),
        ("two parts apart", "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 1, 0 0)), ((2 2, 3 2, 3 3, 2 3, 2 2)))", true, true),
        (
            "island in a lake",
            "MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2)), ((4 4, 6 4, 6 6, 4 6, 4 4)))",
            true, true
        ),
        ("nested shells", "MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0)), ((4 4, 6 4, 6 6, 4 6, 4 4)))", false, false),
        (
            "parts touching at a point", "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 1, 0 0)), ((1 1, 2 1, 2 2, 1 2, 1 1)))",
            true, false
        ),
        (
            "parts sharing an edge", "MULTIPOLYGON(((0 0, 1 0, 1 1, 0 1, 0 0)), ((1 0, 2 0, 2 1, 1 1, 1 0)))",
            false, false
        ),
        (
            "parts overlapping", "MULTIPOLYGON(((0 0, 2 0, 2 2, 0 2, 0 0)), ((1 1, 3 1, 3 3, 1 3, 1 1)))", false,
            false
        ),
    ]

    @Test func craftedPolygons() throws {
        let context = GEOSContext()
        for (name, wkt, valid, proved) in Self.crafted {
            let got = try Self.verdicts(wkt, context: context)
            #expect(got.geos == valid, "\(name): GEOS says \(got.geos ? "valid" : "invalid")")
            #expect(got.proof == proved, "\(name): the proof \(got.proof ? "decides" : "gives up")")
            #expect(!got.proof || got.geos, "\(name): proved valid but GEOS finds it invalid")
        }
    }

    /// A tall shape of many short monotone chains (a side zigzagging down between x = 0 and
    /// x = 1) and one chain its whole height (a slanted side, then straight up): the sweep cuts
    /// it into bands, and the long chain is compared with the zigzag in the band where they
    /// meet, far above the long chain's lowest band.
    @Test func tallShapesAreSweptInBands() throws {
        let zigzag = stride(from: 200, through: 0, by: -1).map { y in "\(y % 2) \(y)" }
        func shape(reach: Int) -> String {
            let ring = ["100 0", "\(reach) 150", "\(reach) 201", "0 201"] + zigzag + ["100 0"]
            return "POLYGON((" + ring.joined(separator: ", ") + "))"
        }
        // Reaching past x = 0, the slanted side crosses the zigzag near y = 142, and nowhere else.
        // 202 chains: the long one 201 high, one 2 high at the top, 199 of the zigzag a unit
        // high, the bottom flat; bands are held to sixteen chains each.
        #expect(ValidityProof.sweepBands(chains: 202, height: 201, meanChainHeight: 402 / 202) == 12)
        let context = GEOSContext()
        let crossing = try Self.verdicts(shape(reach: -5), context: context)
        #expect(!crossing.geos && !crossing.proof)
        let apart = try Self.verdicts(shape(reach: 5), context: context)
        #expect(apart.geos && apart.proof)
    }

    /// A ring of many vertices around which the islands of a multipolygon sit, inside and outside
    /// its lakes: the proof asks the big rings through their stripe locators.
    @Test func manyIslandsAroundAndInsideLakes() throws {
        func ring(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int) -> String {
            let points = (0...n).map { k -> String in
                let a = 2 * Double.pi * Double(k % n) / Double(n)
                return "\(cx + r * cos(a)) \(cy + r * sin(a))"
            }
            return "(" + points.joined(separator: ", ") + ")"
        }
        let mainland = "(" + ring(0, 0, 100, 2000) + ", " + ring(30, 0, 10, 300) + ", " + ring(-30, 0, 10, 300) + ")"
        var parts = [mainland]
        for k in 0..<40 { parts.append("(" + ring(-300 + Double(k) * 15, 150, 5, 12) + ")") }
        for lake in [30.0, -30.0] {
            for dx in [-4.0, 0, 4] {
                for dy in [-4.0, 0, 4] { parts.append("(" + ring(lake + dx, dy, 1.5, 12) + ")") }
            }
        }
        let context = GEOSContext()
        let valid = try Self.verdicts("MULTIPOLYGON(" + parts.joined(separator: ", ") + ")", context: context)
        #expect(valid.geos && valid.proof)
        // The same with one island on the mainland instead of in a lake: nested shells.
        parts.append("(" + ring(0, 50, 3, 12) + ")")
        let nested = try Self.verdicts("MULTIPOLYGON(" + parts.joined(separator: ", ") + ")", context: context)
        #expect(!nested.geos && !nested.proof)
    }

    /// Whether ``ValidityProof/decide(_:)`` agrees with GEOS's verdict `valid` on `polygons`
    /// (`geometry` in GEOS): proved only if valid; for touching parts, GEOS on those parts
    /// alone gives the whole's verdict. Returns nil when it agrees, else what went wrong, and
    /// counts the decisions by touching parts.
    static func disagreement(
        _ polygons: [Polygon], valid: Bool, context: GEOSContext, touching: inout Int
    ) throws -> String? {
        switch ValidityProof.decide(polygons) {
        case .proved:
            return valid ? nil : "proved valid, invalid for GEOS"
        case .undecided:
            return nil
        case .validIfValid(let parts):
            touching += 1
            guard parts.count >= 2, Set(parts).count == parts.count, parts.allSatisfy(polygons.indices.contains)
            else { return "parts \(parts)" }
            let subset = Geometry.multiPolygon(MultiPolygon(parts.map { polygons[$0] }))
            let alone = context.validity(of: try context.makeGeometry(subset)).isValid
            return alone == valid ? nil : "parts \(parts) alone valid: \(alone), the whole: \(valid)"
        }
    }

    /// Islands that touch: the proof leaves GEOS only the parts whose boundaries meet, and the
    /// verdict on those is the whole's, valid or not; any other doubt still goes to GEOS whole.
    @Test func touchingPartsAloneGoToGEOS() throws {
        let context = GEOSContext()
        func square(_ x: Double, _ y: Double, _ size: Double = 1) -> String {
            "((\(x) \(y), \(x + size) \(y), \(x + size) \(y + size), \(x) \(y + size), \(x) \(y)))"
        }
        let cases: [(String, [String], ValidityProof.Decision, valid: Bool)] = [
            (
                "two squares touching at a corner, one apart", [square(0, 0), square(1, 1), square(5, 5)],
                .validIfValid(parts: [0, 1]), true
            ),
            (
                "two squares sharing a side", [square(0, 0), square(1, 0), square(5, 5)], .validIfValid(parts: [0, 1]),
                false
            ),
            (
                "an island in a lake touching its shore, and a part apart",
                [
                    "((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2))", "((2 2, 4 3, 3 4, 2 2))",
                    square(20, 20),
                ],
                .validIfValid(parts: [0, 1]), true
            ),
            (
                "a square inside another, two others touching",
                [square(0, 0, 10), square(2, 2), square(20, 20), square(21, 21)],
                .undecided(.ringNesting), false
            ),
            (
                "a hole touching its own shell",
                ["((0 0, 10 0, 10 10, 0 10, 0 0), (0 5, 4 3, 4 7, 0 5))", square(20, 20)],
                .undecided(.edgesMeet), true
            ),
            ("parts apart", [square(0, 0), square(2, 2)], .proved, true),
        ]
        for (name, parts, decision, valid) in cases {
            let geometry = try context.readWKT("MULTIPOLYGON(" + parts.joined(separator: ", ") + ")")
            let polygons = try geometry.toCore().areal?.polygons ?? []
            #expect(ValidityProof.decide(polygons) == decision, "\(name)")
            #expect(context.validity(of: geometry).isValid == valid, "\(name)")
            var touching = 0
            #expect(
                try Self.disagreement(polygons, valid: valid, context: context, touching: &touching) == nil, "\(name)")
        }
    }

    /// Every polygon and multipolygon of the GEOS/JTS XML suite (A and B of every case).
    @Test func geosXMLSuitePolygons() throws {
        let root = GEOSXMLSuiteTests.root
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".xml") }.sorted()
        #expect(files.count > 150)
        let context = GEOSContext()
        var seen = Set<String>()
        var (polygons, invalid, proved, touching) = (0, 0, 0, 0)
        var wrong: [String] = []
        for file in files {
            for c in try XMLCaseReader.cases(in: root.appendingPathComponent(file)) {
                for wkt in [c.a, c.b] where seen.insert(wkt).inserted {
                    let upper = wkt.uppercased()
                    guard upper.hasPrefix("POLYGON") || upper.hasPrefix("MULTIPOLYGON"),
                        let geometry = try? context.readWKT(wkt), let core = try? geometry.toCore(),
                        let areal = core.areal
                    else { continue }
                    polygons += 1
                    let valid = context.validity(of: geometry).isValid
                    let proof = ValidityProof.provesValid(areal.polygons)
                    if !valid { invalid += 1 }
                    if proof { proved += 1 }
                    if proof && !valid { wrong.append("\(file) case \(c.index): \(wkt.prefix(120))") }
                    if let why = try Self.disagreement(
                        areal.polygons, valid: valid, context: context, touching: &touching)
                    {
                        wrong.append("\(file) case \(c.index): \(why): \(wkt.prefix(120))")
                    }
                }
            }
        }
        print(
            "GEOS XML suite: \(polygons) distinct polygons, \(invalid) invalid for GEOS, \(proved) proved valid, "
                + "\(touching) left to GEOS by their touching parts")
        #expect(polygons > 1000, "polygons read: \(polygons)")
        #expect(invalid > 50, "invalid polygons read: \(invalid)")  // 64 in the suite as shipped
        #expect(proved > 100, "proved: \(proved)")
        #expect(wrong.isEmpty, "proved valid, invalid for GEOS:\n\(wrong.joined(separator: "\n"))")
    }

    static let naturalEarth = TestData.external("natural-earth/ne_10m_admin_0_countries_deu.shp")

    /// Natural Earth's 250 countries: GEOS finds one invalid (Egypt); the proof must not
    /// call it valid, and decides most of the others.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: naturalEarth.path),
            "Natural Earth is not fetched: run tools/fetch-benchmark-data.sh natural-earth"))
    func naturalEarthCountries() throws {
        let features = try ShapefileReader(options: ReadOptions(idField: "ADM0_A3")).read(at: Self.naturalEarth)
            .features
        let context = GEOSContext()
        var (invalid, proved, touching) = (0, 0, 0)
        for f in features {
            let valid = context.validity(of: try context.makeGeometry(f.geometry)).isValid
            let proof = ValidityProof.provesValid(f.geometry.areal?.polygons ?? [])
            if !valid { invalid += 1 }
            if proof { proved += 1 }
            #expect(!proof || valid, "\(f.id): proved valid, invalid for GEOS")
            let why = try Self.disagreement(
                f.geometry.areal?.polygons ?? [], valid: valid, context: context, touching: &touching)
            #expect(why == nil, "\(f.id): \(why ?? "")")
        }
        // The United States and Canada: islands that touch.
        #expect(touching == 2)
        #expect(features.count == 250)
        #expect(invalid == 1)
        #expect(proved >= 240, "proved \(proved) of 250")
    }
}
