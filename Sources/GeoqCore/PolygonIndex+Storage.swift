extension PolygonIndex {
    /// The version of the byte form written by ``write(to:)``: raise it whenever what the
    /// arrays of ``StripeTable``, ``PackedRTree``, ``BoundaryRuns`` or this index mean changes
    /// (an element's stride changing is caught anyway), so that older bytes read as stale.
    /// Format 4 starts every array's elements at a multiple of 16 bytes (see ``IndexByteWriter``).
    public static let storageFormat = 4

    /// Writes every part of the index (stripes, part and item trees, each item's boundary
    /// runs, the sole-cover grid of a large layer) as its arrays are, so that
    /// ``init(from:shapes:)`` gives back the same index without building it. The vertices are
    /// not written (only their count): the layer's geometry holds them.
    public func write(to writer: inout IndexByteWriter) {
        writer.append(count)
        writer.append(stripes.storage.vertices.count)
        stripes.write(to: &writer)
        writer.append(firstPart)
        partTree.write(to: &writer)
        writer.append(itemBoxes)
        itemTree.write(to: &writer)
        boundaries.write(to: &writer)
        writer.append(soleCover == nil ? 0 : 1)
        soleCover?.write(to: &writer)
    }

    /// The index's bytes (see ``write(to:)``).
    public func storedBytes() -> [UInt8] {
        // Counted first, so that the bytes (hundreds of megabytes for a large layer) are written
        // once into room of the right size instead of being copied as the array grows.
        var counter = IndexByteWriter.counting()
        write(to: &counter)
        var writer = IndexByteWriter(reservingCapacity: counter.count)
        write(to: &writer)
        return writer.bytes
    }

    /// Reads an index written by ``write(to:)`` for `shapes` (the layer's geometry, in the order
    /// the index was built from). Throws when the bytes end early, hold more than the index, or
    /// describe parts that do not fit together or do not fit `shapes` (counts of items, parts,
    /// vertices and tree entries, edge numbers); never builds anything but the vertex buffer.
    public init(from reader: inout IndexByteReader, shapes: [MultiPolygon]) throws(IndexBytesError) {
        let count = try reader.readInt()
        guard count == shapes.count else { throw .malformed("an index of \(count) items for \(shapes.count) shapes") }
        let vertexCount = try reader.readInt()
        let vertices = LayerVertices(shapes)
        guard vertexCount == vertices.count else {
            throw .malformed("an index of \(vertexCount) vertices for shapes of \(vertices.count)")
        }
        let stripes = try StripeTable(from: &reader, featureCount: count, vertices: vertices)
        let firstPart = try reader.readArray(of: Int.self)
        guard firstPart.count == count + 1, firstPart.first == 0, firstPart.last == stripes.count,
            zip(firstPart, firstPart.dropFirst()).allSatisfy({ $0 <= $1 })
        else { throw .malformed("item parts do not cover the \(stripes.count) parts in order") }
        let partTree = try PackedRTree(from: &reader)
        let itemBoxes = try reader.readArray(of: BoundingBox.self)
        let itemTree = try PackedRTree(from: &reader)
        guard partTree.count == stripes.count, itemBoxes.count == count, itemTree.count == count else {
            throw .malformed("trees of \(partTree.count) parts and \(itemTree.count) items over \(count) items")
        }
        let boundaries = try BoundaryRuns(from: &reader, itemCount: count, vertices: vertices)
        let hasGrid = try reader.readInt()
        guard hasGrid == 0 || hasGrid == 1 else { throw .malformed("grid marker \(hasGrid)") }
        let soleCover = hasGrid == 1 ? try SoleCoverGrid(from: &reader, itemCount: count) : nil
        guard reader.isAtEnd else { throw .malformed("bytes left after the index") }
        self.stripes = stripes
        self.firstPart = firstPart
        self.partTree = partTree
        self.itemBoxes = itemBoxes
        self.itemTree = itemTree
        self.boundaries = boundaries
        self.soleCover = soleCover
    }

    /// Reads the index of `shapes` from a blob holding the bytes of ``storedBytes()``; its
    /// largest array stays in the blob (which the index then keeps).
    public init(stored blob: IndexBlob, shapes: [MultiPolygon]) throws(IndexBytesError) {
        var reader = IndexByteReader(blob)
        try self.init(from: &reader, shapes: shapes)
    }

    /// Reads the index of `shapes` from the bytes of ``storedBytes()`` (copied).
    public init(storedBytes bytes: UnsafeRawBufferPointer, shapes: [MultiPolygon]) throws(IndexBytesError) {
        var reader = IndexByteReader(bytes)
        try self.init(from: &reader, shapes: shapes)
    }
}
