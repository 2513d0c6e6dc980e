import Foundation
import GeoqCore
import GeoqTestSupport
import Testing

@testable import GeoqTiles

/// Expected tiles and bounds from Python's `mercantile` 1.2.1 (`mercantile.tile`,
/// `mercantile.bounds`, `mercantile.tiles`, `mercantile._xy`), run outside these tests.
@Suite struct TileIDTests {
    @Test(arguments: [
        (-1.6432, 42.8169, 14, 8117, 6031),  // Pamplona
        (-0.3763, 39.4699, 12, 2043, 1558),  // Valencia
        (2.1734, 41.3851, 16, 33163, 24477),  // Barcelona
        (139.6917, 35.6895, 10, 909, 403),  // Tokyo
        (-74.0060, 40.7128, 18, 77182, 98561),  // New York
        (151.2093, -33.8688, 8, 235, 153),  // Sydney
        (0.0, 0.0, 1, 1, 1),  // on the edges: the tile east and south
        (-180.0, 85.0511287798066, 3, 0, 0),
        (179.9999, -85.05, 5, 31, 31),
        (0.0, 0.0, 0, 0, 0),
    ])
    func containing(longitude: Double, latitude: Double, z: Int, x: Int, y: Int) throws {
        let tile = try TileID.containing(Point(x: longitude, y: latitude), zoom: z)
        #expect(tile == (try TileID(z: z, x: x, y: y)))
    }

    @Test(arguments: [
        (0, 0, 0, -180.0, -85.0511287798066, 180.0, 85.0511287798066),
        (14, 8117, 6031, -1.64794921875, 42.81152174509789, -1.6259765625, 42.82763863624229),
        (1, 0, 0, -180.0, 0.0, 0.0, 85.0511287798066),
        (1, 1, 1, 0.0, -85.0511287798066, 180.0, 0.0),
        (2, 3, 2, 90.0, -66.51326044311186, 180.0, 0.0),
    ])
    func bounds(z: Int, x: Int, y: Int, west: Double, south: Double, east: Double, north: Double) throws {
        let b = try TileID(z: z, x: x, y: y).bounds
        #expect(abs(b.minX - west) < 1e-12 && abs(b.maxX - east) < 1e-12)
        #expect(abs(b.minY - south) < 1e-12 && abs(b.maxY - north) < 1e-12)
    }

    @Test func covering() throws {
        let pamplona = try TileID.tiles(
            covering: BoundingBox(minX: -1.70, minY: 42.78, maxX: -1.60, maxY: 42.85), zoom: 14)
        #expect(pamplona.columns == 8114..<8120 && pamplona.rows == 6029..<6034)
        #expect(pamplona.count == 30)
        #expect(pamplona.first == (try TileID(z: 14, x: 8114, y: 6029)))
        #expect(pamplona.last == (try TileID(z: 14, x: 8119, y: 6033)))
        #expect(Array(pamplona) == Array(pamplona).sorted())
        let equator = try TileID.tiles(covering: BoundingBox(minX: -10, minY: -10, maxX: 10, maxY: 10), zoom: 2)
        let expected = try [(1, 1), (1, 2), (2, 1), (2, 2)].map { try TileID(z: 2, x: $0.0, y: $0.1) }
        #expect(Array(equator) == expected)
        // A tile's own bounds cover that tile and no neighbour.
        for tile in try [(14, 8117, 6031), (3, 7, 0), (20, 1, 1_048_574)].map({ try TileID(z: $0.0, x: $0.1, y: $0.2) })
        {
            #expect(Array(try TileID.tiles(covering: tile.bounds, zoom: tile.z)) == [tile])
        }
        #expect(try TileID.tiles(covering: .empty, zoom: 5).isEmpty)
        let world = try TileID.tiles(covering: BoundingBox(minX: -200, minY: -90, maxX: 200, maxY: 90), zoom: 3)
        #expect(world.count == 64)
    }

    @Test func validation() {
        #expect(throws: TileError.zoomOutOfRange(25)) { try TileID(z: 25, x: 0, y: 0) }
        #expect(throws: TileError.zoomOutOfRange(-1)) { try TileID(z: -1, x: 0, y: 0) }
        #expect(throws: TileError.columnOutOfRange(x: 2, zoom: 1)) { try TileID(z: 1, x: 2, y: 0) }
        #expect(throws: TileError.rowOutOfRange(y: -1, zoom: 1)) { try TileID(z: 1, x: 0, y: -1) }
        #expect((try? TileID(z: 24, x: (1 << 24) - 1, y: 0)) != nil)
        #expect(TileError.zoomOutOfRange(25).code == "tile-zoom-out-of-range")
    }

    @Test func ordering() throws {
        let tiles = try [(2, 0, 3), (1, 1, 0), (2, 0, 1)].map { try TileID(z: $0.0, x: $0.1, y: $0.2) }
        #expect(tiles.sorted().map(\.description) == ["1/1/0", "2/0/1", "2/0/3"])
    }

    /// Grid coordinates of a point: mercantile's fractional world position, times 2^14, less the
    /// tile, times 4096.
    @Test func projection() throws {
        let builder = TileFeatureBuilder(tile: try TileID(z: 14, x: 8117, y: 6031))
        let p = builder.project(Point(x: -1.6432, y: 42.8169))
        #expect(abs(p.x - 885.3185422234237) < 1e-6)
        #expect(abs(p.y - 2729.2712068744004) < 1e-6)
    }

    /// Against the textbook form y = (1 - ln(tan φ + sec φ) / π) / 2 on seeded random points.
    @Test func mercatorFormula() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<1000 {
            let lat = Double.random(in: -85...85, using: &random)
            let expected = (1 - log(tan(lat * .pi / 180) + 1 / cos(lat * .pi / 180)) / .pi) / 2
            #expect(abs(WebMercator.y(latitude: lat) - expected) < 1e-12)
            #expect(abs(WebMercator.latitude(y: expected) - lat) < 1e-9)
        }
        #expect(WebMercator.y(latitude: 90) == WebMercator.y(latitude: WebMercator.maximumLatitude))
        #expect(abs(WebMercator.y(latitude: WebMercator.maximumLatitude)) < 1e-12)
    }
}
