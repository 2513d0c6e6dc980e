import GeoqTestSupport
import GeoqTiles

/// Some thirty thousand seeded tiles, enough that the root directory cannot hold them and leaf
/// directories are needed, with the counts a correct archive of them reports, worked out here
/// from the tiles themselves.
///
/// Zooms 0 to 7 are complete (21,845 tiles, contiguous ids) and filled in blocks: blocks of
/// distinct random tiles, blocks repeating one "sea" tile (runs), and blocks drawing sea tiles at
/// random (repeats that are not neighbours). Zoom 14 adds 8,000 scattered distinct tiles, whose
/// far-apart ids make directories large. Tiles are listed in a shuffled order.
struct ManyTilesFixture {
    let tiles: [(z: Int, x: Int, y: Int, bytes: [UInt8])]
    /// Directory entries of a correct archive: maximal runs of consecutive ids with equal bytes.
    let expectedTileEntries: Int
    let expectedDistinctContents: Int
    /// UTF-8 JSON with a non-ASCII name, so that the bytes must survive unchanged.
    let metadata = Array(#"{"name":"sectors València","vector_layers":[{"id":"sectors","fields":{}}]}"#.utf8)
    let extent = PMTilesExtent(west: -0.4321, south: 39.2789, east: -0.2713, north: 39.5668, centerZoom: 5)
    let minZoom = 0
    let maxZoom = 14

    init(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        func randomBytes() -> [UInt8] {
            let count = Int.random(in: 1...600, using: &random)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count + 8)
            while bytes.count < count { withUnsafeBytes(of: random.next()) { bytes += $0 } }
            return Array(bytes.prefix(count))
        }
        let sea: [[UInt8]] = (0..<8).map { [UInt8](repeating: 0x5E, count: 30 + $0) }

        var byID: [(id: UInt64, bytes: [UInt8])] = []
        let pyramid = 21_845
        while byID.count < pyramid {
            let blockLength = min(Int.random(in: 1...40, using: &random), pyramid - byID.count)
            let kind = Int.random(in: 0..<10, using: &random)
            let runTile = sea.randomElement(using: &random)!
            for _ in 0..<blockLength {
                let bytes =
                    switch kind {
                    case 0..<6: randomBytes()
                    case 6..<8: runTile
                    default: sea.randomElement(using: &random)!
                    }
                byID.append((UInt64(byID.count), bytes))
            }
        }
        var scattered = Set<UInt64>()
        while scattered.count < 8_000 {
            let id = try! pmtilesTileID(
                z: 14, x: Int.random(in: 0..<16_384, using: &random), y: Int.random(in: 0..<16_384, using: &random))
            if scattered.insert(id).inserted { byID.append((id, randomBytes())) }
        }

        byID.sort { $0.id < $1.id }
        var entries = 0
        for (i, tile) in byID.enumerated() {
            let continuesRun = i > 0 && byID[i - 1].id + 1 == tile.id && byID[i - 1].bytes == tile.bytes
            if !continuesRun { entries += 1 }
        }
        expectedTileEntries = entries
        expectedDistinctContents = Set(byID.map(\.bytes)).count
        tiles = byID.map { tile in
            let (z, x, y) = try! pmtilesTileCoordinates(ofTileID: tile.id)
            return (z, x, y, tile.bytes)
        }.shuffled(using: &random)
    }

    /// A writer holding all the tiles, for MVT tiles in gzip.
    func writer(internalCompression: PMTilesInternalCompression) throws -> PMTilesWriter {
        var writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip, internalCompression: internalCompression)
        for tile in tiles { try writer.add(z: tile.z, x: tile.x, y: tile.y, bytes: tile.bytes) }
        return writer
    }
}
