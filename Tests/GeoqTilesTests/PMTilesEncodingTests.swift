import Testing

@testable import GeoqTiles

/// Directory and header bytes against the reference implementation's serialisers (PyPI pmtiles
/// 3.8.1: `serialize_directory`, gunzipped, and `serialize_header`) on the same values.
@Suite struct PMTilesEncodingTests {
    @Test func directoryBytesMatchTheReference() {
        // Covers a run, a repeat of an earlier blob (offset 0 after offset 5), a contiguous
        // entry, multi-byte varints and a leaf pointer.
        let entries = [
            PMTilesEntry(tileID: 0, offset: 0, length: 5, runLength: 1),
            PMTilesEntry(tileID: 1, offset: 5, length: 3, runLength: 2),
            PMTilesEntry(tileID: 5, offset: 0, length: 5, runLength: 1),
            PMTilesEntry(tileID: 200, offset: 8, length: 300, runLength: 1),
            PMTilesEntry(tileID: 70000, offset: 1000, length: 1, runLength: 0),
        ]
        let reference: [UInt8] = [
            5, 0, 1, 4, 195, 1, 168, 161, 4, 1, 2, 1, 1, 0, 5, 3, 5, 172, 2, 1, 1, 0, 1, 9, 233, 7,
        ]
        #expect(PMTilesDirectory.serialized(entries[...]) == reference)
    }

    static let varintCases: [(UInt64, [UInt8])] = [
        (0, [0]),
        (127, [127]),
        (128, [128, 1]),
        (300, [172, 2]),
        (UInt64.max, [255, 255, 255, 255, 255, 255, 255, 255, 255, 1]),
    ]

    @Test(arguments: varintCases)
    func varints(value: UInt64, bytes: [UInt8]) {
        var encoded: [UInt8] = []
        PMTilesDirectory.appendVarint(value, to: &encoded)
        #expect(encoded == bytes)
    }

    @Test func headerBytesMatchTheReference() {
        let header = PMTilesHeader(
            rootOffset: 127, rootLength: 300, metadataOffset: 427, metadataLength: 40,
            leafDirectoriesOffset: 467, leafDirectoriesLength: 1000, tileDataOffset: 1467,
            tileDataLength: 123_456_789_012, addressedTileCount: 70000, tileEntryCount: 600, tileContentCount: 500,
            clustered: true, internalCompression: .gzip, tileCompression: .gzip, tileType: .mvt, minZoom: 3,
            maxZoom: 14, minLongitudeE7: -34_567_890, minLatitudeE7: 392_345_678, maxLongitudeE7: -31_234_567,
            maxLatitudeE7: 395_678_901, centerZoom: 12, centerLongitudeE7: -33_750_000, centerLatitudeE7: 394_700_000)
        let reference: [UInt8] = [
            80, 77, 84, 105, 108, 101, 115, 3, 127, 0, 0, 0, 0, 0, 0, 0, 44, 1, 0, 0, 0, 0, 0, 0, 171, 1, 0, 0, 0, 0,
            0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 211, 1, 0, 0, 0, 0, 0, 0, 232, 3, 0, 0, 0, 0, 0, 0, 187, 5, 0, 0, 0, 0, 0,
            0, 20, 26, 153, 190, 28, 0, 0, 0, 112, 17, 1, 0, 0, 0, 0, 0, 88, 2, 0, 0, 0, 0, 0, 0, 244, 1, 0, 0, 0, 0,
            0, 0, 1, 2, 2, 1, 3, 14, 46, 137, 240, 253, 78, 184, 98, 23, 249, 101, 35, 254, 181, 148, 149, 23, 12, 16,
            4, 253, 253, 224, 164, 134, 23,
        ]
        #expect(header.serialized() == reference)
    }

    @Test(arguments: [(-3.456789, Int32(-34_567_890)), (180, 1_800_000_000), (-90, -900_000_000), (1e-8, 0)])
    func degreesBecomeTenMillionths(degrees: Double, e7: Int32) {
        #expect(PMTilesHeader.e7(degrees) == e7)
    }
}
