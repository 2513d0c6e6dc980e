import Foundation

/// A device's state on one layer, kept as opaque bytes (the geofence engine's own JSON).
public struct TrackRow: Sendable, Hashable {
    public var device: String
    public var layer: String
    public var state: Data

    public init(device: String, layer: String, state: Data) {
        self.device = device
        self.layer = layer
        self.state = state
    }
}

/// An event to store: its kind (`enter`, `exit`, ...) and its JSON body, opaque to the store.
public struct StoredEvent: Sendable, Hashable {
    public var device: String
    public var layer: String
    public var kind: String
    public var body: Data

    public init(device: String, layer: String, kind: String, body: Data) {
        self.device = device
        self.layer = layer
        self.kind = kind
        self.body = body
    }
}

/// An event as stored, with its global sequence (1, 2, 3, ... in commit order, never reused).
public struct EventRecord: Sendable, Hashable {
    public var sequence: Int64
    public var event: StoredEvent
    public var created: Date

    public init(sequence: Int64, event: StoredEvent, created: Date) {
        self.sequence = sequence
        self.event = event
        self.created = created
    }
}

/// A webhook: where to POST events, and which ones (nil: every layer, every kind).
public struct Hook: Sendable, Hashable {
    /// Never reused, so that an idempotency key (hook id and event sequence) is never repeated.
    public var id: Int64
    public var url: String
    public var layer: String?
    public var events: [String]?
    public var created: Date

    public init(id: Int64, url: String, layer: String?, events: [String]?, created: Date) {
        self.id = id
        self.url = url
        self.layer = layer
        self.events = events
        self.created = created
    }

    /// Whether an event of `layer` and `kind` goes to this hook.
    public func matches(layer: String, kind: String) -> Bool {
        (self.layer == nil || self.layer == layer) && (events == nil || events!.contains(kind))
    }
}

/// One delivery of one event to one hook, as the outbox holds it.
public struct OutboxEntry: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case pending, delivered, dead
    }

    public var id: Int64
    public var hook: Int64
    public var sequence: Int64
    /// `<hook id>-<event sequence>`: the same for every attempt of this delivery, so that a
    /// receiver can drop a repeat (delivery is at least once).
    public var idempotencyKey: String
    public var attempts: Int
    public var nextAttempt: Date
    public var state: State
    public var lastError: String?
    /// The event's JSON body (what is POSTed).
    public var body: Data

    public init(
        id: Int64, hook: Int64, sequence: Int64, idempotencyKey: String, attempts: Int, nextAttempt: Date,
        state: State, lastError: String?, body: Data
    ) {
        self.id = id
        self.hook = hook
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
        self.attempts = attempts
        self.nextAttempt = nextAttempt
        self.state = state
        self.lastError = lastError
        self.body = body
    }
}

/// The outbox at a glance.
public struct OutboxStats: Sendable, Hashable {
    public var pending: Int
    public var delivered: Int
    public var dead: Int
    /// When the oldest pending event was committed (nil when nothing is pending).
    public var oldestPending: Date?

    public init(pending: Int, delivered: Int, dead: Int, oldestPending: Date?) {
        self.pending = pending
        self.delivered = delivered
        self.dead = dead
        self.oldestPending = oldestPending
    }
}

/// The tracking tables of a GeoPackage: device tracks, events, hooks and the hooks' outbox.
///
/// They live beside the layers (`geoq_` prefix, outside gpkg_contents, so GIS clients ignore
/// them) and are created on first use. Not `Sendable`: it owns the store's connection.
public final class TrackingTables {
    let store: GeoPackage
    var connection: SQLiteConnection { store.connection }

    /// Test hook: called after each event row is inserted by ``commit(tracks:events:now:)``;
    /// throwing aborts (and rolls back) the commit.
    var afterEventInserted: ((Int64) throws(StoreError) -> Void)?

    /// Opens (creating when missing) the GeoPackage at `path` and its tracking tables.
    public init(path: String) throws(StoreError) {
        store = try GeoPackage.open(at: path, create: true)
        try connection.execute(Self.schema)
    }

    // AUTOINCREMENT: sequences and hook ids are never reused, even after deletions.
    // json_valid: an event whose body is not JSON fails the whole commit.
    static let schema = """
        CREATE TABLE IF NOT EXISTS geoq_tracks (
          device TEXT NOT NULL, layer TEXT NOT NULL, state BLOB NOT NULL, updated REAL NOT NULL,
          PRIMARY KEY (device, layer));
        CREATE TABLE IF NOT EXISTS geoq_events (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL, layer TEXT NOT NULL,
          kind TEXT NOT NULL, created REAL NOT NULL, body BLOB NOT NULL CHECK (json_valid(body)));
        CREATE TABLE IF NOT EXISTS geoq_hooks (
          id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, layer TEXT, events TEXT,
          created REAL NOT NULL);
        CREATE TABLE IF NOT EXISTS geoq_outbox (
          id INTEGER PRIMARY KEY, hook INTEGER NOT NULL,
          event INTEGER NOT NULL REFERENCES geoq_events(sequence),
          idempotency_key TEXT NOT NULL UNIQUE, attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt REAL NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
          last_error TEXT, delivered REAL);
        CREATE INDEX IF NOT EXISTS geoq_outbox_due ON geoq_outbox (hook, state, next_attempt);
        """

    /// Writes the tracks, the events and one outbox row per event and matching hook in one
    /// transaction: all of it or (on any error) nothing. Returns the events' sequences.
    @discardableResult
    public func commit(tracks: [TrackRow], events: [StoredEvent], now: Date = Date()) throws(StoreError) -> [Int64] {
        let time = now.timeIntervalSince1970
        return try connection.transaction { () throws(StoreError) -> [Int64] in
            let hooks = try readHooks()
            let putTrack = try connection.prepare(
                "INSERT OR REPLACE INTO geoq_tracks (device, layer, state, updated) VALUES (?, ?, ?, ?)")
            for track in tracks {
                try putTrack.bind(track.device, at: 1)
                try putTrack.bind(track.layer, at: 2)
                try putTrack.bind(blob: [UInt8](track.state), at: 3)
                try putTrack.bind(time, at: 4)
                try putTrack.run()
            }
            let putEvent = try connection.prepare(
                "INSERT INTO geoq_events (device, layer, kind, created, body) VALUES (?, ?, ?, ?, ?)")
            let putOutbox = try connection.prepare(
                """
                INSERT INTO geoq_outbox (hook, event, idempotency_key, attempts, next_attempt, state)
                VALUES (?, ?, ?, 0, ?, 'pending')
                """)
            var sequences: [Int64] = []
            for event in events {
                try putEvent.bind(event.device, at: 1)
                try putEvent.bind(event.layer, at: 2)
                try putEvent.bind(event.kind, at: 3)
                try putEvent.bind(time, at: 4)
                try putEvent.bind(blob: [UInt8](event.body), at: 5)
                try putEvent.run()
                let sequence = connection.lastInsertRowID
                sequences.append(sequence)
                try afterEventInserted?(sequence)
                for hook in hooks where hook.matches(layer: event.layer, kind: event.kind) {
                    try putOutbox.bind(hook.id, at: 1)
                    try putOutbox.bind(sequence, at: 2)
                    try putOutbox.bind(Self.idempotencyKey(hook: hook.id, sequence: sequence), at: 3)
                    try putOutbox.bind(time, at: 4)
                    try putOutbox.run()
                }
            }
            return sequences
        }
    }

    /// The idempotency key of the delivery of event `sequence` to hook `hook`.
    public static func idempotencyKey(hook: Int64, sequence: Int64) -> String { "\(hook)-\(sequence)" }

    /// Every track, or those of one device and/or layer.
    public func tracks(device: String? = nil, layer: String? = nil) throws(StoreError) -> [TrackRow] {
        let stmt = try connection.prepare(
            """
            SELECT device, layer, state FROM geoq_tracks
            WHERE (?1 IS NULL OR device = ?1) AND (?2 IS NULL OR layer = ?2) ORDER BY device, layer
            """)
        try stmt.bind(device, at: 1)
        try stmt.bind(layer, at: 2)
        var rows: [TrackRow] = []
        while try stmt.step() {
            rows.append(TrackRow(device: stmt.text(at: 0) ?? "", layer: stmt.text(at: 1) ?? "", state: blob(stmt, 2)))
        }
        return rows
    }

    /// Events after `since` (a sequence; 0 for all), oldest first, at most `limit`.
    public func events(since: Int64, limit: Int) throws(StoreError) -> [EventRecord] {
        let stmt = try connection.prepare(
            """
            SELECT sequence, device, layer, kind, created, body FROM geoq_events
            WHERE sequence > ? ORDER BY sequence LIMIT ?
            """)
        try stmt.bind(since, at: 1)
        try stmt.bind(Int64(limit), at: 2)
        var records: [EventRecord] = []
        while try stmt.step() {
            records.append(
                EventRecord(
                    sequence: stmt.int64(at: 0),
                    event: StoredEvent(
                        device: stmt.text(at: 1) ?? "", layer: stmt.text(at: 2) ?? "", kind: stmt.text(at: 3) ?? "",
                        body: blob(stmt, 5)),
                    created: Date(timeIntervalSince1970: stmt.double(at: 4))))
        }
        return records
    }

    /// Adds a hook; it receives the events committed from now on.
    public func addHook(url: String, layer: String?, events: [String]?, now: Date = Date()) throws(StoreError) -> Hook {
        let stmt = try connection.prepare("INSERT INTO geoq_hooks (url, layer, events, created) VALUES (?, ?, ?, ?)")
        try stmt.bind(url, at: 1)
        try stmt.bind(layer, at: 2)
        try stmt.bind(events?.joined(separator: ","), at: 3)
        try stmt.bind(now.timeIntervalSince1970, at: 4)
        try stmt.run()
        return Hook(id: connection.lastInsertRowID, url: url, layer: layer, events: events, created: now)
    }

    /// Every hook, by id.
    public func hooks() throws(StoreError) -> [Hook] { try readHooks() }

    private func readHooks() throws(StoreError) -> [Hook] {
        let stmt = try connection.prepare("SELECT id, url, layer, events, created FROM geoq_hooks ORDER BY id")
        var hooks: [Hook] = []
        while try stmt.step() {
            hooks.append(
                Hook(
                    id: stmt.int64(at: 0), url: stmt.text(at: 1) ?? "", layer: stmt.text(at: 2),
                    events: stmt.text(at: 3).map { $0.split(separator: ",").map(String.init) },
                    created: Date(timeIntervalSince1970: stmt.double(at: 4))))
        }
        return hooks
    }

    /// Deletes a hook; its pending deliveries become dead ("hook deleted"), kept for the record.
    /// Returns false when there is no such hook.
    public func deleteHook(id: Int64) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            let delete = try connection.prepare("DELETE FROM geoq_hooks WHERE id = ?")
            try delete.bind(id, at: 1)
            try delete.run()
            guard try connection.scalarInt("SELECT changes()") == 1 else { return false }
            let bury = try connection.prepare(
                "UPDATE geoq_outbox SET state = 'dead', last_error = 'hook deleted' WHERE hook = ? AND state = 'pending'"
            )
            try bury.bind(id, at: 1)
            try bury.run()
            return true
        }
    }

    /// The pending deliveries of `hook` due at `now`, oldest event first.
    public func due(hook: Int64, now: Date, limit: Int) throws(StoreError) -> [OutboxEntry] {
        try entries(hook: hook, dueAt: now, limit: limit)
    }

    /// Every delivery of `hook` (any state), by event.
    public func outbox(hook: Int64) throws(StoreError) -> [OutboxEntry] {
        try entries(hook: hook, dueAt: nil, limit: nil)
    }

    /// When `hook`'s next pending delivery is due (nil when none is pending).
    public func nextDue(hook: Int64) throws(StoreError) -> Date? {
        let stmt = try connection.prepare(
            "SELECT min(next_attempt) FROM geoq_outbox WHERE hook = ? AND state = 'pending'")
        try stmt.bind(hook, at: 1)
        guard try stmt.step(), !stmt.isNull(at: 0) else { return nil }
        return Date(timeIntervalSince1970: stmt.double(at: 0))
    }

    /// `hook`'s deliveries: all of them, or (with `dueAt`) the pending ones due then.
    private func entries(hook: Int64, dueAt: Date?, limit: Int?) throws(StoreError) -> [OutboxEntry] {
        let condition =
            dueAt == nil
            ? "o.hook = ?1 ORDER BY o.event"
            : "o.hook = ?1 AND o.state = 'pending' AND o.next_attempt <= ?2 ORDER BY o.event LIMIT ?3"
        let stmt = try connection.prepare(
            """
            SELECT o.id, o.hook, o.event, o.idempotency_key, o.attempts, o.next_attempt, o.state, o.last_error, e.body
            FROM geoq_outbox o JOIN geoq_events e ON e.sequence = o.event WHERE \(condition)
            """)
        try stmt.bind(hook, at: 1)
        if let dueAt {
            try stmt.bind(dueAt.timeIntervalSince1970, at: 2)
            try stmt.bind(Int64(limit ?? -1), at: 3)
        }
        var rows: [OutboxEntry] = []
        while try stmt.step() {
            rows.append(
                OutboxEntry(
                    id: stmt.int64(at: 0), hook: stmt.int64(at: 1), sequence: stmt.int64(at: 2),
                    idempotencyKey: stmt.text(at: 3) ?? "", attempts: Int(stmt.int64(at: 4)),
                    nextAttempt: Date(timeIntervalSince1970: stmt.double(at: 5)),
                    state: OutboxEntry.State(rawValue: stmt.text(at: 6) ?? "") ?? .pending,
                    lastError: stmt.text(at: 7), body: blob(stmt, 8)))
        }
        return rows
    }

    /// Records a delivery accepted by the receiver.
    public func markDelivered(_ id: Int64, attempts: Int, at now: Date = Date()) throws(StoreError) {
        try update(
            "UPDATE geoq_outbox SET state = 'delivered', attempts = ?2, delivered = ?3, last_error = ?4 WHERE id = ?1",
            id: id, attempts: attempts, time: now.timeIntervalSince1970, error: nil)
    }

    /// Records a failed attempt; the delivery stays pending until `nextAttempt`.
    public func markFailed(_ id: Int64, attempts: Int, nextAttempt: Date, error: String) throws(StoreError) {
        try update(
            "UPDATE geoq_outbox SET attempts = ?2, next_attempt = ?3, last_error = ?4 WHERE id = ?1 AND state = 'pending'",
            id: id, attempts: attempts, time: nextAttempt.timeIntervalSince1970, error: error)
    }

    /// Records a delivery given up (dead letter) after its last failed attempt.
    public func markDead(_ id: Int64, attempts: Int, error: String) throws(StoreError) {
        try update(
            "UPDATE geoq_outbox SET state = 'dead', attempts = ?2, next_attempt = coalesce(?3, next_attempt), last_error = ?4 WHERE id = ?1",
            id: id, attempts: attempts, time: nil, error: error)
    }

    private func update(_ sql: String, id: Int64, attempts: Int, time: Double?, error: String?) throws(StoreError) {
        let stmt = try connection.prepare(sql)
        try stmt.bind(id, at: 1)
        try stmt.bind(Int64(attempts), at: 2)
        try stmt.bind(time, at: 3)
        try stmt.bind(error, at: 4)
        try stmt.run()
    }

    /// Pending, delivered and dead counts and the oldest pending event's commit time.
    public func stats() throws(StoreError) -> OutboxStats {
        let stmt = try connection.prepare(
            """
            SELECT (SELECT count(*) FROM geoq_outbox WHERE state = 'pending'),
                   (SELECT count(*) FROM geoq_outbox WHERE state = 'delivered'),
                   (SELECT count(*) FROM geoq_outbox WHERE state = 'dead'),
                   (SELECT min(e.created) FROM geoq_outbox o JOIN geoq_events e ON e.sequence = o.event
                    WHERE o.state = 'pending')
            """)
        _ = try stmt.step()
        return OutboxStats(
            pending: Int(stmt.int64(at: 0)), delivered: Int(stmt.int64(at: 1)), dead: Int(stmt.int64(at: 2)),
            oldestPending: stmt.isNull(at: 3) ? nil : Date(timeIntervalSince1970: stmt.double(at: 3)))
    }

    private func blob(_ stmt: SQLiteConnection.Statement, _ index: Int32) -> Data {
        stmt.withBlob(at: index) { Data($0) }
    }
}
