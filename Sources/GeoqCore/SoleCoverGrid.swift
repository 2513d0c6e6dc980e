/// A grid over a large layer that answers most point queries without a point-in-polygon test:
/// each cell that no edge of any polygon touches is covered, everywhere, by the same features
/// as its centre, and the cell stores that feature when it is exactly one.
///
/// This is the "shortcut" of time-zone finders (timezonefinder, tzf): on the world's time
/// zones most of the Earth is far from any boundary, so most queries end in one array read.
/// A cell an edge touches, or that lies in no feature or in several (overlapping features),
/// stores -1 and the query goes to the regular index.
///
/// Contract: `soleItem(at:)` returns an item only when that item, and no other, covers the
/// point; nil means "ask the index". Built once, immutable.
///
/// Cost: cells are marked by each edge's bounding box (conservative: a long diagonal edge
/// marks more cells than it crosses, which only sends more queries to the index); then each
/// run of unmarked cells along a row, a region no boundary enters, is classified by one
/// query at its first cell's centre.
@usableFromInline
struct SoleCoverGrid: Sendable {
    @usableFromInline let minX: Double, minY: Double
    /// Cells per degree of x and of y.
    @usableFromInline let scaleX: Double, scaleY: Double
    @usableFromInline let columns: Int, rows: Int
    /// Row-major: cell (column, row) is `cells[row * columns + column]`; an item, or -1.
    @usableFromInline let cells: IndexArray<Int32>

    /// - Parameters:
    ///   - rings: every ring of every polygon of the layer (their edges are what marks cells).
    ///   - box: the layer's extent.
    ///   - cellCount: about how many cells to use.
    ///   - covering: the items covering a point, from the regular index.
    init(rings: [Ring], box: BoundingBox, cellCount: Int, covering: (Point) -> [Int32]) {
        let (width, height) = (Swift.max(box.maxX - box.minX, 1e-9), Swift.max(box.maxY - box.minY, 1e-9))
        let side = (width * height / Double(Swift.max(cellCount, 1))).squareRoot()
        let columns = Swift.max(1, Int((width / side).rounded(.up)))
        let rows = Swift.max(1, Int((height / side).rounded(.up)))
        let (scaleX, scaleY) = (Double(columns) / width, Double(rows) / height)
        var marked = [Bool](repeating: false, count: columns * rows)
        // A point exactly on a cell's border counts in either cell, so each edge marks the cells
        // its box touches, widened by a hair.
        let slack = 1e-9
        func column(_ x: Double) -> Int { Swift.min(columns - 1, Swift.max(0, Int(((x - box.minX) * scaleX)))) }
        func row(_ y: Double) -> Int { Swift.min(rows - 1, Swift.max(0, Int(((y - box.minY) * scaleY)))) }
        for ring in rings {
            ring.points.withUnsafeBufferPointer { points in
                guard points.count > 1 else { return }
                for i in 1..<points.count {
                    let (a, b) = (points[i - 1], points[i])
                    let (c0, c1) = (column(Swift.min(a.x, b.x) - slack), column(Swift.max(a.x, b.x) + slack))
                    let (r0, r1) = (row(Swift.min(a.y, b.y) - slack), row(Swift.max(a.y, b.y) + slack))
                    for r in r0...r1 {
                        for c in c0...c1 { marked[r * columns + c] = true }
                    }
                }
            }
        }
        // The grid's own buffer, not an array copied into one (16 MB for the time zones).
        let cells = LargeAllocation.buffer(of: Int32.self, count: columns * rows)
        cells.initialize(repeating: -1)
        for r in 0..<rows {
            var c = 0
            while c < columns {
                guard !marked[r * columns + c] else {
                    c += 1
                    continue
                }
                // Unmarked cells side by side share a border no edge touches: one region.
                let centre = Point(x: box.minX + (Double(c) + 0.5) / scaleX, y: box.minY + (Double(r) + 0.5) / scaleY)
                let items = covering(centre)
                let sole: Int32 = items.count == 1 ? items[0] : -1
                while c < columns && !marked[r * columns + c] {
                    cells[r * columns + c] = sole
                    c += 1
                }
            }
        }
        self.minX = box.minX
        self.minY = box.minY
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.columns = columns
        self.rows = rows
        self.cells = IndexArray(adopting: cells)
    }

    /// The one item that covers `p`, when `p`'s cell says so; nil: ask the index.
    @inlinable
    func soleItem(at p: Point) -> Int32? {
        let fx = (p.x - minX) * scaleX, fy = (p.y - minY) * scaleY
        // Outside the grid (or NaN): the index decides.
        guard fx >= 0, fy >= 0, fx < Double(columns), fy < Double(rows) else { return nil }
        let item = cells[Int(fy) * columns + Int(fx)]
        return item >= 0 ? item : nil
    }

    /// Share of cells that answer alone, for the benchmark's notes.
    var soleShare: Double { Double(cells.lazy.filter { $0 >= 0 }.count) / Double(Swift.max(cells.count, 1)) }
}
