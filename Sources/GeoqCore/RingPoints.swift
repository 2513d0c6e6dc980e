/// A ring's positions: either an array of its own, or a range of a ``PointArena`` shared with
/// the other rings of a layer read from a store.
///
/// A random-access collection indexed from 0, as the array it replaces; compare it with `==`
/// and copy it out with `Array(_:)` where an array is needed.
public struct RingPoints: RandomAccessCollection, Hashable, Sendable, CustomStringConvertible {
    @usableFromInline enum Storage: Sendable {
        case own([Point])
        case shared(PointArena, start: Int)
    }

    @usableFromInline let storage: Storage
    public let count: Int

    /// The positions of `points`, kept as they are.
    public init(_ points: [Point]) {
        storage = .own(points)
        count = points.count
    }

    init(buffer: PointArena, start: Int, count: Int) {
        storage = .shared(buffer, start: start)
        self.count = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(position: Int) -> Point {
        switch storage {
        case .own(let points): return points[position]
        case .shared(let buffer, let start):
            precondition(position >= 0 && position < count, "ring position out of range")
            return buffer.base[start + position]
        }
    }

    /// The positions as an array: the ring's own without a copy, or a copy of its range of a
    /// shared buffer.
    public var array: [Point] {
        switch storage {
        case .own(let points): points
        case .shared: withUnsafeBufferPointer { Array($0) }
        }
    }

    /// Calls `body` with the positions in contiguous memory (valid only during the call).
    @inlinable
    public func withUnsafeBufferPointer<R, E: Error>(
        _ body: (UnsafeBufferPointer<Point>) throws(E) -> R
    ) throws(E) -> R {
        switch storage {
        case .own(let points):
            let result = points.withUnsafeBufferPointer { buffer in
                Result { () throws(E) -> R in try body(buffer) }
            }
            return try result.get()
        case .shared(let buffer, let start):
            return try withExtendedLifetime(buffer) { () throws(E) -> R in
                try body(UnsafeBufferPointer(start: buffer.base + start, count: count))
            }
        }
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Point>) throws -> R) rethrows -> R? {
        try withUnsafeBufferPointer { buffer in try body(buffer) }
    }

    /// The range of `buffer` these positions occupy, if they lie in it.
    func range(in buffer: PointArena) -> Range<Int>? {
        guard case .shared(let own, let start) = storage, own === buffer else { return nil }
        return start..<start + count
    }

    public static func == (a: RingPoints, b: RingPoints) -> Bool {
        guard a.count == b.count else { return false }
        if case .shared(let x, let i) = a.storage, case .shared(let y, let j) = b.storage, x === y, i == j {
            return true
        }
        return a.elementsEqual(b)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for point in self { hasher.combine(point) }
    }

    public var description: String { Array(self).description }
}
