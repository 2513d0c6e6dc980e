import GeoqTestSupport
import GeoqTiles
import Testing

/// Tile ids against values from the reference implementation (`pmtiles.tile.zxy_to_tileid` of
/// PyPI pmtiles 3.8.1) and the specification's examples.
@Suite struct PMTilesTileIDTests {
    static let known: [(z: Int, x: Int, y: Int, id: UInt64)] = [
        (0, 0, 0, 0),
        (1, 0, 0, 1),
        (1, 0, 1, 2),
        (1, 1, 1, 3),
        (1, 1, 0, 4),
        (2, 0, 0, 5),
        (12, 2047, 1365, 8_108_987),
        (12, 4095, 0, 22_369_620),
        (14, 8031, 6174, 132_812_120),
        (16, 32767, 21845, 2_075_900_859),
        (18, 130_000, 95000, 33_279_723_583),
        (20, 524_287, 524_287, 549_755_813_887),
        (20, 1_000_000, 3, 1_461_989_238_116),
        (31, 2_147_483_647, 2_147_483_647, 4_611_686_018_427_387_903),
        (31, 0, 2_147_483_647, 3_074_457_345_618_258_602),
        (31, 2_147_483_647, 0, 6_148_914_691_236_517_204),
    ]

    @Test(arguments: known)
    func idOfTile(z: Int, x: Int, y: Int, id: UInt64) throws {
        #expect(try pmtilesTileID(z: z, x: x, y: y) == id)
    }

    @Test(arguments: known)
    func tileOfID(z: Int, x: Int, y: Int, id: UInt64) throws {
        let tile = try pmtilesTileCoordinates(ofTileID: id)
        #expect(tile == (z, x, y))
    }

    @Test func everyTileOfZoomFiveHasItsOwnIDInItsZoomsRange() throws {
        var ids = Set<UInt64>()
        for x in 0..<32 {
            for y in 0..<32 { ids.insert(try pmtilesTileID(z: 5, x: x, y: y)) }
        }
        #expect(ids == Set(341..<1365))
    }

    @Test func roundTripOnSeededRandomTiles() throws {
        var random = SeededRandom(seed: 20_250_611)
        for _ in 0..<20_000 {
            let z = Int.random(in: 0...31, using: &random)
            let x = Int.random(in: 0..<(1 << z), using: &random)
            let y = Int.random(in: 0..<(1 << z), using: &random)
            let id = try pmtilesTileID(z: z, x: x, y: y)
            let back = try pmtilesTileCoordinates(ofTileID: id)
            #expect(back == (z, x, y), "id \(id)")
        }
    }

    @Test func idsBeyondZoom31AreRefused() throws {
        let lastID: UInt64 = 6_148_914_691_236_517_204
        #expect(throws: PMTilesError.tileIDOutOfRange(id: lastID + 1)) {
            try pmtilesTileCoordinates(ofTileID: lastID + 1)
        }
        #expect(throws: PMTilesError.tileIDOutOfRange(id: .max)) { try pmtilesTileCoordinates(ofTileID: .max) }
    }

    @Test(arguments: [
        (32, 0, 0, PMTilesError.zoomOutOfRange(z: 32)),
        (-1, 0, 0, .zoomOutOfRange(z: -1)),
        (0, 1, 0, .coordinatesOutOfRange(z: 0, x: 1, y: 0)),
        (3, 8, 0, .coordinatesOutOfRange(z: 3, x: 8, y: 0)),
        (3, 0, 8, .coordinatesOutOfRange(z: 3, x: 0, y: 8)),
        (3, -1, 0, .coordinatesOutOfRange(z: 3, x: -1, y: 0)),
        (31, 0, 1 << 31, .coordinatesOutOfRange(z: 31, x: 0, y: 1 << 31)),
    ])
    func tilesOutsideTheirZoomAreRefused(z: Int, x: Int, y: Int, error: PMTilesError) {
        #expect(throws: error) { try pmtilesTileID(z: z, x: x, y: y) }
    }
}
