// Tile ids follow the PMTiles v3 specification: within a zoom, tiles are numbered along a Hilbert
// curve, and each zoom's numbers start after all tiles of the lower zooms, so that one integer
// names (z, x, y) and nearby tiles get nearby ids (which keeps directories small).

/// The PMTiles id of tile `z/x/y` (`y` counted from the north, as in XYZ tile URLs).
///
/// Zoom 0 is id 0; zoom 1 holds ids 1 to 4 in the order (0,0), (0,1), (1,1), (1,0).
/// Complexity: O(z).
/// - Throws: ``PMTilesError/zoomOutOfRange(z:)`` unless `z` is in 0...31;
///   ``PMTilesError/coordinatesOutOfRange(z:x:y:)`` unless `x` and `y` are in `0 ..< 2^z`.
public func pmtilesTileID(z: Int, x: Int, y: Int) throws(PMTilesError) -> UInt64 {
    guard (0...31).contains(z) else { throw .zoomOutOfRange(z: z) }
    let side = 1 << z
    guard (0..<side).contains(x), (0..<side).contains(y) else {
        throw .coordinatesOutOfRange(z: z, x: x, y: y)
    }
    var x = UInt64(x)
    var y = UInt64(y)
    var position: UInt64 = 0
    var half = UInt64(side) >> 1
    while half > 0 {
        let rx: UInt64 = x & half == 0 ? 0 : 1
        let ry: UInt64 = y & half == 0 ? 0 : 1
        position += half * half * ((3 * rx) ^ ry)
        x &= half - 1
        y &= half - 1
        // The sub-square is visited by a rotated or reflected copy of the curve: map the point
        // into that copy's frame before descending.
        if ry == 0 {
            if rx == 1 {
                x = half - 1 - x
                y = half - 1 - y
            }
            swap(&x, &y)
        }
        half >>= 1
    }
    return pmtilesFirstTileID(zoom: z) + position
}

/// The tile named by a PMTiles id: the inverse of ``pmtilesTileID(z:x:y:)``.
///
/// Complexity: O(z).
/// - Throws: ``PMTilesError/tileIDOutOfRange(id:)`` for ids past the last tile of zoom 31.
public func pmtilesTileCoordinates(ofTileID id: UInt64) throws(PMTilesError) -> (z: Int, x: Int, y: Int) {
    var z = 0
    while z < 32 && id >= pmtilesFirstTileID(zoom: z + 1) { z += 1 }
    guard z < 32 else { throw .tileIDOutOfRange(id: id) }
    var position = id - pmtilesFirstTileID(zoom: z)
    let side = UInt64(1) << z
    var x: UInt64 = 0
    var y: UInt64 = 0
    var size: UInt64 = 1
    while size < side {
        let rx = 1 & (position >> 1)
        let ry = 1 & (position ^ rx)
        if ry == 0 {
            if rx == 1 {
                x = size - 1 - x
                y = size - 1 - y
            }
            swap(&x, &y)
        }
        x += size * rx
        y += size * ry
        position >>= 2
        size <<= 1
    }
    return (z, Int(x), Int(y))
}

/// The id of the first tile of `zoom`, which is the number of tiles at all lower zooms,
/// (4^zoom − 1) / 3. Defined for zoom 0...32; zoom 32 gives the count of all addressable tiles.
func pmtilesFirstTileID(zoom: Int) -> UInt64 {
    // Shifting the all-ones word keeps zoom 32 (4^32 − 1 = UInt64.max) free of overflow.
    zoom == 0 ? 0 : (UInt64.max >> (64 - 2 * zoom)) / 3
}
