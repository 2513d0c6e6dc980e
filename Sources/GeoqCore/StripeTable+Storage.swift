extension StripeTable {
    /// Writes the table's three buffers as they are (see ``IndexByteWriter``).
    func write(to writer: inout IndexByteWriter) {
        writer.append(UnsafeBufferPointer(storage.parts))
        writer.append(UnsafeBufferPointer(storage.offsets))
        writer.append(UnsafeBufferPointer(storage.edges))
    }

    /// Reads a table written by ``write(to:)`` over `vertices`, copying each buffer once (the
    /// edges not at all when reading an ``IndexBlob``: they stay in it). Each
    /// part's stripes are checked to lie within the buffers, its feature to be below
    /// `featureCount` and every edge number to name an edge of `vertices`, so that no query can
    /// read outside them.
    init(from reader: inout IndexByteReader, featureCount: Int, vertices: LayerVertices) throws(IndexBytesError) {
        let parts = try reader.readBuffer(of: Part.self)
        let offsets: UnsafeMutableBufferPointer<Int32>
        do { offsets = try reader.readBuffer(of: Int32.self) } catch {
            parts.deallocate()
            throw error
        }
        let edges: (buffer: UnsafeMutableBufferPointer<UInt32>, owner: IndexBlob?)
        do { edges = try reader.readShared(of: UInt32.self) } catch {
            parts.deallocate()
            offsets.deallocate()
            throw error
        }
        // From here the storage owns (and frees) the buffers, whatever the checks find.
        let storage = StripeStorage(
            owning: parts, offsets: offsets, edges: edges.buffer, edgesIn: edges.owner, vertices: vertices)
        for (index, part) in parts.enumerated() {
            let box = part.boundingBox
            guard part.stripeCount >= 1, part.offsetBase >= 0,
                part.offsetBase <= offsets.count - part.stripeCount - 1,
                (0..<Int32(clamping: featureCount)).contains(part.feature),
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
