/// A rectangle of tiles of one zoom level, as a collection in column-major order (all rows of
/// the westernmost column first), which is ascending ``TileID`` order. Holds only its bounds,
/// so a range of millions of tiles costs nothing until iterated.
public struct TileRange: RandomAccessCollection, Hashable, Sendable {
    public let zoom: Int
    /// The columns, west to east; empty when the range is.
    public let columns: Range<Int>
    /// The rows, north to south; empty when the range is.
    public let rows: Range<Int>

    /// The caller vouches that the ranges lie in `0 ..< 2^zoom`.
    init(zoom: Int, columns: Range<Int>, rows: Range<Int>) {
        self.zoom = zoom
        let empty = columns.isEmpty || rows.isEmpty
        self.columns = empty ? 0..<0 : columns
        self.rows = empty ? 0..<0 : rows
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { columns.count * rows.count }

    public subscript(position: Int) -> TileID {
        precondition(position >= 0 && position < endIndex, "tile position out of range")
        let height = rows.count
        return TileID(
            validZ: zoom, x: columns.lowerBound + position / height, y: rows.lowerBound + position % height)
    }

    /// Whether `tile` lies in the range.
    public func contains(_ tile: TileID) -> Bool {
        tile.z == zoom && columns.contains(tile.x) && rows.contains(tile.y)
    }
}
