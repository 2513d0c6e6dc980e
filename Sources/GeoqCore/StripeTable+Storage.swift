extension StripeTable {
    /// Writes the table's three buffers as they are (see ``IndexByteWriter``).
    func write(to writer: inout IndexByteWriter) {
        writer.append(UnsafeBufferPointer(storage.parts))
        writer.append(UnsafeBufferPointer(storage.offsets))
        writer.append(UnsafeBufferPointer(storage.edges))
    }

    /// Reads a table written by ``write(to:)``, copying each buffer once. Each part's stripes
    /// are checked to lie within the buffers and its feature to be below `featureCount`, so
    /// that no query can read outside them.
    init(from reader: inout IndexByteReader, featureCount: Int) throws(IndexBytesError) {
        let parts = try reader.readBuffer(of: Part.self)
        let offsets: UnsafeMutableBufferPointer<Int32>
        do { offsets = try reader.readBuffer(of: Int32.self) } catch {
            parts.deallocate()
            throw error
        }
        let edges: UnsafeMutableBufferPointer<Segment>
        do { edges = try reader.readBuffer(of: Segment.self) } catch {
            parts.deallocate()
            offsets.deallocate()
            throw error
        }
        // From here the storage owns (and frees) the buffers, whatever the checks find.
        let storage = StripeStorage(owning: parts, offsets: offsets, edges: edges)
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
        guard checkInvariants() else { throw .malformed("stripe table offsets out of order or beyond its edges") }
    }
}
