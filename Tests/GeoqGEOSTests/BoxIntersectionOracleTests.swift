import GeoqCore
import GeoqGEOS
import GeoqLayers
import GeoqQuery
import GeoqTestSupport
import Testing

/// `Geometry.intersects(_: BoundingBox)` against GEOS's `intersects` with the box's polygon, on
/// the real layers: seeded boxes of every size, from a few metres (often between features, or
/// wholly inside one) to the whole layer, and boxes whose edge lies exactly on a vertex (a
/// feature that only touches the box meets it).
@Suite struct BoxIntersectionOracleTests {
    @Test(arguments: ["pamplona-sectors", "valencia-barrios", "pamplona-restricted-access"])
    func agreesWithGEOS(name: String) throws {
        let features = try LayerLoader().load(name, from: try GEOSOracleTests.catalog()).features
        let context = GEOSContext()
        let geometries = try features.map { try context.makeGeometry($0.geometry) }
        let all = features.reduce(BoundingBox.empty) { $0.union($1.geometry.boundingBox) }
        var rng = SeededRandom(seed: 41)
        var boxes: [BoundingBox] = []
        for size in [0.0001, 0.001, 0.01, 0.05] {
            for _ in 0..<60 {
                let x = rng.uniform(all.minX...all.maxX)
                let y = rng.uniform(all.minY...all.maxY)
                boxes.append(BoundingBox(minX: x, minY: y, maxX: x + size, maxY: y + size * 0.7))
            }
        }
        // A box's edge through a vertex of a feature, from either side.
        for feature in features.prefix(40) {
            let corner = feature.geometry.boundingBox
            boxes.append(BoundingBox(minX: corner.maxX, minY: corner.minY, maxX: corner.maxX + 0.01, maxY: corner.maxY))
            boxes.append(BoundingBox(minX: corner.minX - 0.01, minY: corner.minY, maxX: corner.minX, maxY: corner.maxY))
        }
        boxes.append(all)
        var disagreements: [String] = []
        var met = 0
        for box in boxes {
            let ring = try Ring([
                Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY), Point(x: box.maxX, y: box.maxY),
                Point(x: box.minX, y: box.maxY), Point(x: box.minX, y: box.minY),
            ])
            let boxGeometry = try context.makePolygon(Polygon(shell: ring))
            for (index, feature) in features.enumerated() {
                let expected = try context.intersects(geometries[index], boxGeometry)
                if expected { met += 1 }
                if feature.geometry.intersects(box) != expected {
                    disagreements.append("\(feature.id) with \(box): GEOS \(expected)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        #expect(met > boxes.count / 2, "the boxes must meet features, or the comparison says little")
    }

    @Test func touchingCountsAndNearMissDoesNot() throws {
        let square = Geometry.polygon(
            Polygon(
                shell: try Ring([
                    Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1), Point(x: 0, y: 0),
                ])))
        #expect(square.intersects(BoundingBox(minX: 1, minY: 0.5, maxX: 2, maxY: 2)))
        #expect(!square.intersects(BoundingBox(minX: 1.0.nextUp, minY: 0, maxX: 2, maxY: 2)))
        #expect(square.intersects(BoundingBox(minX: 0.4, minY: 0.4, maxX: 0.6, maxY: 0.6)), "the box inside")
        let diagonal = Geometry.lineString([Point(x: 0, y: 0), Point(x: 2, y: 2)])
        #expect(!diagonal.intersects(BoundingBox(minX: 1.5, minY: 0, maxX: 2, maxY: 1)))
        #expect(diagonal.intersects(BoundingBox(minX: 1, minY: 0, maxX: 2, maxY: 1)), "through the corner (1, 1)")
    }
}
