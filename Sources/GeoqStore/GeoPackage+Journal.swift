/// How a GeoPackage journals its writes. A store that a service writes device tracks to takes
/// a write-ahead log: each commit appends its pages to one file and syncs it once, and readers
/// (the layers, `/v1/events`) never wait for the writer. A store written only by imports keeps
/// SQLite's rollback journal, in which a layer of hundreds of megabytes is written once, not
/// once to the log and again at its checkpoint; once served, a store keeps its log (SQLite
/// cannot be trusted to leave it while another connection may have the file open).
extension GeoPackage {
    /// Switches the file to a write-ahead log (it stays so for every later connection), with
    /// every commit synced to disk before it returns.
    public func useWriteAheadLog() throws(StoreError) {
        let mode = try connection.scalarText("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw StoreError(.storeUnreadable, "\(path) cannot take a write-ahead log (journal mode \(mode ?? "none"))")
        }
        try connection.execute("PRAGMA synchronous = FULL")
        // The writer's pages stay in memory between commits (SQLite's default cache is 2 MB, the
        // tracks of 100,000 devices some 20 MB, and a fleet's batch touches most of them): read
        // through a map of the file, and up to 256 MB of changed pages cached.
        try connection.execute("PRAGMA mmap_size = \(Self.mappedBytes)")
        try connection.execute("PRAGMA cache_size = -262144")
    }

    /// `wal` or `delete` (SQLite's names), as the file says.
    public func journalMode() throws(StoreError) -> String {
        try connection.scalarText("PRAGMA journal_mode")?.lowercased() ?? "delete"
    }
}
