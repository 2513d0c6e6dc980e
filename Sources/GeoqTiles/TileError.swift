/// Why a tile cannot be named or encoded. Each case has a stable ``code`` for the service's
/// problem answers and the command line's messages.
public enum TileError: Error, Hashable, Sendable {
    /// The zoom level is outside ``TileID/zoomLevels``.
    case zoomOutOfRange(Int)
    /// The column is outside `0 ..< 2^z`.
    case columnOutOfRange(x: Int, zoom: Int)
    /// The row is outside `0 ..< 2^z`.
    case rowOutOfRange(y: Int, zoom: Int)
    /// Two layers of one tile have the same name, which MVT 2.1 §4.1 forbids.
    case duplicateLayerName(String)

    /// A short identifier that does not change between releases.
    public var code: String {
        switch self {
        case .zoomOutOfRange: "tile-zoom-out-of-range"
        case .columnOutOfRange: "tile-column-out-of-range"
        case .rowOutOfRange: "tile-row-out-of-range"
        case .duplicateLayerName: "tile-duplicate-layer-name"
        }
    }
}

extension TileError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .zoomOutOfRange(let z):
            "zoom \(z) is outside \(TileID.zoomLevels.lowerBound)...\(TileID.zoomLevels.upperBound)"
        case .columnOutOfRange(let x, let z): "column \(x) is outside 0..<\(1 << z) at zoom \(z)"
        case .rowOutOfRange(let y, let z): "row \(y) is outside 0..<\(1 << z) at zoom \(z)"
        case .duplicateLayerName(let name): "two layers are named \"\(name)\"; a tile's layer names must differ"
        }
    }
}
