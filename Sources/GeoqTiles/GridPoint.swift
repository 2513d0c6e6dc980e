/// A point of a tile's integer grid: `x` eastwards and `y` southwards from the tile's
/// north-west corner, in units of 1/extent of the tile's side. Points of the buffer around the
/// tile have coordinates below 0 or above the extent.
public struct GridPoint: Hashable, Sendable {
    public var x: Int32
    public var y: Int32

    @inlinable
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}
