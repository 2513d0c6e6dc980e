/// What the tiles of a PMTiles archive contain, with the code the header stores.
///
/// Viewers and proxies use it to choose a renderer and a `Content-Type`. The codes are fixed by
/// the PMTiles v3 specification and must not change.
public enum PMTilesTileType: UInt8, Sendable, CaseIterable {
    case unknown = 0
    /// Mapbox Vector Tiles (protocol buffers).
    case mvt = 1
    case png = 2
    case jpeg = 3
    case webp = 4
    case avif = 5
    /// MapLibre Tiles.
    case mlt = 6
}
