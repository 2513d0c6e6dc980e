/// Why a tile cannot go into a PMTiles archive, or why the archive cannot be written.
///
/// Tiles are named `z/x/y` with `y` counted from the north, as in XYZ tile URLs.
/// ``code`` is stable: faces map it to exit statuses and HTTP problem types in one place each.
public enum PMTilesError: Error, Equatable, Sendable {
    /// A 64-bit PMTiles tile id addresses zooms 0 to 31 only.
    case zoomOutOfRange(z: Int)
    /// `x` and `y` must lie in `0 ..< 2^z`.
    case coordinatesOutOfRange(z: Int, x: Int, y: Int)
    /// The id is past the last tile of zoom 31.
    case tileIDOutOfRange(id: UInt64)
    /// The same tile was added a second time.
    case duplicateTile(z: Int, x: Int, y: Int)
    /// The format gives every tile a length above zero: leave an empty tile out instead.
    case emptyTile(z: Int, x: Int, y: Int)
    /// A tile's length must fit the directory's 32-bit length field.
    case tileTooLarge(z: Int, x: Int, y: Int, byteCount: Int)
    /// An archive needs at least one tile: its directory may not be empty.
    case noTiles
    /// A bound or the centre is not a finite longitude in [-180, 180] or latitude in [-90, 90].
    case invalidExtent(reason: String)
    /// The caller's compression closure returned no bytes.
    case compressionFailed(section: String, compression: PMTilesCompression)
    /// Even a root directory of a single leaf entry does not fit beside the header in the first
    /// 16,384 bytes; only a compression closure that inflates its input can cause this.
    case rootDirectoryTooLarge(byteCount: Int)

    /// A short stable identifier of the kind of error.
    public var code: String {
        switch self {
        case .zoomOutOfRange: "tile-zoom-out-of-range"
        case .coordinatesOutOfRange: "tile-coordinates-out-of-range"
        case .tileIDOutOfRange: "tile-id-out-of-range"
        case .duplicateTile: "tile-duplicate"
        case .emptyTile: "tile-empty"
        case .tileTooLarge: "tile-too-large"
        case .noTiles: "archive-without-tiles"
        case .invalidExtent: "archive-extent-invalid"
        case .compressionFailed: "archive-compression-failed"
        case .rootDirectoryTooLarge: "archive-root-directory-too-large"
        }
    }
}

extension PMTilesError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .zoomOutOfRange(let z):
            "zoom \(z) is outside 0...31, the zooms a PMTiles archive can hold"
        case .coordinatesOutOfRange(let z, let x, let y):
            "tile \(z)/\(x)/\(y) does not exist: at zoom \(z), x and y run from 0 to \((1 << z) - 1)"
        case .tileIDOutOfRange(let id):
            "PMTiles tile id \(id) is past the last tile of zoom 31"
        case .duplicateTile(let z, let x, let y):
            "tile \(z)/\(x)/\(y) was added twice; an archive holds each tile once"
        case .emptyTile(let z, let x, let y):
            "tile \(z)/\(x)/\(y) has no bytes; PMTiles stores no empty tiles, so leave it out"
        case .tileTooLarge(let z, let x, let y, let byteCount):
            "tile \(z)/\(x)/\(y) has \(byteCount) bytes; PMTiles allows at most \(UInt32.max) bytes per tile"
        case .noTiles:
            "no tiles were added; a PMTiles archive needs at least one"
        case .invalidExtent(let reason):
            "the archive's extent is invalid: \(reason)"
        case .compressionFailed(let section, let compression):
            "the \(compression) compression of the \(section) failed"
        case .rootDirectoryTooLarge(let byteCount):
            "the root directory takes \(byteCount) bytes even with one leaf; with the header it must stay "
                + "under 16384 bytes (does the internal compression inflate its input?)"
        }
    }
}
