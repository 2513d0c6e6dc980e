/// One row of a PMTiles directory: a run of tiles sharing one blob, or a pointer to a leaf.
///
/// With `runLength` > 0, tiles `tileID ..< tileID + runLength` are the `length` bytes at
/// `offset` in the tile data section. With `runLength` = 0, the bytes at `offset` in the leaf
/// directory section are the directory whose first entry has id `tileID`.
struct PMTilesEntry: Equatable, Sendable {
    var tileID: UInt64
    var offset: UInt64
    var length: UInt32
    var runLength: UInt32
}
