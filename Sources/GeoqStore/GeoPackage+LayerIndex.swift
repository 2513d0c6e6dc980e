import GeoqCore
import Synchronization

/// Each layer's packed index, stored beside it so that opening the store does not build it again.
///
/// Two tables of geoq's own, outside gpkg_contents (GDAL and QGIS list no layer for them), and
/// one row per indexed layer in gpkg_extensions (extension `geoq_packed_index`, scope
/// write-only: readers may ignore it, writers of the layer table keep it honest through its
/// triggers):
/// - `geoq_layer_index`: per layer the index kind and format version, the layer's identity
///   when the index was written (feature count, total size of the geometry blobs,
///   gpkg_contents.last_change), an edit counter,
///   the byte count and the XXH64 checksum of the bytes;
/// - `geoq_layer_index_chunks`: the bytes, in chunks of at most ``chunkSize`` (SQLite caps a
///   value at a billion bytes, and an index of millions of edges comes near it), numbered
///   consecutively from any first number (a layer's new chunks are written after its old ones,
///   which are deleted next, see ``stageLayerIndex(of:_:)``).
///
/// Triggers on the layer table bump the edit counter on every insert, update or delete, by
/// any client (GDAL, QGIS, the sqlite3 shell): an index written before an edit is then stale.
/// A re-import changes last_change; a damaged blob fails its checksum or its structural
/// checks. In every such case the reader is told why, and the layer is indexed anew.
extension GeoPackage {
    /// The extension's name in gpkg_extensions.
    public static let indexExtensionName = "geoq_packed_index"
    static let indexExtensionDefinition =
        "geoq's packed point-in-polygon and nearest index of the layer, tables geoq_layer_index and "
        + "geoq_layer_index_chunks; other clients may ignore it (it is checked and rebuilt when stale)"
    /// Bytes per stored chunk, at most: after each, an import has the disk start on it while it
    /// writes the next (see ``writeBackStep``; the time zones' 124 MB in 8 chunks, the last of
    /// each of their two pieces shorter, see ``LayerIndexInput``).
    static let chunkSize = writeBackStep

    /// What a stored index is for, so that bytes of one kind are never read as another.
    public struct IndexKind: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// Why a layer's stored index was not used.
    public struct UnusableIndex: Error, Hashable, Sendable, CustomStringConvertible {
        public enum Reason: String, Hashable, Sendable {
            /// No index stored for the layer.
            case missing
            /// Written for another content of the layer, kind or format version.
            case stale
            /// Bytes that fail their checksum or do not describe an index.
            case damaged
        }

        public var reason: Reason
        /// What was found, for the load report.
        public var detail: String

        public init(reason: Reason, detail: String) {
            self.reason = reason
            self.detail = detail
        }

        public var description: String { "\(reason.rawValue): \(detail)" }
    }

    /// A layer's index as it is to be stored: what it is for, its format version, its bytes.
    ///
    /// The bytes come in pieces, in order, from ``nextPiece`` until it gives nil: a caller that
    /// is still building the index hands over each piece once it is made (and the store writes
    /// one while the next is built). The stored bytes are the pieces one after the other.
    public struct LayerIndexInput: Sendable {
        public var kind: IndexKind
        public var format: Int
        /// The next piece of the bytes (it may wait for it to be made), or nil after the last.
        public var nextPiece: @Sendable () -> [UInt8]?

        /// An index whose bytes are all at hand.
        public init(kind: IndexKind, format: Int, bytes: [UInt8]) {
            let remaining = Mutex<[UInt8]?>(bytes)
            self.init(kind: kind, format: format) {
                remaining.withLock { piece in
                    defer { piece = nil }
                    return piece
                }
            }
        }

        public init(kind: IndexKind, format: Int, nextPiece: @escaping @Sendable () -> [UInt8]?) {
            self.kind = kind
            self.format = format
            self.nextPiece = nextPiece
        }
    }

    /// Writes `index` as the index of layer `table`, replacing any earlier one, in one
    /// transaction, and installs the triggers that mark it stale when the layer table changes.
    /// Call it after the layer's rows are written (their count and last_change are recorded as
    /// its identity).
    public func replaceLayerIndex(of table: String, _ index: LayerIndexInput) throws(StoreError) {
        do {
            // An index written for an earlier content of the layer (another writer re-imported
            // it; ``replaceLayer(_:)`` drops the index itself) is worth nothing: dropped in a
            // transaction of its own, its pages are reused below without being copied to the
            // journal first.
            try connection.transaction { () throws(StoreError) in
                if try indexIsStale(table) { try deleteLayerIndex(of: table) }
            }
            try connection.transaction { () throws(StoreError) in try writeLayerIndex(of: table, index) }
        } catch {
            throw error.within("writing the index of layer '\(table)'")
        }
    }

    /// ``replaceLayerIndex(of:_:)``'s writes, in the caller's transaction.
    func writeLayerIndex(of table: String, _ index: LayerIndexInput) throws(StoreError) {
        try deleteLayerIndex(of: table)
        try recordLayerIndex(of: table, stageLayerIndex(of: table, index))
    }

    /// A layer's index whose chunks are written (``stageLayerIndex(of:_:)``) but not yet recorded
    /// as its index (``recordLayerIndex(of:_:)``).
    struct StagedIndex {
        let kind: IndexKind
        let format: Int
        let byteCount: Int
        let checksum: UInt64
        /// The number of the first chunk; the layer's older chunks all have smaller ones.
        let firstChunk: Int64
        let chunkCount: Int
    }

    /// Writes `index`'s bytes as chunks of layer `table`, numbered after the chunks the layer
    /// has already (its old index, if any), which stay until deleted with
    /// ``deleteLayerIndex(of:before:)``. So a layer being replaced gets its new index before
    /// the old layer frees its pages: SQLite copies to the journal no page that was free when
    /// the transaction began, nor any past the file's old end, but would copy every freed page
    /// that the new chunks reused.
    func stageLayerIndex(of table: String, _ index: LayerIndexInput) throws(StoreError) -> StagedIndex {
        try createIndexTables()
        let next = try connection.prepare(
            "SELECT coalesce(max(chunk) + 1, 0) FROM geoq_layer_index_chunks WHERE table_name = ?")
        try next.bind(table, at: 1)
        _ = try next.step()
        let first = next.int64(at: 0)
        let insert = try connection.prepare("INSERT INTO geoq_layer_index_chunks VALUES (?, ?, ?)")
        var checksum = PieceChecksum()
        var byteCount = 0
        var chunkCount = 0
        while let piece = index.nextPiece() {
            checksum.add(piece)
            byteCount += piece.count
            // The chunks are bound in place, not copied (see bind(borrowedBlob:at:)).
            let failure = piece.withUnsafeBytes { all -> StoreError? in
                do throws(StoreError) {
                    for start in stride(from: 0, to: all.count, by: Self.chunkSize) {
                        let chunk = start..<min(start + Self.chunkSize, all.count)
                        try insert.bind(table, at: 1)
                        try insert.bind(first + Int64(chunkCount), at: 2)
                        try insert.bind(borrowedBlob: UnsafeRawBufferPointer(rebasing: all[chunk]), at: 3)
                        try insert.run()
                        chunkCount += 1
                        // The disk starts on this chunk while SQLite copies the next.
                        connection.startWriteBack()
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
        return StagedIndex(
            kind: index.kind, format: index.format, byteCount: byteCount, checksum: checksum.finish(),
            firstChunk: first, chunkCount: chunkCount)
    }

    /// The checksum of bytes that come in pieces of any size, each summed as it comes.
    private struct PieceChecksum {
        private var running = IndexChecksum.Running()
        /// The bytes after the last whole 32-byte stripe summed (fewer than 32).
        private var pending: [UInt8] = []

        mutating func add(_ piece: [UInt8]) {
            piece.withUnsafeBytes { bytes in
                var start = 0
                if !pending.isEmpty {
                    start = min(32 - pending.count, bytes.count)
                    pending.append(contentsOf: bytes[0..<start])
                    guard pending.count == 32 else { return }
                    pending.withUnsafeBytes { running.add($0) }
                    pending.removeAll()
                }
                let end = start + (bytes.count - start) / 32 * 32
                running.add(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                pending.append(contentsOf: bytes[end...])
            }
        }

        func finish() -> UInt64 { pending.withUnsafeBytes { running.finish(tail: $0) } }
    }

    /// Records the chunks of `staged` as the index of layer `table`, whose rows and
    /// gpkg_contents row are written (their count and last_change are its identity), and whose
    /// older chunks are deleted.
    func recordLayerIndex(of table: String, _ staged: StagedIndex) throws(StoreError) {
        guard let lastChange = try lastChange(of: table) else {
            throw StoreError(.unknownLayer, "\(path): no layer named '\(table)' to index")
        }
        let (count, geometryBytes) = try identity(of: table)
        let header = try connection.prepare(
            "INSERT INTO geoq_layer_index VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)")
        try header.bind(table, at: 1)
        try header.bind(staged.kind.rawValue, at: 2)
        try header.bind(Int64(staged.format), at: 3)
        try header.bind(count, at: 4)
        try header.bind(geometryBytes, at: 5)
        try header.bind(lastChange, at: 6)
        try header.bind(Int64(staged.byteCount), at: 7)
        try header.bind(Int64(bitPattern: staged.checksum), at: 8)
        try header.bind(Int64(staged.chunkCount), at: 9)
        try header.run()
        let register = try connection.prepare(
            "INSERT OR REPLACE INTO gpkg_extensions VALUES (?, 'geom', ?, ?, 'write-only')")
        try register.bind(table, at: 1)
        try register.bind(Self.indexExtensionName, at: 2)
        try register.bind(Self.indexExtensionDefinition, at: 3)
        try register.run()
        try connection.execute(Self.indexTriggers(table: table))
    }

    /// Reads the index of layer `table` and hands its bytes to `decode` (which may keep them),
    /// after checking that it is of `kind` and `format`, was written for the layer's present
    /// content (as many rows and geometry bytes, the same last_change, no edit since) and
    /// matches its checksum. Returns what `decode` returns, or why the index cannot be used
    /// (`decode` throwing counts as damaged).
    public func withLayerIndex<T>(
        of table: String, kind: IndexKind, format: Int,
        _ decode: (IndexBlob) throws -> T
    ) throws(StoreError) -> Result<T, UnusableIndex> {
        let blob: IndexBlob
        switch try layerIndexRecord(of: table, kind: kind, format: format) {
        case .failure(let unusable): return .failure(unusable)
        case .success(let record):
            switch try layerIndexBytes(of: table, record: record) {
            case .failure(let unusable): return .failure(unusable)
            case .success(let bytes): blob = bytes
            }
        }
        do {
            return .success(try decode(blob))
        } catch {
            return .failure(UnusableIndex(reason: .damaged, detail: "\(error)"))
        }
    }

    /// How much of a stored index is read before its checksum is taken over it (well inside
    /// the processor's cache).
    static let checksumPiece = 1 << 20

    /// Runs `body` in one read transaction: every read in it (rows, index record) sees the same
    /// content of the store, even if another process writes meanwhile.
    public func reading<T>(_ body: () -> T) throws(StoreError) -> T {
        try connection.readTransaction(body)
    }

    /// What the store records of a layer's index that its bytes must match (see
    /// ``layerIndexRecord(of:kind:format:)``).
    public struct LayerIndexRecord: Hashable, Sendable {
        public let byteCount: Int64
        public let checksum: UInt64
        public let chunkCount: Int64
    }

    /// The record of layer `table`'s index once it is checked to be of `kind` and `format` and
    /// written for the layer's present content (as many rows and geometry bytes, the same
    /// last_change, no edit since), or why it is not. Read in the same transaction as the
    /// layer's rows, it vouches that an index whose bytes match it (``layerIndexBytes(of:record:)``,
    /// on any connection) was written for those rows.
    public func layerIndexRecord(
        of table: String, kind: IndexKind, format: Int
    ) throws(StoreError) -> Result<LayerIndexRecord, UnusableIndex> {
        guard try tableExists("geoq_layer_index"), try tableExists("geoq_layer_index_chunks") else {
            return .failure(UnusableIndex(reason: .missing, detail: "the store has no stored indexes"))
        }
        let header = try connection.prepare(
            """
            SELECT i.kind, i.format_version, i.feature_count, i.last_change, i.edits, i.byte_count,
                   i.checksum, i.chunk_count, c.last_change, i.geometry_bytes
            FROM geoq_layer_index i LEFT JOIN gpkg_contents c ON c.table_name = i.table_name
            WHERE i.table_name = ?
            """)
        try header.bind(table, at: 1)
        guard try header.step() else {
            return .failure(UnusableIndex(reason: .missing, detail: "no index stored for layer '\(table)'"))
        }
        let storedKind = header.text(at: 0) ?? ""
        let storedFormat = header.int64(at: 1)
        let storedCount = header.int64(at: 2)
        let storedChange = header.text(at: 3) ?? ""
        let edits = header.int64(at: 4)
        let byteCount = header.int64(at: 5)
        let checksum = UInt64(bitPattern: header.int64(at: 6))
        let chunkCount = header.int64(at: 7)
        let layerChange = header.text(at: 8) ?? ""
        let storedGeometryBytes = header.int64(at: 9)
        func stale(_ detail: String) -> Result<LayerIndexRecord, UnusableIndex> {
            .failure(UnusableIndex(reason: .stale, detail: detail))
        }
        func damaged(_ detail: String) -> Result<LayerIndexRecord, UnusableIndex> {
            .failure(UnusableIndex(reason: .damaged, detail: detail))
        }
        guard storedKind == kind.rawValue else { return stale("a \(storedKind) index, not a \(kind.rawValue) one") }
        guard storedFormat == format else { return stale("format version \(storedFormat), this geoq reads \(format)") }
        guard storedChange == layerChange else {
            return stale("written for the layer of \(storedChange), the layer changed at \(layerChange)")
        }
        guard edits == 0 else {
            return stale("the layer table was edited \(edits) time(s) after the index was written")
        }
        let (count, geometryBytes) = try identity(of: table)
        guard storedCount == count else { return stale("written for \(storedCount) features, the layer has \(count)") }
        guard storedGeometryBytes == geometryBytes else {
            return stale("written for \(storedGeometryBytes) bytes of geometry, the layer has \(geometryBytes)")
        }
        return .success(LayerIndexRecord(byteCount: byteCount, checksum: checksum, chunkCount: chunkCount))
    }

    /// The bytes of layer `table`'s index, read in place into memory of their own, if they are
    /// as many, in as many chunks, and of the checksum that `record` says; else why not.
    public func layerIndexBytes(
        of table: String, record: LayerIndexRecord
    ) throws(StoreError) -> Result<IndexBlob, UnusableIndex> {
        let (byteCount, checksum, chunkCount) = (record.byteCount, record.checksum, record.chunkCount)
        func damaged(_ detail: String) -> Result<IndexBlob, UnusableIndex> {
            .failure(UnusableIndex(reason: .damaged, detail: detail))
        }
        // The chunks' sizes are checked against the recorded size before anything is allocated:
        // a damaged header must not ask for more memory than the bytes stored.
        let sizes = try connection.prepare(
            "SELECT count(*), total(length(data)) FROM geoq_layer_index_chunks WHERE table_name = ?")
        try sizes.bind(table, at: 1)
        _ = try sizes.step()
        guard sizes.int64(at: 0) == chunkCount, sizes.double(at: 1) == Double(byteCount), byteCount >= 0 else {
            return damaged(
                "\(sizes.int64(at: 0)) chunks of \(Int64(sizes.double(at: 1))) bytes, "
                    + "\(chunkCount) of \(byteCount) recorded")
        }

        let blob = IndexBlob(count: Int(byteCount))
        let buffer = blob.bytes
        // Each chunk's size first, then its bytes straight into place (see readBlob).
        let chunks = try connection.prepare(
            """
            SELECT chunk, rowid, length(data), typeof(data) FROM geoq_layer_index_chunks
            WHERE table_name = ? ORDER BY chunk
            """)
        try chunks.bind(table, at: 1)
        var filled = 0
        // The chunks are numbered consecutively from any first number.
        var expected: Int64?
        // The checksum is taken a megabyte at a time, right after each is read: one pass over
        // the bytes in memory instead of two.
        var running = IndexChecksum.Running()
        var summed = 0
        func sum(upTo end: Int) {
            let stripes = end / 32 * 32
            guard stripes > summed else { return }
            running.add(UnsafeRawBufferPointer(rebasing: buffer[summed..<stripes]))
            summed = stripes
        }
        var read: Int64 = 0
        while try chunks.step() {
            let number = chunks.int64(at: 0)
            guard number == expected ?? number else { return damaged("chunk \(expected ?? number) missing") }
            guard chunks.text(at: 3) == "blob" else { return damaged("chunk \(number) is not a blob") }
            let size = Int(chunks.int64(at: 2))
            guard size >= 0, size <= buffer.count - filled else {
                return damaged("more bytes than the \(byteCount) recorded")
            }
            let destination = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + size])
            let start = filled
            let found = try connection.readBlob(
                table: "geoq_layer_index_chunks", column: "data", rowid: chunks.int64(at: 1), into: destination,
                piece: Self.checksumPiece
            ) { sum(upTo: start + $0) }
            guard found == size else { return damaged("chunk \(number) of \(found) bytes, \(size) listed") }
            filled += size
            expected = number + 1
            read += 1
        }
        guard read == chunkCount, filled == buffer.count else {
            return damaged("\(filled) bytes in \(read) chunks, \(byteCount) in \(chunkCount) recorded")
        }
        blob.settle()
        let found = running.finish(tail: UnsafeRawBufferPointer(rebasing: buffer[summed...]))
        guard found == checksum else {
            return damaged(
                "checksum \(String(found, radix: 16)) of the bytes, \(String(checksum, radix: 16)) recorded")
        }
        return .success(blob)
    }

    /// Removes the stored index of layer `table`, if any (its triggers stay: they only count);
    /// the layer is then indexed at every load, as before indexes were stored.
    public func deleteLayerIndex(of table: String) throws(StoreError) {
        try deleteLayerIndex(of: table, before: .max)
    }

    /// Removes the record of layer `table`'s index and its chunks numbered below `firstKept`
    /// (those of a new index staged meanwhile stay).
    func deleteLayerIndex(of table: String, before firstKept: Int64) throws(StoreError) {
        guard try tableExists("geoq_layer_index") else { return }
        let record = try connection.prepare("DELETE FROM geoq_layer_index WHERE table_name = ?")
        try record.bind(table, at: 1)
        try record.run()
        let chunks = try connection.prepare(
            "DELETE FROM geoq_layer_index_chunks WHERE table_name = ? AND chunk < ?")
        try chunks.bind(table, at: 1)
        try chunks.bind(firstKept, at: 2)
        try chunks.run()
    }

    /// True when layer `table` has a stored index written for another last_change of the layer.
    private func indexIsStale(_ table: String) throws(StoreError) -> Bool {
        guard try tableExists("geoq_layer_index") else { return false }
        let stmt = try connection.prepare(
            """
            SELECT i.last_change IS NOT c.last_change
            FROM geoq_layer_index i LEFT JOIN gpkg_contents c ON c.table_name = i.table_name
            WHERE i.table_name = ?
            """)
        try stmt.bind(table, at: 1)
        return try stmt.step() && stmt.int64(at: 0) == 1
    }

    /// What identifies the layer's rows cheaply: their count and the total size of their
    /// geometry blobs (read from each record's header, not the blobs themselves).
    private func identity(of table: String) throws(StoreError) -> (rows: Int64, geometryBytes: Int64) {
        let column = try connection.prepare("SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?")
        try column.bind(table, at: 1)
        let geometry = try column.step() ? (column.text(at: 0) ?? "geom") : "geom"
        let stmt = try connection.prepare(
            "SELECT count(*), total(length(\(Self.quoted(geometry)))) FROM \(Self.quoted(table))")
        _ = try stmt.step()
        return (stmt.int64(at: 0), Int64(stmt.double(at: 1)))
    }

    /// The layer's gpkg_contents.last_change; nil when it is not a layer of the store.
    private func lastChange(of table: String) throws(StoreError) -> String? {
        let stmt = try connection.prepare("SELECT last_change FROM gpkg_contents WHERE table_name = ?")
        try stmt.bind(table, at: 1)
        return try stmt.step() ? stmt.text(at: 0) : nil
    }

    private func createIndexTables() throws(StoreError) {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS geoq_layer_index (
              table_name TEXT NOT NULL PRIMARY KEY,
              kind TEXT NOT NULL,
              format_version INTEGER NOT NULL,
              feature_count INTEGER NOT NULL,
              geometry_bytes INTEGER NOT NULL,
              last_change TEXT NOT NULL,
              edits INTEGER NOT NULL DEFAULT 0,
              byte_count INTEGER NOT NULL,
              checksum INTEGER NOT NULL,
              chunk_count INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS geoq_layer_index_chunks (
              table_name TEXT NOT NULL,
              chunk INTEGER NOT NULL,
              data BLOB NOT NULL,
              PRIMARY KEY (table_name, chunk)
            );
            """)
    }

    /// Triggers that count every change to the layer table in its index row.
    static func indexTriggers(table: String) -> String {
        let t = quoted(table)
        let literal = "'" + table.replacingAll("'", with: "''") + "'"
        return ["INSERT", "UPDATE", "DELETE"].map { event in
            let name = quoted("geoq_layer_index_\(table)_\(event.lowercased())")
            return """
                DROP TRIGGER IF EXISTS \(name);
                CREATE TRIGGER \(name) AFTER \(event) ON \(t)
                BEGIN
                  UPDATE geoq_layer_index SET edits = edits + 1 WHERE table_name = \(literal);
                END;
                """
        }.joined(separator: "\n")
    }
}
