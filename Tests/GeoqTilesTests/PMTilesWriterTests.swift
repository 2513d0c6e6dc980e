import GeoqTiles
import Testing

@Suite struct PMTilesWriterTests {
    static let smallTiles: [(z: Int, x: Int, y: Int, bytes: String)] = [
        (2, 1, 1, "d"), (1, 1, 0, "aa"), (0, 0, 0, "aa"), (2, 0, 0, "cc"),
        (1, 0, 1, "b"), (2, 1, 0, "d"), (1, 1, 1, "cc"), (1, 0, 0, "b"),
    ]
    static let smallMetadata = Array(#"{"name": "t", "vector_layers": []}"#.utf8)
    static let smallExtent = PMTilesExtent(
        west: -3.456789, south: 39.2345678, east: -3.1234567, north: 39.5678901,
        centerLongitude: -3.3901229, centerLatitude: 39.401229, centerZoom: 1)

    /// What the reference writer (PyPI pmtiles 3.8.1, `pmtiles.writer.Writer`) produces for the
    /// small tiles in id order, with its gzip replaced by the identity and the header's internal
    /// compression byte set to none. Ids 0…7 hold aa b b cc aa cc d d: six entries (1–2 and 6–7
    /// are runs), four blobs (ids 4 and 5 repeat earlier ones).
    static let smallReferenceArchive: [UInt8] = [
        80, 77, 84, 105, 108, 101, 115, 3, 127, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0, 0, 0, 0, 0, 152, 0, 0, 0, 0, 0, 0,
        0, 34, 0, 0, 0, 0, 0, 0, 0, 186, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 186, 0, 0, 0, 0, 0, 0, 0, 6, 0,
        0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 1, 0, 2,
        46, 137, 240, 253, 78, 184, 98, 23, 249, 101, 35, 254, 181, 148, 149, 23, 1, 83, 181, 250, 253, 130, 38, 124,
        23, 6, 0, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 2, 2, 1, 2, 2, 2, 1, 1, 0, 0, 1, 4, 0, 123, 34, 110, 97, 109, 101,
        34, 58, 32, 34, 116, 34, 44, 32, 34, 118, 101, 99, 116, 111, 114, 95, 108, 97, 121, 101, 114, 115, 34, 58,
        32, 91, 93, 125, 97, 97, 98, 99, 99, 100,
    ]

    static func smallWriter() throws -> PMTilesWriter {
        var writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip, internalCompression: .none)
        for tile in smallTiles { try writer.add(z: tile.z, x: tile.x, y: tile.y, bytes: Array(tile.bytes.utf8)) }
        return writer
    }

    @Test func smallArchiveIsByteForByteTheReferenceWritersOutput() throws {
        let writer = try Self.smallWriter()
        #expect(writer.tileCount == 8)
        #expect(writer.distinctContentCount == 4)
        let archive = try writer.finish(metadata: Self.smallMetadata, extent: Self.smallExtent)
        #expect(archive == Self.smallReferenceArchive)
    }

    @Test func streamedArchiveEqualsTheWholeOne() throws {
        let fixture = ManyTilesFixture(seed: 7)
        let writer = try fixture.writer(internalCompression: .none)
        let whole = try writer.finish(metadata: fixture.metadata, extent: fixture.extent)
        var streamed: [UInt8] = []
        var chunks = 0
        try writer.write(metadata: fixture.metadata, extent: fixture.extent) { chunk in
            #expect(chunk.count <= 1 << 20)
            streamed += chunk
            chunks += 1
        }
        #expect(chunks > 2)
        #expect(streamed == whole)
    }

    /// Many tiles, internal compression none, read back with the reader written from the
    /// specification's text.
    @Test func manyTilesWithoutInternalCompressionGoToLeafDirectories() throws {
        let fixture = ManyTilesFixture(seed: 11)
        let archive = try fixture.writer(internalCompression: .none)
            .finish(metadata: fixture.metadata, extent: fixture.extent)
        try checkManyTiles(archive, fixture: fixture, decompress: { $0 })
    }

    @Test(.enabled(if: GzipTool.isAvailable, "needs /usr/bin/gzip"))
    func manyTilesWithGzipInternalCompressionGoToLeafDirectories() throws {
        let fixture = ManyTilesFixture(seed: 12)
        let archive = try fixture.writer(internalCompression: GzipTool.internalCompression)
            .finish(metadata: fixture.metadata, extent: fixture.extent)
        try checkManyTiles(archive, fixture: fixture, decompress: GzipTool.decompress)
    }

    private func checkManyTiles(
        _ archive: [UInt8], fixture: ManyTilesFixture, decompress: @escaping ([UInt8]) -> [UInt8]?
    ) throws {
        let reader = SpecArchiveReader(bytes: archive, decompress: decompress)
        #expect(reader.rootOffset == 127)
        #expect(reader.rootOffset + reader.rootLength < 16_384)
        #expect(reader.leavesLength > 0)
        #expect(reader.tileDataOffset + reader.tileDataLength == archive.count)
        #expect(reader.addressedTiles == UInt64(fixture.tiles.count))
        #expect(reader.tileEntries == UInt64(fixture.expectedTileEntries))
        #expect(reader.tileContents == UInt64(fixture.expectedDistinctContents))
        // The fixture exercises what it is meant to: runs (fewer entries than tiles) and repeats
        // that are not neighbours (fewer blobs than entries).
        #expect(fixture.tiles.count > 20_000)
        #expect(fixture.expectedTileEntries < fixture.tiles.count)
        #expect(fixture.expectedDistinctContents < fixture.expectedTileEntries)
        #expect(reader.clustered == 1)
        #expect((reader.minZoom, reader.maxZoom) == (0, 14))
        #expect(reader.metadata == fixture.metadata)

        let directories = try #require(reader.tileEntriesAndLeafCount())
        #expect(directories.leaves > 1)
        #expect(directories.entries.count == fixture.expectedTileEntries)
        let tiles = try #require(reader.allTiles())
        #expect(tiles.count == fixture.tiles.count)
        var wrong: [String] = []
        for tile in fixture.tiles where tiles[try pmtilesTileID(z: tile.z, x: tile.x, y: tile.y)] != tile.bytes {
            wrong.append("\(tile.z)/\(tile.x)/\(tile.y)")
        }
        #expect(wrong.isEmpty, "tiles with other bytes: \(wrong.prefix(10))")
    }

    @Test func aTileAddedTwiceIsRefusedAndTheFirstKept() throws {
        var writer = try Self.smallWriter()
        #expect(throws: PMTilesError.duplicateTile(z: 1, x: 1, y: 0)) {
            try writer.add(z: 1, x: 1, y: 0, bytes: [1, 2, 3])
        }
        #expect(writer.tileCount == 8)
        #expect(try writer.finish(metadata: Self.smallMetadata, extent: Self.smallExtent) == Self.smallReferenceArchive)
    }

    @Test(arguments: [
        (32, 0, 0, PMTilesError.zoomOutOfRange(z: 32)),
        (4, 16, 0, .coordinatesOutOfRange(z: 4, x: 16, y: 0)),
        (4, 0, -1, .coordinatesOutOfRange(z: 4, x: 0, y: -1)),
    ])
    func tilesOutsideTheGridAreRefused(z: Int, x: Int, y: Int, error: PMTilesError) {
        var writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip, internalCompression: .none)
        #expect(throws: error) { try writer.add(z: z, x: x, y: y, bytes: [1]) }
        #expect(writer.tileCount == 0)
    }

    @Test func anEmptyTileIsRefused() {
        var writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip, internalCompression: .none)
        #expect(throws: PMTilesError.emptyTile(z: 3, x: 1, y: 2)) { try writer.add(z: 3, x: 1, y: 2, bytes: []) }
    }

    @Test func anArchiveWithoutTilesIsRefused() {
        let writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip, internalCompression: .none)
        #expect(throws: PMTilesError.noTiles) {
            try writer.finish(metadata: Self.smallMetadata, extent: .webMercatorWorld)
        }
    }

    @Test(arguments: [
        PMTilesExtent(west: -181, south: 0, east: 1, north: 1),
        PMTilesExtent(west: 0, south: 0, east: .nan, north: 1),
        PMTilesExtent(west: 0, south: -91, east: 1, north: 1),
        PMTilesExtent(west: 0, south: 2, east: 1, north: 1),
        PMTilesExtent(west: 0, south: 0, east: 1, north: 1, centerZoom: 32),
        PMTilesExtent(west: 0, south: 0, east: 1, north: 1, centerLongitude: 0.5, centerLatitude: .infinity),
    ])
    func invalidExtentsAreRefused(extent: PMTilesExtent) throws {
        let writer = try Self.smallWriter()
        #expect {
            try writer.finish(metadata: Self.smallMetadata, extent: extent)
        } throws: { error in
            guard case .invalidExtent = error as? PMTilesError else { return false }
            return true
        }
    }

    @Test func aFailingCompressionNamesWhatItWasCompressing() throws {
        var writer = PMTilesWriter(
            tileType: .png, tileCompression: .none,
            internalCompression: PMTilesInternalCompression(code: .gzip) { _ in nil })
        try writer.add(z: 0, x: 0, y: 0, bytes: [0x89])
        #expect(throws: PMTilesError.compressionFailed(section: "root directory", compression: .gzip)) {
            try writer.finish(metadata: Self.smallMetadata, extent: .webMercatorWorld)
        }
    }

    @Test func aRootThatCannotFitEvenWithOneLeafIsRefused() throws {
        let inflating = PMTilesInternalCompression(code: .none) { $0 + [UInt8](repeating: 0, count: 16_384) }
        var writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip, internalCompression: inflating)
        try writer.add(z: 0, x: 0, y: 0, bytes: [1])
        #expect {
            try writer.finish(metadata: Self.smallMetadata, extent: .webMercatorWorld)
        } throws: { error in
            guard case .rootDirectoryTooLarge = error as? PMTilesError else { return false }
            return true
        }
    }

    @Test func errorsCarryStableCodesAndSayWhatToDo() {
        let error = PMTilesError.emptyTile(z: 3, x: 1, y: 2)
        #expect(error.code == "tile-empty")
        #expect(error.description == "tile 3/1/2 has no bytes; PMTiles stores no empty tiles, so leave it out")
        #expect(
            PMTilesError.coordinatesOutOfRange(z: 3, x: 8, y: 0).description
                == "tile 3/8/0 does not exist: at zoom 3, x and y run from 0 to 7")
    }
}
