extension PolygonIndex {
    /// The version of the byte form written by ``write(to:)``: raise it whenever what the
    /// arrays of ``StripeTable``, ``PackedRTree``, ``EdgeIndex`` or this index mean changes
    /// (an element's stride changing is caught anyway), so that older bytes read as stale.
    public static let storageFormat = 2

    /// Writes every part of the index (stripes, part and item trees, each item's edges, the
    /// sole-cover grid of a large layer) as
    /// its arrays are, so that ``init(from:)`` gives back the same index without building it.
    public func write(to writer: inout IndexByteWriter) {
        writer.append(count)
        stripes.write(to: &writer)
        writer.append(firstPart)
        partTree.write(to: &writer)
        writer.append(itemBoxes)
        itemTree.write(to: &writer)
        for edges in edgeIndexes { edges.write(to: &writer) }
        writer.append(soleCover == nil ? 0 : 1)
        soleCover?.write(to: &writer)
    }

    /// The index's bytes (see ``write(to:)``).
    public func storedBytes() -> [UInt8] {
        var writer = IndexByteWriter()
        write(to: &writer)
        return writer.bytes
    }

    /// Reads an index written by ``write(to:)``. Throws when the bytes end early, hold more
    /// than the index, or describe parts that do not fit together (counts of items, parts and
    /// tree entries); never builds anything.
    public init(from reader: inout IndexByteReader) throws(IndexBytesError) {
        let count = try reader.readInt()
        guard count >= 0 else { throw .malformed("item count \(count)") }
        let stripes = try StripeTable(from: &reader, featureCount: count)
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
        var edgeIndexes: [EdgeIndex] = []
        edgeIndexes.reserveCapacity(count)
        for _ in 0..<count { edgeIndexes.append(try EdgeIndex(from: &reader)) }
        let hasGrid = try reader.readInt()
        guard hasGrid == 0 || hasGrid == 1 else { throw .malformed("grid marker \(hasGrid)") }
        let soleCover = hasGrid == 1 ? try SoleCoverGrid(from: &reader, itemCount: count) : nil
        guard reader.isAtEnd else { throw .malformed("bytes left after the index") }
        self.stripes = stripes
        self.firstPart = firstPart
        self.partTree = partTree
        self.itemBoxes = itemBoxes
        self.itemTree = itemTree
        self.edgeIndexes = edgeIndexes
        self.soleCover = soleCover
    }

    /// Reads an index from the bytes of ``storedBytes()``.
    public init(storedBytes bytes: UnsafeRawBufferPointer) throws(IndexBytesError) {
        var reader = IndexByteReader(bytes)
        try self.init(from: &reader)
    }
}
