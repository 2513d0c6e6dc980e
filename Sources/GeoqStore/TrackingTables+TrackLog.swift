import Foundation

/// The tracks' log: how a service's many small commits of device tracks stay cheap.
///
/// Updating each batch's rows in place costs SQLite a B-tree update per row and, a fleet's
/// devices being everywhere in the table, a copy of nearly every page of it in the write-ahead
/// log at every commit. A service's writer instead appends each commit's tracks as one row of
/// `geoq_track_log` (one blob of records), and folds the log into `geoq_tracks` from time to
/// time: each device's latest track of the log, written in key order, and the folded log rows
/// deleted, in slices that keep the writer's other commits waiting for milliseconds only.
///
/// Only `geoq_tracks` is read, so everything that reads it (or changes it some other way) folds
/// the whole log first, in its own transaction: the service's start, erasure, retention, device
/// counts, listings, and any direct commit. The one exception is the service's read-back of a
/// device that left its memory: its writer keeps each device's unfolded track in memory too, and
/// the read-back overlays the table's tracks with those. A fold that
/// finds the log already folded by another connection since it was planned gives up (its older
/// tracks would overwrite newer ones).
///
/// A log row's blob: the commit's time (8 bytes, the IEEE double of its Unix seconds, little
/// endian), then per track its tenant, device and layer (a varint length and UTF-8 each), its
/// state (a varint length and the bytes) and one byte, 1 when its stay is open.
extension TrackingTables {
    /// A fold planned from the log: each device's latest track up to log row `through`, in key
    /// order, to be written in slices (``applyFold(_:count:)``, or along a group commit), the log
    /// cut after the last.
    public struct FoldPlan: Sendable {
        public var through: Int64
        public var tracks: [(row: TrackRow, updated: Double)]
        /// How many of `tracks` are written.
        public var applied = 0

        /// The plan of a writer that kept each device's latest logged track up to log row
        /// `through` (so that nothing is read back from the log).
        public init(through: Int64, tracks: [(row: TrackRow, updated: Double)]) {
            self.through = through
            self.tracks = tracks
        }

        public var isEmpty: Bool { tracks.isEmpty }
        public var isDone: Bool { applied >= tracks.count }
    }

    /// What a group commit wrote: its log row (nil for no tracks), and what is left of the fold it
    /// carried on (nil when none is left: written to the end, or folded by another connection).
    public struct LoggedCommit: Sendable {
        public var logRow: Int64?
        public var fold: FoldPlan?
    }

    /// Writes the tracks of `batches` to the log (one row) and `events` with their outbox rows,
    /// in one transaction: the service writer's group commit. Each batch's rows come as the
    /// batch made them, not copied into one array. With a fold in progress, its next
    /// `foldCount` tracks go in the same transaction: one sync for both, where a slice of its
    /// own made the batches behind it wait for a second one.
    @discardableResult
    public func commitLogged(
        batches: [[TrackRow]], events: [StoredEvent], now: Date = Date(), continuing fold: FoldPlan? = nil,
        foldCount: Int = 0
    ) throws(StoreError) -> LoggedCommit {
        try connection.transaction { () throws(StoreError) -> LoggedCommit in
            var logged: Int64?
            if batches.contains(where: { !$0.isEmpty }) {
                let put = try connection.prepare("INSERT INTO geoq_track_log (records) VALUES (?)")
                try put.bind(blob: Self.logRecord(batches, time: now.timeIntervalSince1970), at: 1)
                try put.run()
                logged = connection.lastInsertRowID
            }
            _ = try putEvents(events, time: now.timeIntervalSince1970)
            let left = try fold.flatMap { plan throws(StoreError) in try continueFold(plan, count: foldCount) }
            return LoggedCommit(logRow: logged, fold: left)
        }
    }

    /// Folds the whole log into `geoq_tracks` in one transaction; returns how many tracks were
    /// written.
    @discardableResult
    public func foldTrackLog() throws(StoreError) -> Int {
        guard try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM geoq_track_log)") == 1 else { return 0 }
        return try connection.transaction { () throws(StoreError) -> Int in try foldInTransaction() }
    }

    /// The fold inside a transaction already begun (a direct commit, an erasure).
    func foldInTransaction() throws(StoreError) -> Int {
        let plan = try planFold()
        guard !plan.isEmpty else { return 0 }
        try putTracks(plan.tracks[...])
        try finishFold(plan)
        return plan.tracks.count
    }

    /// Each device's latest track in the log now, in key order.
    public func planFold() throws(StoreError) -> FoldPlan {
        let stmt = try connection.prepare("SELECT id, records FROM geoq_track_log ORDER BY id")
        var latest: [TrackKey: (row: TrackRow, updated: Double)] = [:]
        var through: Int64 = 0
        while try stmt.step() {
            through = stmt.int64(at: 0)
            for entry in try Self.decodeLogRecord(blob(stmt, 1)) {
                latest[TrackKey(entry.row)] = entry
            }
        }
        let sorted = latest.sorted { $0.key < $1.key }.map(\.value)
        return FoldPlan(through: through, tracks: sorted)
    }

    /// Writes the plan's next `count` tracks in a transaction of their own; returns what is left
    /// of it, as ``LoggedCommit/fold``.
    public func applyFold(_ plan: FoldPlan, count: Int) throws(StoreError) -> FoldPlan? {
        try connection.transaction { () throws(StoreError) -> FoldPlan? in try continueFold(plan, count: count) }
    }

    /// The plan's next `count` tracks, in the transaction begun, and once the last is written the
    /// log rows it folded deleted; nil when nothing is left. A plan whose log rows another
    /// connection folded meanwhile writes nothing (its older tracks would land over newer ones).
    private func continueFold(_ plan: FoldPlan, count: Int) throws(StoreError) -> FoldPlan? {
        guard try stillPending(plan) else { return nil }
        var plan = plan
        let end = min(plan.tracks.count, plan.applied + count)
        try putTracks(plan.tracks[plan.applied..<end])
        plan.applied = end
        guard plan.isDone else { return plan }
        try finishFold(plan)
        return nil
    }

    /// Deletes the log rows a fully applied plan folded.
    private func finishFold(_ plan: FoldPlan) throws(StoreError) {
        try connection.execute("DELETE FROM geoq_track_log WHERE id <= \(plan.through)")
    }

    /// Whether the plan's log rows are still there (no other connection folded them).
    private func stillPending(_ plan: FoldPlan) throws(StoreError) -> Bool {
        try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM geoq_track_log WHERE id <= \(plan.through))") == 1
    }

    /// UPSERTs `tracks` (in key order: their pages are then visited once each).
    func putTracks(_ tracks: ArraySlice<(row: TrackRow, updated: Double)>) throws(StoreError) {
        let put = try connection.prepare(
            // An update in place: a replace would delete the row and insert it anew, in both trees.
            """
            INSERT INTO geoq_tracks (tenant, device, layer, state, updated, open) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (tenant, device, layer) DO UPDATE
              SET state = excluded.state, updated = excluded.updated, open = excluded.open
            """)
        for (track, updated) in tracks {
            try put.bind(track.tenant, at: 1)
            try put.bind(track.device, at: 2)
            try put.bind(track.layer, at: 3)
            try put.bind(blob: track.state, at: 4)
            try put.bind(updated, at: 5)
            try put.bind(Int64(track.open ? 1 : 0), at: 6)
            try put.run()
        }
    }

    /// A track's key, ordered as the table's primary key (SQLite's BINARY collation: bytes).
    struct TrackKey: Hashable, Comparable {
        var bytes: [UInt8]

        init(_ row: TrackRow) {
            bytes = Array(row.tenant.utf8) + [0] + Array(row.device.utf8) + [0] + Array(row.layer.utf8)
        }

        static func < (a: TrackKey, b: TrackKey) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
    }

    static func logRecord(_ batches: [[TrackRow]], time: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(8 + batches.reduce(0) { $0 + $1.count } * 160)
        withUnsafeBytes(of: time.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        func varint(_ value: Int) {
            var rest = UInt64(value)
            while rest >= 0x80 {
                out.append(UInt8(rest & 0x7f) | 0x80)
                rest >>= 7
            }
            out.append(UInt8(rest))
        }
        func text(_ value: String) {
            varint(value.utf8.count)
            out.append(contentsOf: value.utf8)
        }
        // By index: a row taken out of its batch is a copy, with a hold on each of its names and
        // its record taken and let go.
        for batch in batches {
            for index in batch.indices {
                text(batch[index].tenant)
                text(batch[index].device)
                text(batch[index].layer)
                varint(batch[index].state.count)
                out.append(contentsOf: batch[index].state)
                out.append(batch[index].open ? 1 : 0)
            }
        }
        return out
    }

    static func decodeLogRecord(_ data: Data) throws(StoreError) -> [(row: TrackRow, updated: Double)] {
        let bytes = [UInt8](data)
        let broken = StoreError(.storeUnreadable, "a row of geoq_track_log is cut short or malformed")
        guard bytes.count >= 8 else { throw broken }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        let time = Double(bitPattern: bits)
        var at = 8
        func varint() throws(StoreError) -> Int {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard at < bytes.count, shift < 64 else { throw broken }
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            guard value <= UInt64(bytes.count - at) else { throw broken }
            return Int(value)
        }
        func piece() throws(StoreError) -> ArraySlice<UInt8> {
            let count = try varint()
            defer { at += count }
            return bytes[at..<at + count]
        }
        var entries: [(row: TrackRow, updated: Double)] = []
        while at < bytes.count {
            let tenant = String(decoding: try piece(), as: UTF8.self)
            let device = String(decoding: try piece(), as: UTF8.self)
            let layer = String(decoding: try piece(), as: UTF8.self)
            let state = Array(try piece())
            guard at < bytes.count else { throw broken }
            let open = bytes[at] == 1
            at += 1
            entries.append(
                (TrackRow(tenant: tenant, device: device, layer: layer, state: state, open: open), time))
        }
        return entries
    }
}
