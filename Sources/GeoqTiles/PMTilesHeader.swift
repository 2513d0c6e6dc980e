/// The fixed 127-byte header that opens every PMTiles v3 archive.
///
/// All integers are little-endian; positions are degrees × 10^7 as signed 32-bit integers.
struct PMTilesHeader: Equatable, Sendable {
    static let byteCount = 127

    var rootOffset: UInt64
    var rootLength: UInt64
    var metadataOffset: UInt64
    var metadataLength: UInt64
    var leafDirectoriesOffset: UInt64
    var leafDirectoriesLength: UInt64
    var tileDataOffset: UInt64
    var tileDataLength: UInt64
    /// Tiles a reader can find: the sum of all run lengths.
    var addressedTileCount: UInt64
    /// Directory entries with a run length above zero.
    var tileEntryCount: UInt64
    /// Distinct blobs in the tile data section.
    var tileContentCount: UInt64
    /// Blobs are in tile-id order, so a reader may fetch neighbouring tiles in one range request.
    var clustered: Bool
    var internalCompression: PMTilesCompression
    var tileCompression: PMTilesCompression
    var tileType: PMTilesTileType
    var minZoom: UInt8
    var maxZoom: UInt8
    var minLongitudeE7: Int32
    var minLatitudeE7: Int32
    var maxLongitudeE7: Int32
    var maxLatitudeE7: Int32
    var centerZoom: UInt8
    var centerLongitudeE7: Int32
    var centerLatitudeE7: Int32

    /// The 127 bytes, starting with the magic `PMTiles` and the version 3.
    func serialized() -> [UInt8] {
        var bytes = Array("PMTiles".utf8)
        bytes.reserveCapacity(Self.byteCount)
        bytes.append(3)
        for value in [
            rootOffset, rootLength, metadataOffset, metadataLength, leafDirectoriesOffset,
            leafDirectoriesLength, tileDataOffset, tileDataLength, addressedTileCount, tileEntryCount,
            tileContentCount,
        ] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        bytes += [
            clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue,
            minZoom, maxZoom,
        ]
        for value in [minLongitudeE7, minLatitudeE7, maxLongitudeE7, maxLatitudeE7] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        bytes.append(centerZoom)
        for value in [centerLongitudeE7, centerLatitudeE7] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// `degrees` × 10^7 rounded to the nearest integer; callers pass validated positions, whose
    /// magnitude (at most 1.8 × 10^9) fits.
    static func e7(_ degrees: Double) -> Int32 {
        Int32((degrees * 10_000_000).rounded())
    }
}
