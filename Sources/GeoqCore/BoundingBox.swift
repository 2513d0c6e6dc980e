/// An axis-aligned rectangle, closed on all sides.
///
/// Invariant: a non-empty box has `minX <= maxX` and `minY <= maxY`. The ``empty`` box has
/// infinite bounds the wrong way round, so that `union` with it is the identity.
public struct BoundingBox: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    @inlinable
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The box that contains nothing; the identity of ``union(_:)``.
    public static let empty = BoundingBox(
        minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// The smallest box around `points` (``empty`` for none).
    @inlinable
    public init<S: Sequence<Point>>(around points: S) {
        var box = BoundingBox.empty
        // Contiguous positions (an array, a ring's) are read in place, without an iterator.
        let inPlace: Void? = points.withContiguousStorageIfAvailable { buffer in
            for p in buffer { box.expand(toInclude: p) }
        }
        if inPlace == nil {
            for p in points { box.expand(toInclude: p) }
        }
        self = box
    }

    @inlinable public var isEmpty: Bool { minX > maxX || minY > maxY }
    @inlinable public var width: Double { maxX - minX }
    @inlinable public var height: Double { maxY - minY }
    @inlinable public var center: Point { Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

    /// True when `p` lies inside or on the border.
    @inlinable
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    @inlinable
    public func intersects(_ other: BoundingBox) -> Bool {
        other.minX <= maxX && other.maxX >= minX && other.minY <= maxY && other.maxY >= minY
    }

    @inlinable
    public mutating func expand(toInclude p: Point) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    @inlinable
    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(
            minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
            maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }
}
