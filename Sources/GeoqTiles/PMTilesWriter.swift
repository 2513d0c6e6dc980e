/// Builds a PMTiles v3 archive (https://github.com/protomaps/PMTiles, spec v3) from tiles added
/// in any order.
///
/// Contract:
/// - Tiles are taken as given: `tileCompression` only labels them (a gzip-compressed MVT tile is
///   added already gzipped). Each tile is added once and has at least one byte.
/// - Identical tile contents are stored once; consecutive tile ids with identical contents share
///   one directory entry with a run length. Blobs are written in tile-id order, so the archive is
///   always clustered.
/// - Directories and metadata pass through `internalCompression`. When the root directory would
///   not fit beside the header in the first 16,384 bytes, entries go to leaf directories as the
///   reference writer splits them.
/// - Memory: every distinct tile content is held until the archive is written, plus a few dozen
///   bytes per tile. ``finish(metadata:extent:)`` builds the whole archive in one more array;
///   ``write(metadata:extent:to:)`` streams it instead and adds no copy of the tile data.
///
/// Complexity: ``add(z:x:y:bytes:)`` is O(z + bytes.count) amortised (hashing the contents);
/// writing sorts the tiles, O(n log n), and compresses the directories a few times.
public struct PMTilesWriter: Sendable {
    public let tileType: PMTilesTileType
    public let tileCompression: PMTilesCompression
    public let internalCompression: PMTilesInternalCompression

    /// Index into `contents` of each added tile, by tile id.
    var contentIndexByTileID: [UInt64: Int] = [:]
    /// Distinct tile contents in the order they were first added.
    var contents: [[UInt8]] = []
    var contentIndexByBytes: [PMTilesContent: Int] = [:]

    public init(
        tileType: PMTilesTileType, tileCompression: PMTilesCompression,
        internalCompression: PMTilesInternalCompression
    ) {
        self.tileType = tileType
        self.tileCompression = tileCompression
        self.internalCompression = internalCompression
    }

    /// The number of tiles added so far.
    public var tileCount: Int { contentIndexByTileID.count }

    /// The number of distinct tile contents added so far: the blobs the archive will hold.
    public var distinctContentCount: Int { contents.count }

    /// Adds tile `z/x/y` (`y` counted from the north, as in XYZ tile URLs) with its final bytes.
    ///
    /// On error the writer is unchanged.
    /// - Throws: ``PMTilesError/zoomOutOfRange(z:)``, ``PMTilesError/coordinatesOutOfRange(z:x:y:)``,
    ///   ``PMTilesError/emptyTile(z:x:y:)``, ``PMTilesError/tileTooLarge(z:x:y:byteCount:)``,
    ///   ``PMTilesError/duplicateTile(z:x:y:)``.
    public mutating func add(z: Int, x: Int, y: Int, bytes: [UInt8]) throws(PMTilesError) {
        let id = try pmtilesTileID(z: z, x: x, y: y)
        guard !bytes.isEmpty else { throw .emptyTile(z: z, x: x, y: y) }
        guard UInt64(bytes.count) <= UInt64(UInt32.max) else {
            throw .tileTooLarge(z: z, x: x, y: y, byteCount: bytes.count)
        }
        guard contentIndexByTileID[id] == nil else { throw .duplicateTile(z: z, x: x, y: y) }
        let key = PMTilesContent(bytes: bytes)
        let index: Int
        if let known = contentIndexByBytes[key] {
            index = known
        } else {
            index = contents.count
            contents.append(bytes)
            contentIndexByBytes[key] = index
        }
        contentIndexByTileID[id] = index
    }
}
