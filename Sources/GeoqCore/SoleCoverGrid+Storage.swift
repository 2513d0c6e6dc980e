extension SoleCoverGrid {
    /// Writes the grid's frame and cells as they are (see ``IndexByteWriter``).
    func write(to writer: inout IndexByteWriter) {
        writer.append([minX, minY, scaleX, scaleY])
        writer.append(columns)
        writer.append(rows)
        cells.withUnsafeBufferPointer { writer.append($0) }
    }

    /// Reads a grid written by ``write(to:)`` without rebuilding it. The frame must describe
    /// `cells` exactly and every cell must be -1 or one of the `itemCount` items, so that no
    /// query reads outside the arrays or names an item the layer does not have.
    init(from reader: inout IndexByteReader, itemCount: Int) throws(IndexBytesError) {
        let frame = try reader.readArray(of: Double.self)
        let columns = try reader.readInt()
        let rows = try reader.readInt()
        let cells = try reader.readIndexArray(of: Int32.self)
        guard frame.count == 4, frame.allSatisfy(\.isFinite), frame[2] > 0, frame[3] > 0 else {
            throw .malformed("grid frame of \(frame.count) values")
        }
        guard columns > 0, rows > 0, columns.multipliedReportingOverflow(by: rows) == (cells.count, false) else {
            throw .malformed("grid of \(columns) × \(rows) cells holds \(cells.count)")
        }
        guard cells.allSatisfy({ $0 >= -1 && Int($0) < itemCount }) else {
            throw .malformed("grid cell names an item beyond the layer's \(itemCount)")
        }
        self.init(
            minX: frame[0], minY: frame[1], scaleX: frame[2], scaleY: frame[3], columns: columns, rows: rows,
            cells: cells)
    }

    private init(
        minX: Double, minY: Double, scaleX: Double, scaleY: Double, columns: Int, rows: Int, cells: IndexArray<Int32>
    ) {
        self.minX = minX
        self.minY = minY
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }
}
