extension StripeTable {
    /// Writes the table's four buffers as they are (see ``IndexByteWriter``).
    func write(to writer: inout IndexByteWriter) {
        storage.parts.withUnsafeBufferPointer { writer.append($0) }
        storage.offsets.withUnsafeBufferPointer { writer.append($0) }
        storage.narrowEdges.withUnsafeBufferPointer { writer.append($0) }
        storage.wideEdges.withUnsafeBufferPointer { writer.append($0) }
    }

    /// Reads a table written by ``write(to:)`` over `vertices` (its arrays stay in the bytes
    /// when reading an ``IndexBlob``, else each is copied once). Each
    /// part's stripes are checked to lie within the buffers, its feature to be below
    /// `featureCount` and every edge number to name an edge of `vertices`, so that no query can
    /// read outside them.
    init(from reader: inout IndexByteReader, featureCount: Int, vertices: LayerVertices) throws(IndexBytesError) {
        let parts = try reader.readIndexArray(of: Part.self)
        let offsets = try reader.readIndexArray(of: Int32.self)
        let storage = StripeStorage(
            parts: parts, offsets: offsets, narrowEdges: try reader.readIndexArray(of: UInt16.self),
            wideEdges: try reader.readIndexArray(of: UInt32.self), vertices: vertices)
        for (index, part) in parts.enumerated() {
            let box = part.boundingBox
            guard part.stripeCount >= 1, part.offsetBase >= 0,
                part.offsetBase <= offsets.count - part.stripeCount - 1,
                (0..<Int32(clamping: featureCount)).contains(part.feature), part.edgeBase >= -1,
                part.stripesPerUnit.isFinite, part.stripesPerUnit >= 0,
                box.isEmpty || part.stripesPerUnit * box.height <= Double(part.stripeCount) + 1
            else { throw .malformed("stripe table part \(index) does not fit its buffers") }
        }
        self.storage = storage
        guard checkInvariants() else {
            throw .malformed("stripe table offsets out of order or beyond its edges, or edges beyond the vertices")
        }
    }
}
