/// A straight edge between two positions, in the coordinate plane of its points.
public struct Segment: Hashable, Sendable {
    public var start: Point
    public var end: Point

    @inlinable
    public init(_ start: Point, _ end: Point) {
        self.start = start
        self.end = end
    }

    @inlinable
    public var boundingBox: BoundingBox {
        BoundingBox(
            minX: Swift.min(start.x, end.x), minY: Swift.min(start.y, end.y),
            maxX: Swift.max(start.x, end.x), maxY: Swift.max(start.y, end.y))
    }
}
