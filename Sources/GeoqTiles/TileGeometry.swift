/// A feature's geometry on a tile's integer grid, ready to be written as MVT 2.1 geometry
/// commands (§4.3).
///
/// The points of all parts lie in one flat array (no array per ring or line); `partEnds[i]` is
/// where part `i` ends in it. A part is a line of a (multi)line string or a ring of a
/// (multi)polygon, a ring given without its closing point; the points of a (multi)point are one
/// part. Polygons keep the order MVT asks for: each exterior ring followed by its holes.
///
/// Invariants expected by the encoder (``TileFeatureBuilder`` makes them hold; a geometry built
/// by hand is written as given): no part is empty, lines have at least 2 points, rings at least
/// 3; exterior rings have a positive ``signedDoubleArea(ofPart:)`` and holes a negative one.
public struct TileGeometry: Hashable, Sendable {
    /// The MVT geometry type, with its number in the `GeomType` enum.
    public enum Kind: UInt32, Hashable, Sendable {
        case point = 1
        case lineString = 2
        case polygon = 3
    }

    public let kind: Kind
    /// The points of every part, part after part.
    public let points: [GridPoint]
    /// The end (exclusive) of each part in ``points``, ascending; the last is `points.count`.
    public let partEnds: [Int]

    /// A geometry of `kind` from flat points and the ends of their parts.
    public init(kind: Kind, points: [GridPoint], partEnds: [Int]) {
        precondition(partEnds.last ?? 0 == points.count, "the last part must end with the points")
        self.kind = kind
        self.points = points
        self.partEnds = partEnds
    }

    /// A geometry of `kind` from one array per part (for tests and small literals).
    public init(kind: Kind, parts: [[GridPoint]]) {
        var ends: [Int] = []
        ends.reserveCapacity(parts.count)
        var total = 0
        for part in parts {
            total += part.count
            ends.append(total)
        }
        self.init(kind: kind, points: Array(parts.joined()), partEnds: ends)
    }

    /// The number of parts (lines, rings, or 1 for points).
    @inlinable public var partCount: Int { partEnds.count }

    /// The range of ``points`` part `i` occupies.
    @inlinable
    public func range(ofPart i: Int) -> Range<Int> {
        (i == 0 ? 0 : partEnds[i - 1])..<partEnds[i]
    }

    /// Twice the signed area of ring `i` by the shoelace formula, exact. With y pointing down,
    /// as on the tile grid, a positive value is a clockwise ring on screen: an exterior ring
    /// by MVT 2.1 §4.3.4.4.
    public func signedDoubleArea(ofPart i: Int) -> Int64 {
        points.withUnsafeBufferPointer { GridGeometry.signedDoubleArea($0, range(ofPart: i)) }
    }

    /// The area the geometry covers, in square grid units: for polygons the exterior rings'
    /// area less the holes'; for points and lines the area of their bounding box, at least 1
    /// (so that a density per area is defined for every feature).
    public var coveredArea: Double {
        if kind == .polygon {
            var doubled: Int64 = 0
            for i in 0..<partCount { doubled += signedDoubleArea(ofPart: i) }
            return Swift.max(Double(doubled) / 2, 1)
        }
        guard let first = points.first else { return 1 }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points {
            minX = Swift.min(minX, p.x)
            maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y)
            maxY = Swift.max(maxY, p.y)
        }
        return Swift.max(Double(Int64(maxX) - Int64(minX)) * Double(Int64(maxY) - Int64(minY)), 1)
    }

    /// The geometry as MVT command integers: `(id & 0x7) | (count << 3)` followed by
    /// zigzag-encoded deltas from the cursor, which starts at (0, 0) and carries from part to
    /// part. Points: one MoveTo with a count of all points; lines: MoveTo, LineTo per line;
    /// rings: MoveTo, LineTo, ClosePath per ring.
    public var commands: [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(commandCount)
        appendCommands(to: &out)
        return out
    }

    /// The number of integers in ``commands``.
    public var commandCount: Int {
        kind == .point
            ? (points.isEmpty ? 0 : 1 + points.count * 2) : points.count * 2 + partCount * (kind == .polygon ? 3 : 2)
    }

    /// Appends ``commands`` to `out` (reserve ``commandCount`` first when appending many: a
    /// reservation here would be exact, and grow `out` by copying it at every call).
    public func appendCommands(to out: inout [UInt32]) {
        var cx: Int32 = 0
        var cy: Int32 = 0
        points.withUnsafeBufferPointer { points in
            @inline(__always) func delta(_ p: GridPoint) {
                out.append(Zigzag.encode32(p.x &- cx))
                out.append(Zigzag.encode32(p.y &- cy))
                cx = p.x
                cy = p.y
            }
            switch kind {
            case .point:
                guard !points.isEmpty else { return }
                out.append(Self.command(1, count: points.count))
                for p in points { delta(p) }
            case .lineString, .polygon:
                for i in 0..<partEnds.count {
                    let part = range(ofPart: i)
                    guard !part.isEmpty else { continue }
                    out.append(Self.command(1, count: 1))
                    delta(points[part.lowerBound])
                    if part.count > 1 {
                        out.append(Self.command(2, count: part.count - 1))
                        for j in (part.lowerBound + 1)..<part.upperBound { delta(points[j]) }
                    }
                    if kind == .polygon { out.append(Self.command(7, count: 1)) }
                }
            }
        }
    }

    @inline(__always)
    static func command(_ id: UInt32, count: Int) -> UInt32 {
        (id & 0x7) | (UInt32(truncatingIfNeeded: count) << 3)
    }
}
