extension PolygonIndex {
    /// The version of the byte form written by ``write(to:)``: raise it whenever what the
    /// arrays of ``StripeTable``, ``PackedRTree``, ``BoundaryRuns`` or this index mean changes
    /// (an element's stride changing is caught anyway), so that older bytes read as stale.
    /// Format 4 starts every array's elements at a multiple of 16 bytes (see ``IndexByteWriter``);
    /// format 5 keeps most parts' stripe edges in two bytes (see ``StripeTable``).
    public static let storageFormat = 5

    /// Writes every part of the index (stripes, part and item trees, each item's boundary
    /// runs, the sole-cover grid of a large layer) as its arrays are, so that
    /// ``init(from:shapes:)`` gives back the same index without building it. The vertices are
    /// not written (only their count): the layer's geometry holds them.
    public func write(to writer: inout IndexByteWriter) {
        writeAllButGrid(to: &writer, gridFollows: soleCover != nil)
        soleCover?.write(to: &writer)
    }

    /// What ``write(to:)`` writes before the grid's own bytes, saying whether they follow.
    private func writeAllButGrid(to writer: inout IndexByteWriter, gridFollows: Bool) {
        writer.append(count)
        writer.append(stripes.storage.vertices.count)
        stripes.write(to: &writer)
        writer.append(firstPart)
        partTree.write(to: &writer)
        writer.append(itemBoxes)
        itemTree.write(to: &writer)
        boundaries.write(to: &writer)
        writer.append(gridFollows ? 1 : 0)
    }

    /// The index's bytes (see ``write(to:)``).
    public func storedBytes() -> [UInt8] {
        Self.bytes { write(to: &$0) }
    }

    /// The bytes `write` writes from `offset` on, written once into room of the right size:
    /// counted first, instead of copied as the array grows (hundreds of megabytes for a large
    /// layer).
    private static func bytes(after offset: Int = 0, _ write: (inout IndexByteWriter) -> Void) -> [UInt8] {
        var counter = IndexByteWriter.counting(after: offset)
        write(&counter)
        var writer = IndexByteWriter(reservingCapacity: counter.count, after: offset)
        write(&writer)
        return writer.bytes
    }

    /// Builds the index of `shapes` and hands its bytes (those of ``storedBytes()``) to
    /// `deliver` in pieces, in order, as soon as each can be made: first what comes before the
    /// sole-cover grid, then (for a layer that gets one) the grid's.
    ///
    /// Each piece is a maker of its bytes, run by the receiver. The first piece of a layer with
    /// a grid is made there, not here: a writer makes and stores it while the grid, the last
    /// and a long part of a large layer's build (a fifth of the time zones'), is built here.
    /// Every other piece is made here before it is handed over (its maker only returns it).
    public static func buildStoredBytes(
        of shapes: [MultiPolygon], gridFromVertices: Int = PolygonIndex.soleCoverGridMinimumVertices,
        deliver: (_ piece: @escaping @Sendable () -> [UInt8]) -> Void
    ) {
        let index = PolygonIndex(withoutGrid: shapes, gridFromVertices: gridFromVertices)
        guard index.wantsGrid(gridFromVertices) else {
            let made = bytes { index.writeAllButGrid(to: &$0, gridFollows: false) }
            deliver { made }
            return
        }
        var counter = IndexByteWriter.counting()
        index.writeAllButGrid(to: &counter, gridFollows: true)
        let gridOffset = counter.count
        deliver { bytes { index.writeAllButGrid(to: &$0, gridFollows: true) } }
        let grid = index.soleCoverGrid(of: shapes)
        let made = bytes(after: gridOffset) { grid.write(to: &$0) }
        deliver { made }
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
