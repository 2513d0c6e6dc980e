import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

/// A zoom's shapes made once (``GridShape``): passing over the runs beyond a side of a tile
/// changes no tile, and a shape's tile holds what its zoom's simplification left.
@Suite struct GridShapeTests {
    /// A seeded star of `corners` positions around (x, y) degrees, its radius wandering, with a
    /// hole of a third of its size: a ring large and ragged enough to cross many tiles and to
    /// leave runs beyond every side of them.
    static func star(x: Double, y: Double, radius: Double, corners: Int, seed: UInt64) -> Polygon {
        var random = SeededRandom(seed: seed)
        func ring(_ scale: Double, reversed: Bool) -> Ring {
            var r = 1.0
            var points = (0..<corners).map { i -> Point in
                r = Swift.min(Swift.max(r + Double.random(in: -0.08...0.08, using: &random), 0.6), 1.2)
                let angle = 2 * Double.pi * Double(i) / Double(corners)
                return Point(x: x + scale * radius * r * cos(angle), y: y + scale * radius * r * sin(angle) * 0.8)
            }
            if reversed { points.reverse() }
            return try! Ring(closing: points)
        }
        return Polygon(shell: ring(1, reversed: false), holes: [ring(0.3, reversed: true)])
    }

    /// Every tile of zooms 3 to 9 over two stars and a wandering line is the same, tile bytes
    /// and counts, whether runs beyond a side are passed over or not.
    @Test func passingOverRunsBeyondASideChangesNothing() throws {
        let polygon = Self.star(x: 10, y: 45, radius: 6, corners: 20_000, seed: 1)
        let small = Self.star(x: 14, y: 43, radius: 0.7, corners: 3_000, seed: 2)
        var random = SeededRandom(seed: 3)
        var walk = Point(x: 2, y: 40)
        let line = (0..<8_000).map { _ -> Point in
            walk = Point(
                x: walk.x + Double.random(in: -0.01...0.0125, using: &random),
                y: walk.y + Double.random(in: -0.01...0.0115, using: &random))
            return walk
        }
        let geometries: [Geometry] = [
            .multiPolygon(MultiPolygon([polygon, small])), .lineString(line), .polygon(small),
        ]
        var passedOver = 0
        for zoom in 3...9 {
            let scale = Double(4096 << zoom)
            let shapes = geometries.compactMap { ZoomGeometries.simplified($0, scale: scale) }
            #expect(shapes.count == 3)
            let extent = shapes.reduce(BoundingBox.empty) { $0.union($1.box) }
            let tilesPerSide = Double(1 << zoom)
            let first = (x: Int(extent.minX / 4096), y: Int(extent.minY / 4096))
            let last = (x: Int(extent.maxX / 4096), y: Int(extent.maxY / 4096))
            #expect(Double(last.x) < tilesPerSide)
            for x in first.x...last.x {
                for y in first.y...last.y {
                    let tile = try TileID(z: zoom, x: x, y: y)
                    let options = TileEncodingOptions(simplificationTolerance: 0)
                    var passing = TileFeatureBuilder(tile: tile, options: options)
                    var reading = TileFeatureBuilder(tile: tile, options: options)
                    reading.passesOverRuns = false
                    for shape in shapes {
                        #expect(passing.build(shape, id: 7) == reading.build(shape, id: 7), "\(tile)")
                        passedOver += Self.runsPassedOver(in: shape, by: passing)
                    }
                }
            }
        }
        // The comparison means something only if runs were passed over.
        #expect(passedOver > 10_000)
    }

    /// The runs of `shape` that `builder`'s tile passes over: those of more than two positions
    /// wholly beyond one side of its buffered square.
    static func runsPassedOver(in shape: GridShape, by builder: TileFeatureBuilder) -> Int {
        let square = builder.clipper.minimum...builder.clipper.maximum
        let origin = (x: Double(builder.tile.x) * 4096, y: Double(builder.tile.y) * 4096)
        var count = 0
        for part in shape.partEnds.indices {
            let range = shape.range(ofPart: part)
            for (i, start) in stride(from: range.lowerBound, to: range.upperBound, by: GridShape.runLength).enumerated()
            {
                let run = shape.runBoxes[shape.firstRuns[part] + i]
                let length = min(start + GridShape.runLength, range.upperBound) - start
                if length > 2, TileFeatureBuilder.lies(run, beyondASideOf: square, shiftedBy: origin.x, origin.y) {
                    count += 1
                }
            }
        }
        return count
    }

    /// A zoom's shape keeps source positions only (simplified, never moved), rings open with at
    /// least three corners, and a ring too small for the zoom leaves with its polygon.
    @Test func shapesKeepSourcePositionsOnTheZoomsGrid() throws {
        let polygon = Self.star(x: -3.7, y: 40.4, radius: 0.05, corners: 2_000, seed: 4)
        let scale = Double(4096 << 6)
        let shape = try #require(ZoomGeometries.simplified(.polygon(polygon), scale: scale))
        #expect(shape.kind == .polygon && shape.polygonEnds == [2])
        let source = Set(
            (polygon.shell.points.array + polygon.holes[0].points.array).map {
                Point(x: WebMercator.x(longitude: $0.x) * scale, y: WebMercator.y(latitude: $0.y) * scale)
            })
        #expect(shape.points.allSatisfy(source.contains))
        for part in 0..<2 { #expect(shape.range(ofPart: part).count >= 3) }
        #expect(shape.points.count < 2_000)
        // At zoom 0 the star is under a unit across: nothing is left.
        #expect(ZoomGeometries.simplified(.polygon(polygon), scale: 4096) == nil)
    }
}
