extension PackedRTree {
    /// Writes the tree's arrays as they are (see ``IndexByteWriter``).
    public func write(to writer: inout IndexByteWriter) {
        writer.append(nodeSize)
        writer.append(count)
        boxes.withUnsafeBufferPointer { writer.append($0) }
        children.withUnsafeBufferPointer { writer.append($0) }
        writer.append(levelEnds)
    }

    /// Reads a tree written by ``write(to:)`` without rebuilding it. The structure is checked
    /// (levels, child ranges, item numbers) so that no query can read outside the arrays; the
    /// boxes themselves are taken as written (the store's checksum vouches for them).
    public init(from reader: inout IndexByteReader) throws(IndexBytesError) {
        let nodeSize = try reader.readInt()
        let count = try reader.readInt()
        let boxes = try reader.readIndexArray(of: SIMD4<Double>.self)
        let children = try reader.readIndexArray(of: Int32.self)
        let levelEnds = try reader.readArray(of: Int.self)
        try Self.check(nodeSize: nodeSize, count: count, boxes: boxes.count, children: children, levelEnds: levelEnds)
        self.nodeSize = nodeSize
        self.count = count
        self.boxes = boxes
        self.children = children
        self.levelEnds = levelEnds
    }

    /// The largest node size a stored tree may have.
    static let maximumStoredNodeSize = 1024

    /// The invariants a query relies on: level 0 holds the `count` items, each later level
    /// points into the one below, the root is the last entry.
    static func check(
        nodeSize: Int, count: Int, boxes: Int, children: IndexArray<Int32>, levelEnds: [Int]
    ) throws(IndexBytesError) {
        // A query's stack takes room for nodeSize entries per level: a node size no tree is built
        // with (they are built with 16) would have it ask for terabytes.
        guard (2...maximumStoredNodeSize).contains(nodeSize), count >= 0 else {
            throw .malformed("R-tree node size \(nodeSize), count \(count)")
        }
        guard children.count == boxes, let last = levelEnds.last, last == boxes, levelEnds[0] == count,
            count > 0 || levelEnds.count == 1
        else { throw .malformed("R-tree levels do not match its \(boxes) entries and \(count) items") }
        var start = 0
        for (level, end) in levelEnds.enumerated() {
            guard end > start || (count == 0 && end == 0) else { throw .malformed("R-tree level \(level) is empty") }
            let below = level == 0 ? 0..<count : (level == 1 ? 0 : levelEnds[level - 2])..<levelEnds[level - 1]
            for entry in start..<end where !below.contains(Int(children[entry])) {
                throw .malformed("R-tree entry \(entry) points outside the level below")
            }
            start = end
        }
        guard levelEnds.count == 1 || levelEnds.last! - levelEnds[levelEnds.count - 2] == 1 else {
            throw .malformed("R-tree has more than one root")
        }
    }
}
