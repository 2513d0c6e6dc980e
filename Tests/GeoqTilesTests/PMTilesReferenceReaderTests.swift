import Foundation
import GeoqTestSupport
import GeoqTiles
import Testing

/// Archives read back by the Python reference reader (PyPI `pmtiles`, `pmtiles.reader`): every
/// tile through `all_tiles` and a sample through `Reader.get`, the header as it decodes it, and
/// its directory decoder's view of the entries.
@Suite(.enabled(if: ReferenceReader.python != nil, ReferenceReader.skipReason))
struct PMTilesReferenceReaderTests {
    @Test(.enabled(if: GzipTool.isAvailable, "needs /usr/bin/gzip"))
    func gzipArchiveOfManyTiles() throws {
        let fixture = ManyTilesFixture(seed: 2_025)
        let archive = try fixture.writer(internalCompression: GzipTool.internalCompression)
            .finish(metadata: fixture.metadata, extent: fixture.extent)
        try check(archive, fixture: fixture, internalCompression: .gzip)
    }

    /// The reference reader gunzips directories whatever the header says, so it cannot open an
    /// archive without internal compression by itself; here its directory decoder gets each
    /// directory gzipped first, and all the rest is its own.
    @Test func uncompressedArchiveOfManyTiles() throws {
        let fixture = ManyTilesFixture(seed: 2_026)
        let archive = try fixture.writer(internalCompression: .none)
            .finish(metadata: fixture.metadata, extent: fixture.extent)
        try check(archive, fixture: fixture, internalCompression: .none)
    }

    private func check(
        _ archive: [UInt8], fixture: ManyTilesFixture, internalCompression: PMTilesCompression
    ) throws {
        var random = SeededRandom(seed: 99)
        let present = (0..<150).map { _ in fixture.tiles.randomElement(using: &random)! }
        let candidates: [(z: Int, x: Int, y: Int)] = [
            (1, 0, 0), (14, 0, 0), (14, 16_383, 16_383), (8, 3, 4), (20, 1, 2),
        ]
        let absent = candidates.filter { probe in !fixture.tiles.contains { ($0.z, $0.x, $0.y) == probe } }
        let probes = present.map { ($0.z, $0.x, $0.y) } + absent
        let reading = try ReferenceReader.read(
            archive, uncompressedDirectories: internalCompression == .none, probes: probes)
        let header = reading.summary

        #expect(header.version == 3)
        #expect(header.rootOffset + header.rootLength < 16_384)
        #expect(header.leafDirectoryLength > 0)
        #expect(header.leafCount > 1)
        #expect(header.internalCompression == Int(internalCompression.rawValue))
        #expect(header.tileCompression == 2)
        #expect(header.tileType == 1)
        #expect((header.minZoom, header.maxZoom) == (fixture.minZoom, fixture.maxZoom))
        #expect((header.minLonE7, header.minLatE7) == (-4_321_000, 392_789_000))
        #expect((header.maxLonE7, header.maxLatE7) == (-2_713_000, 395_668_000))
        #expect((header.centerZoom, header.centerLonE7, header.centerLatE7) == (5, -3_517_000, 394_228_500))
        #expect(header.clustered)

        #expect(header.addressedTilesCount == fixture.tiles.count)
        #expect(header.tileEntriesCount == fixture.expectedTileEntries)
        #expect(header.tileContentsCount == fixture.expectedDistinctContents)
        #expect(header.addressed == fixture.tiles.count)
        #expect(header.entryCount == fixture.expectedTileEntries)
        #expect(header.distinctOffsets == fixture.expectedDistinctContents)
        #expect(header.offsetsClustered)
        #expect(header.idsSorted)

        let metadata = try JSONSerialization.jsonObject(with: Data(header.metadataJson.utf8)) as? NSDictionary
        let expectedMetadata = try JSONSerialization.jsonObject(with: Data(fixture.metadata)) as? NSDictionary
        #expect(metadata != nil && metadata == expectedMetadata)

        #expect(reading.traversal.count == fixture.tiles.count)
        var wrong: [String] = []
        for tile in fixture.tiles where reading.traversal["\(tile.z)/\(tile.x)/\(tile.y)"] != tile.bytes {
            wrong.append("\(tile.z)/\(tile.x)/\(tile.y)")
        }
        #expect(wrong.isEmpty, "all_tiles gave other bytes for \(wrong.prefix(10))")

        for tile in present {
            #expect(
                reading.probes["\(tile.z)/\(tile.x)/\(tile.y)"] == .some(tile.bytes),
                "get \(tile.z)/\(tile.x)/\(tile.y)")
        }
        for tile in absent {
            #expect(reading.probes["\(tile.z)/\(tile.x)/\(tile.y)"] == .some(nil), "get \(tile.z)/\(tile.x)/\(tile.y)")
        }
        #expect(!absent.isEmpty)
    }
}
