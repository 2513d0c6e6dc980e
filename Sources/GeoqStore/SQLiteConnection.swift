import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one owner of an `sqlite3` handle and of the statements prepared on it.
///
/// Thread confinement (GRDB's model): the class is not `Sendable`; create it, use it and drop it
/// on one thread or task. Nothing outside this file touches the raw pointers. Every error carries
/// `sqlite3_errmsg`, the SQL and the file path.
final class SQLiteConnection {
    enum Mode {
        case readOnly
        case readWrite
        case readWriteCreate
    }

    let path: String
    private let handle: OpaquePointer

    /// Process-wide settings, made before SQLite's first use: no counts of the memory it
    /// allocates (geoq reads none), whose mutex every allocation and free took (a mutex a page
    /// and more in writing a layer of megabytes).
    private static let configureOnce: Void = { _ = geoq_sqlite3_stop_counting_memory() }()

    /// Opens `path`. Sets a 5 s busy timeout and turns foreign keys on.
    ///
    /// SQLite opens lazily: a file that is not a database fails on the first statement, not here.
    init(path: String, mode: Mode) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        let flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        Self.configureOnce
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw StoreError(.storeUnreadable, "cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Rolls back the transaction of a writer that died in it (a process killed), if any, so
    /// that a read-only connection can read the file: the rollback journal it left is "hot",
    /// only a connection that may write can roll it back, and a read-only one fails on it
    /// (SQLite code 776, SQLITE_READONLY_ROLLBACK). Reading on a writable connection rolls it
    /// back under SQLite's locks; the journal of a writer still at work is not hot and stays.
    /// A file that cannot be opened for writing is left to the read-only connection to report.
    static func rollBackInterruptedWrite(at path: String) {
        guard access(path + "-journal", F_OK) == 0,
            let writable = try? SQLiteConnection(path: path, mode: .readWrite)
        else { return }
        _ = try? writable.scalarInt("SELECT count(*) FROM sqlite_master")
    }

    /// Hands every page the open transaction changed to the operating system and waits until
    /// the disk holds them, without committing: the commit then has little left to write. Worth
    /// it when the commit must wait for something else meanwhile. Writing pages ahead is safe
    /// as SQLite does it when its cache fills: each page an old one is rolled back from is in
    /// the journal, synced, before it is overwritten.
    func writeBack() throws(StoreError) {
        let rc = sqlite3_db_cacheflush(handle)
        guard rc == SQLITE_OK else { throw error(rc, sql: "sqlite3_db_cacheflush") }
        withOwnDescriptor { _ = fdatasync($0) }
    }

    /// Asks the operating system to start writing to the disk the pages SQLite has handed it so
    /// far, without waiting: a later ``writeBack()`` or commit then waits for less. A no-op where
    /// the system has no such call.
    func startWriteBack() {
        #if os(Linux)
            withOwnDescriptor { _ = sync_file_range($0, 0, 0, GEOQ_SYNC_FILE_RANGE_WRITE) }
        #endif
    }

    /// Runs `body` with a descriptor of the database file of its own: any descriptor of the file
    /// reaches its pages, and SQLite's own is not reachable. Nothing is run if the file cannot
    /// be opened (the commit then does all the writing).
    private func withOwnDescriptor(_ body: (Int32) -> Void) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        body(fd)
        close(fd)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, sql: sql) }
        return Statement(connection: self, stmt: stmt, sql: sql)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back if `body` (or the commit) throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Runs `body` inside `BEGIN … COMMIT` (deferred: a read transaction), so that every read
    /// in it sees the same content of the database.
    func readTransaction<T>(_ body: () -> T) throws(StoreError) -> T {
        try execute("BEGIN")
        let result = body()
        if sqlite3_get_autocommit(handle) == 0 { try execute("COMMIT") }
        return result
    }

    /// The rowid of the last row inserted on this connection (an INTEGER PRIMARY KEY's value).
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The first column of the first row of `sql` as text (nil for no row or NULL).
    func scalarText(_ sql: String) throws(StoreError) -> String? {
        let stmt = try prepare(sql)
        guard try stmt.step() else { return nil }
        return stmt.text(at: 0)
    }

    /// The first column of the first row of `sql` as an integer (nil for no row or NULL).
    func scalarInt(_ sql: String) throws(StoreError) -> Int64? {
        let stmt = try prepare(sql)
        guard try stmt.step(), !stmt.isNull(at: 0) else { return nil }
        return stmt.int64(at: 0)
    }

    /// Copies the blob in `column` of row `rowid` of `table` into `destination` with
    /// `sqlite3_blob_read`: straight from the database pages, without the whole-value copy that
    /// reading it as a column makes first. Returns the blob's size; copies nothing and returns
    /// it when it is not `destination`'s size. Copies `piece` bytes at a time and calls `read`
    /// with how many are copied after each.
    func readBlob(
        table: String, column: String, rowid: Int64, into destination: UnsafeMutableRawBufferPointer,
        piece: Int = 1 << 30, _ read: (_ bytesRead: Int) -> Void = { _ in }
    ) throws(StoreError) -> Int {
        var blob: OpaquePointer?
        let what = "reading \(table).\(column) of row \(rowid)"
        let rc = sqlite3_blob_open(handle, "main", table, column, rowid, 0, &blob)
        guard rc == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw error(rc, sql: what)
        }
        defer { sqlite3_blob_close(blob) }
        let size = Int(sqlite3_blob_bytes(blob))
        guard size == destination.count, size > 0 else { return size }
        // Piece by piece, each handed to `read` while it is still in the cache.
        var offset = 0
        while offset < size {
            let count = Swift.min(piece, size - offset)
            let rc = sqlite3_blob_read(blob, destination.baseAddress! + offset, Int32(count), Int32(offset))
            guard rc == SQLITE_OK else { throw error(rc, sql: what) }
            offset += count
            read(offset)
        }
        return size
    }

    fileprivate func error(_ rc: Int32, sql: String) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        let code: StoreError.Code =
            (rc & 0xFF) == SQLITE_NOTADB || (rc & 0xFF) == SQLITE_CANTOPEN ? .storeUnreadable : .sqlite
        // Long scripts (the schema) are cut: the start says which statement it was.
        let shownSQL = sql.count > 300 ? sql.prefix(300) + "…" : sql
        return StoreError(code, "\(path): \(message) (SQLite code \(rc)) in: \(shownSQL)")
    }
}

extension SQLiteConnection {
    /// A prepared statement. It keeps its connection alive; use it on the connection's thread.
    ///
    /// Parameter and column indices follow SQLite: binds are 1-based, columns 0-based.
    final class Statement {
        private let connection: SQLiteConnection
        private let stmt: OpaquePointer
        let sql: String

        fileprivate init(connection: SQLiteConnection, stmt: OpaquePointer, sql: String) {
            self.connection = connection
            self.stmt = stmt
            self.sql = sql
        }

        deinit {
            sqlite3_finalize(stmt)
        }

        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        func bind(_ value: Int64, at index: Int32) throws(StoreError) {
            try check(sqlite3_bind_int64(stmt, index, value))
        }

        func bind(_ value: Double, at index: Int32) throws(StoreError) {
            try check(sqlite3_bind_double(stmt, index, value))
        }

        func bind(_ value: String, at index: Int32) throws(StoreError) {
            // Its UTF-8 where it lies (or on the stack, for a short string), copied by SQLite:
            // passed as a C string, each value was first copied into an array of its own.
            var value = value
            let rc = value.withUTF8 { text in
                text.withMemoryRebound(to: CChar.self) { text in
                    // An empty buffer may have no address, and a null pointer would bind NULL.
                    guard let start = text.baseAddress else {
                        return sqlite3_bind_text(stmt, index, "", 0, Self.transient)
                    }
                    return sqlite3_bind_text(stmt, index, start, Int32(text.count), Self.transient)
                }
            }
            try check(rc)
        }

        /// Binds a blob (copied by SQLite).
        func bind(blob: [UInt8], at index: Int32) throws(StoreError) {
            let rc = blob.withUnsafeBytes { buffer in
                sqlite3_bind_blob(stmt, index, buffer.baseAddress, Int32(buffer.count), Self.transient)
            }
            try check(rc)
        }

        /// Binds bytes without copying them: they must stay valid and unchanged until the
        /// statement has run (for blobs of many megabytes, which a copy would double).
        func bind(borrowedBlob blob: UnsafeRawBufferPointer, at index: Int32) throws(StoreError) {
            try check(sqlite3_bind_blob(stmt, index, blob.baseAddress, Int32(blob.count), nil))
        }

        func bindNull(at index: Int32) throws(StoreError) {
            try check(sqlite3_bind_null(stmt, index))
        }

        /// Binds text, or NULL for nil.
        func bind(_ value: String?, at index: Int32) throws(StoreError) {
            if let value { try bind(value, at: index) } else { try bindNull(at: index) }
        }

        /// Binds a double, or NULL for nil.
        func bind(_ value: Double?, at index: Int32) throws(StoreError) {
            if let value { try bind(value, at: index) } else { try bindNull(at: index) }
        }

        /// Advances; true when a row is available, false when done.
        func step() throws(StoreError) -> Bool {
            let rc = sqlite3_step(stmt)
            switch rc {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw connection.error(rc, sql: sql)
            }
        }

        /// Runs a statement that returns no rows, then resets it (bindings are kept).
        func run() throws(StoreError) {
            _ = try step()
            reset()
        }

        /// Sets every parameter to NULL.
        func clearBindings() {
            sqlite3_clear_bindings(stmt)
        }

        /// Makes the statement runnable again; bindings are kept.
        func reset() {
            sqlite3_reset(stmt)
        }

        var columnCount: Int32 { sqlite3_column_count(stmt) }

        func columnName(at index: Int32) -> String {
            sqlite3_column_name(stmt, index).map { String(cString: $0) } ?? ""
        }

        func isNull(at index: Int32) -> Bool { sqlite3_column_type(stmt, index) == SQLITE_NULL }

        /// The storage class of the column in the current row.
        func storageClass(at index: Int32) -> StorageClass {
            switch sqlite3_column_type(stmt, index) {
            case SQLITE_INTEGER: .integer
            case SQLITE_FLOAT: .real
            case SQLITE_TEXT: .text
            case SQLITE_BLOB: .blob
            default: .null
            }
        }

        func int64(at index: Int32) -> Int64 { sqlite3_column_int64(stmt, index) }

        func double(at index: Int32) -> Double { sqlite3_column_double(stmt, index) }

        /// The column as UTF-8 text; nil for NULL.
        func text(at index: Int32) -> String? {
            guard let bytes = sqlite3_column_text(stmt, index) else { return nil }
            let count = Int(sqlite3_column_bytes(stmt, index))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        /// Calls `body` with the column's bytes, valid only during the call (no copy).
        func withBlob<T, E: Error>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
            let base = sqlite3_column_blob(stmt, index)
            let count = Int(sqlite3_column_bytes(stmt, index))
            return try body(UnsafeRawBufferPointer(start: count > 0 ? base : nil, count: count))
        }

        private func check(_ rc: Int32) throws(StoreError) {
            guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
        }
    }

    enum StorageClass {
        case integer, real, text, blob, null
    }
}
