import GeoqTestSupport
import Testing

@testable import GeoqCore

/// The byte form of the packed indexes: a round trip gives the same answers, and bytes cut short
/// or of the wrong shape are refused, never read as an index.
@Suite struct IndexStorageTests {
    /// Seeded squares with a square hole and an L-shaped one, some overlapping, a multipolygon of
    /// two parts among them.
    static func shapes(count: Int, seed: UInt64) throws -> [MultiPolygon] {
        var random = SeededRandom(seed: seed)
        func square(_ x: Double, _ y: Double, _ s: Double) throws -> Ring {
            try Ring([
                Point(x: x, y: y), Point(x: x + s, y: y), Point(x: x + s, y: y + s), Point(x: x, y: y + s),
                Point(x: x, y: y),
            ])
        }
        return try (0..<count).map { i in
            let x = random.uniform(0...90), y = random.uniform(0...90), s = random.uniform(1...10)
            let holed = Polygon(shell: try square(x, y, s), holes: [try square(x + s / 4, y + s / 4, s / 2)])
            let ell = Polygon(
                shell: try Ring([
                    Point(x: x, y: y - 5), Point(x: x + 4, y: y - 5), Point(x: x + 4, y: y - 4),
                    Point(x: x + 1, y: y - 4),
                    Point(x: x + 1, y: y - 1), Point(x: x, y: y - 1), Point(x: x, y: y - 5),
                ]), holes: [])
            return MultiPolygon(i % 3 == 0 ? [holed, ell] : [holed])
        }
    }

    @Test func polygonIndexRoundTripAnswersTheSame() throws {
        let shapes = try Self.shapes(count: 60, seed: 41)
        let built = PolygonIndex(shapes)
        let bytes = built.storedBytes()
        // The counting pass that sizes the bytes counts exactly what the writing pass writes.
        var counter = IndexByteWriter.counting()
        built.write(to: &counter)
        #expect(counter.count == bytes.count && counter.bytes.isEmpty)
        let copied = try bytes.withUnsafeBytes { try PolygonIndex(storedBytes: $0, shapes: shapes) }
        // Read as the store reads it: the stripes' edge numbers stay in the blob.
        let blob = IndexBlob(count: bytes.count)
        blob.bytes.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: bytes.count))
        let read = try PolygonIndex(stored: blob, shapes: shapes)
        #expect(read.count == built.count && read.boundingBox == built.boundingBox)
        // The trees' boxes and children and the runs are used where they lie in the blob too.
        let blobRange =
            UnsafeRawPointer(blob.bytes.baseAddress!)..<UnsafeRawPointer(blob.bytes.baseAddress! + blob.bytes.count)
        let inPlace: [UnsafeRawPointer?] = [
            read.partTree.boxes.base.map(UnsafeRawPointer.init), read.itemTree.children.base.map(UnsafeRawPointer.init),
            read.boundaries.runStarts.base.map(UnsafeRawPointer.init),
            read.boundaries.runLengths.base.map(UnsafeRawPointer.init),
            read.boundaries.trees[5].boxes.base.map(UnsafeRawPointer.init),
        ]
        #expect(inPlace.allSatisfy { $0.map(blobRange.contains) ?? false })
        #expect(copied.partTree.boxes.base.map { blobRange.contains(UnsafeRawPointer($0)) } == false)
        #expect(copied.storedBytes() == bytes)
        var random = SeededRandom(seed: 42)
        let metric = LocalMetric.planar
        var hits = 0
        for _ in 0..<5_000 {
            let p = Point(x: random.uniform(-5...105), y: random.uniform(-10...105))
            let covering = built.covering(p)
            hits += covering.isEmpty ? 0 : 1
            #expect(read.covering(p) == covering)
            for item in 0..<built.count where item % 7 == 0 {
                #expect(read.locate(p, item: item) == built.locate(p, item: item))
                let a = read.nearestBoundaryPoint(to: p, item: item, metric: metric)
                let b = built.nearestBoundaryPoint(to: p, item: item, metric: metric)
                #expect(a.point == b.point && a.distance == b.distance)
            }
            let a = read.nearestByBoundary(to: p, metric: metric, limit: 2)
            let b = built.nearestByBoundary(to: p, metric: metric, limit: 2)
            #expect(a.map(\.item) == b.map(\.item) && a.map(\.distance) == b.map(\.distance))
        }
        #expect(hits > 500)
        // The same bytes again: writing is deterministic.
        #expect(read.storedBytes() == bytes)
    }

    /// Every prefix of the bytes (and the bytes with one more word) is refused with an error.
    /// The same shapes give the same bytes, whatever the memory the index was built in held
    /// before: every value written raw fills its stride, so no padding goes out with it.
    @Test func sameShapesGiveTheSameBytes() throws {
        func fillsItsStride<T>(_: T.Type) -> Bool { MemoryLayout<T>.size == MemoryLayout<T>.stride }
        #expect(fillsItsStride(StripeTable.Part.self))
        #expect(fillsItsStride(SIMD4<Double>.self) && fillsItsStride(BoundingBox.self))
        let shapes = try Self.shapes(count: 60, seed: 43)
        let first = PolygonIndex(shapes).storedBytes()
        for fill in [UInt8(0xFF), 0xA5] {
            // Memory freed full of `fill`, of every size the build asks for, for it to reuse.
            let dirty = stride(from: 64, through: 1 << 16, by: 64).map { size in
                let block = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
                block.initializeMemory(as: UInt8.self, repeating: fill)
                return block
            }
            for block in dirty { block.deallocate() }
            let again = PolygonIndex(shapes).storedBytes()
            let difference =
                again.indices.first { $0 >= first.count || again[$0] != first[$0] }
                ?? (again.count == first.count ? nil : again.count)
            #expect(difference == nil, "bytes differ from offset \(difference ?? -1)")
        }
    }

    /// The bytes an import stores while it builds the index, piece by piece, are those of the
    /// whole index built at once: one piece without a sole-cover grid; with one, what comes
    /// before the grid, then the grid's (written after the first piece's length, whatever its
    /// alignment), and each reads back as the index.
    @Test(arguments: [Int.max, 0])
    func bytesInPiecesAreTheIndexsBytes(gridFromVertices: Int) throws {
        let shapes = try Self.shapes(count: 60, seed: 44)
        let whole = PolygonIndex(shapes, gridFromVertices: gridFromVertices).storedBytes()
        var pieces: [[UInt8]] = []
        PolygonIndex.buildStoredBytes(of: shapes, gridFromVertices: gridFromVertices) { pieces.append($0()) }
        #expect(pieces.count == (gridFromVertices == 0 ? 2 : 1))
        let joined = pieces.flatMap { $0 }
        let same = joined == whole
        #expect(same, "the pieces' bytes differ from the whole index's")
        #expect(pieces.allSatisfy { !$0.isEmpty })
        let read = try joined.withUnsafeBytes { try PolygonIndex(storedBytes: $0, shapes: shapes) }
        #expect((read.soleCoverShare != nil) == (gridFromVertices == 0))
    }

    @Test func cutOrLongerBytesAreRefused() throws {
        let shapes = try Self.shapes(count: 5, seed: 43)
        let bytes = PolygonIndex(shapes).storedBytes()
        for length in stride(from: 0, to: bytes.count, by: 8) {
            #expect(throws: IndexBytesError.self) {
                try Array(bytes[..<length]).withUnsafeBytes { try PolygonIndex(storedBytes: $0, shapes: shapes) }
            }
        }
        #expect(throws: IndexBytesError.malformed("bytes left after the index")) {
            try (bytes + [UInt8](repeating: 0, count: 8)).withUnsafeBytes {
                try PolygonIndex(storedBytes: $0, shapes: shapes)
            }
        }
    }

    /// Bytes written for other shapes are refused: another number of vertices, or the same
    /// number with a stripe naming an edge beyond them.
    @Test func bytesOfOtherShapesAreRefused() throws {
        let shapes = try Self.shapes(count: 6, seed: 44)
        var bytes = PolygonIndex(shapes).storedBytes()
        let fewer = Array(shapes.dropLast())
        #expect(throws: IndexBytesError.self) {
            try bytes.withUnsafeBytes { try PolygonIndex(storedBytes: $0, shapes: fewer) }
        }
        // Layout: item count, vertex count, the stripe parts, the offsets, then the two-byte
        // edge numbers; each array its count and stride, its elements from a multiple of 16
        // bytes on (eight zero bytes before them when needed), padded to 8.
        func word(_ at: Int) -> Int {
            Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt64.self) })
        }
        func elements(_ at: Int) -> Int { (at + 16) % 16 == 0 ? at + 16 : at + 24 }
        var at = 16
        for _ in 0..<2 { at = elements(at) + (word(at) * word(at + 8) + 7) / 8 * 8 }
        #expect(word(at + 8) == 2 && word(at) > 0)
        // An edge 65,535 past its part's first: beyond the vertices of these small shapes.
        withUnsafeBytes(of: UInt16.max.littleEndian) {
            bytes.replaceSubrange(elements(at)..<elements(at) + 2, with: $0)
        }
        #expect(throws: IndexBytesError.self) {
            try bytes.withUnsafeBytes { try PolygonIndex(storedBytes: $0, shapes: shapes) }
        }
    }

    /// A tree whose child points outside its level below is refused, not searched.
    @Test func treeWithAChildOutOfRangeIsRefused() throws {
        let tree = PackedRTree(
            boxes: (0..<40).map { BoundingBox(minX: Double($0), minY: 0, maxX: Double($0) + 1, maxY: 1) })
        var writer = IndexByteWriter()
        tree.write(to: &writer)
        var bytes = writer.bytes
        // Layout: nodeSize, count, then the boxes array (count, stride, 32 bytes each), then
        // the children array (count, stride, Int32s): set the first child to 40 (no such item).
        let entries = 40 + 3 + 1  // 40 items, 3 nodes of up to 16, the root
        let childrenStart = 16 + 16 + entries * 32 + 16
        withUnsafeBytes(of: Int32(40).littleEndian) {
            bytes.replaceSubrange(childrenStart..<childrenStart + 4, with: $0)
        }
        #expect(throws: IndexBytesError.self) {
            try bytes.withUnsafeBytes { raw in
                var reader = IndexByteReader(raw)
                _ = try PackedRTree(from: &reader)
            }
        }
        // Unchanged, the same bytes read back.
        try writer.bytes.withUnsafeBytes { raw in
            var reader = IndexByteReader(raw)
            let read = try PackedRTree(from: &reader)
            #expect(
                read.items(intersecting: BoundingBox(minX: 9.5, minY: 0, maxX: 11.5, maxY: 1)).sorted() == [9, 10, 11])
        }
    }

    /// A tree whose node size no tree is built with (2^40, or Int.max: a query would ask for room
    /// for that many entries per level, and trap) is refused, not searched.
    @Test func treeWithAnAbsurdNodeSizeIsRefused() throws {
        let tree = PackedRTree(
            boxes: (0..<40).map { BoundingBox(minX: Double($0), minY: 0, maxX: Double($0) + 1, maxY: 1) })
        var writer = IndexByteWriter()
        tree.write(to: &writer)
        // The node size is the first word.
        for nodeSize in [1 << 40, Int.max] {
            var bytes = writer.bytes
            withUnsafeBytes(of: UInt64(nodeSize).littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
            #expect(throws: IndexBytesError.self) {
                try bytes.withUnsafeBytes { raw in
                    var reader = IndexByteReader(raw)
                    _ = try PackedRTree(from: &reader)
                }
            }
        }
    }
}
