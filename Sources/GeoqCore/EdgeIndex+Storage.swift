extension EdgeIndex {
    /// Writes the segments and their tree as they are (see ``IndexByteWriter``).
    public func write(to writer: inout IndexByteWriter) {
        writer.append(segments)
        tree.write(to: &writer)
    }

    /// Reads an index written by ``write(to:)`` without rebuilding its tree; the tree must
    /// index exactly the segments read.
    public init(from reader: inout IndexByteReader) throws(IndexBytesError) {
        let segments = try reader.readArray(of: Segment.self)
        let tree = try PackedRTree(from: &reader)
        guard tree.count == segments.count else {
            throw .malformed("edge tree of \(tree.count) items over \(segments.count) segments")
        }
        self.segments = segments
        self.tree = tree
    }
}
