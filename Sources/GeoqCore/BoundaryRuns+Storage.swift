extension BoundaryRuns {
    /// Writes the runs and each item's tree as they are (see ``IndexByteWriter``).
    func write(to writer: inout IndexByteWriter) {
        runStarts.withUnsafeBufferPointer { writer.append($0) }
        runLengths.withUnsafeBufferPointer { writer.append($0) }
        writer.append(firstRun)
        for tree in trees { tree.write(to: &writer) }
    }

    /// Reads runs written by ``write(to:)`` over `vertices` for `itemCount` items, without
    /// rebuilding a tree; refuses runs that break the invariants (a run beyond the vertices, a
    /// tree over another number of runs than its item's).
    init(from reader: inout IndexByteReader, itemCount: Int, vertices: LayerVertices) throws(IndexBytesError) {
        let runStarts = try reader.readIndexArray(of: UInt32.self)
        let runLengths = try reader.readIndexArray(of: UInt8.self)
        let firstRun = try reader.readArray(of: Int.self)
        guard firstRun.count == itemCount + 1 else {
            throw .malformed("boundary runs for \(firstRun.count - 1) items, the index has \(itemCount)")
        }
        var trees: [PackedRTree] = []
        trees.reserveCapacity(itemCount)
        for _ in 0..<itemCount { trees.append(try PackedRTree(from: &reader)) }
        self.init(runStarts: runStarts, runLengths: runLengths, firstRun: firstRun, trees: trees, vertices: vertices)
        guard checkInvariants(itemCount: itemCount) else {
            throw .malformed("boundary runs out of order, beyond the vertices or not matching their trees")
        }
    }
}
