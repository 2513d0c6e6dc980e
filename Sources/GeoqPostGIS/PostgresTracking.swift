import Foundation
import GeoqStore
import PostgresNIO
import Synchronization

/// Device tracks, events, hooks and the hooks' outbox in PostgreSQL (`S.geoq_tracks`,
/// `S.geoq_events`, `S.geoq_hooks`, `S.geoq_outbox` in the address's schema `S`, made on first
/// use), shared by every geoq replica on the database.
///
/// Why geofence state lives here under row locks rather than in the memory of the replica a
/// load balancer would pin each device to: a device then needs no owner, so any balancing works
/// (round robin, least connections, retries to another replica) and a replica that dies takes
/// no state with it. A batch of fixes is applied in one transaction that creates the missing
/// track rows (`INSERT ... ON CONFLICT DO NOTHING`, so two replicas cannot both create one),
/// locks its devices' rows (`SELECT ... FOR UPDATE`, in one order so that two batches cannot
/// deadlock), advances them, writes tracks, events and outbox rows, and commits before the
/// client is answered. A replica dying before its commit leaves nothing; the retried batch is
/// applied once, as the geofence engine ignores a fix not newer than the track's last. Nothing
/// committed is lost. Events take their sequence under a transaction-level advisory lock held to
/// the commit, so sequences increase in commit order and a reader of ``events(since:limit:)``
/// never skips an event committed after it read with a lower number.
///
/// The cost is a round trip to the database per batch and a wait when two replicas take the
/// same device at once, against the in-memory tracks of the GeoPackage path.
///
/// Sendable: each call borrows a connection from a small pool (one statement stream per caller).
public final class PostgresTracking: TrackingTableAccess, Sendable {
    public let address: PostgresAddress
    let pool: PGConnectionPool
    private let tablesMade = Mutex(false)

    /// The tracking tables of the store at `address`, over at most `connections` connections.
    public init(address: PostgresAddress, connections: Int = 4) {
        self.address = address
        pool = PGConnectionPool(address: address, capacity: connections)
    }

    var schema: String { address.schema }
    var tracksTable: String { "\(schema).geoq_tracks" }
    var eventsTable: String { "\(schema).geoq_events" }
    var hooksTable: String { "\(schema).geoq_hooks" }
    var outboxTable: String { "\(schema).geoq_outbox" }

    /// Runs `body` on a pooled connection, the tables made first when this process has not yet.
    @discardableResult
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        try pool.withConnection { db in
            if !tablesMade.withLock({ $0 }) {
                try makeTables(db)
                tablesMade.withLock { $0 = true }
            }
            return try body(db)
        }
    }

    /// Runs `body` in a transaction, again (up to three times) when PostgreSQL broke a deadlock
    /// or a serialisation conflict by rolling it back: nothing of it was kept, so it is safe.
    func inTransaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try withConnection { db in try db.transaction { try body(db) } }
            } catch PostGISError.queryFailed(_, let state, _)
                where (state == "40P01" || state == "40001") && attempt < 3
            {
                continue
            }
        }
    }

    /// The four tables, made under an advisory lock so that replicas starting together do not
    /// race on the catalog.
    func makeTables(_ db: PGConnection) throws {
        try db.ensureSchema()
        try db.transaction {
            try db.query("SELECT pg_advisory_xact_lock(hashtext(\(schema + ".geoq_tracking")))")
            let statements = [
                // state NULL: a row made only to be locked, before the device's first track.
                """
                CREATE TABLE IF NOT EXISTS \(tracksTable) (
                  device text NOT NULL, layer text NOT NULL, state json, updated timestamptz NOT NULL,
                  PRIMARY KEY (device, layer))
                """,
                // json (not jsonb): the body is POSTed byte for byte as the engine wrote it.
                """
                CREATE TABLE IF NOT EXISTS \(eventsTable) (
                  sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, device text NOT NULL,
                  layer text NOT NULL, kind text NOT NULL, created timestamptz NOT NULL, body json NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS \(hooksTable) (
                  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, url text NOT NULL, layer text,
                  events text[], created timestamptz NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS \(outboxTable) (
                  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, hook bigint NOT NULL,
                  event bigint NOT NULL REFERENCES \(eventsTable) (sequence),
                  idempotency_key text NOT NULL UNIQUE, attempts integer NOT NULL DEFAULT 0,
                  next_attempt timestamptz NOT NULL,
                  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
                  last_error text, delivered timestamptz)
                """,
                "CREATE INDEX IF NOT EXISTS geoq_outbox_due ON \(outboxTable) (hook, state, next_attempt)",
            ]
            for statement in statements { try db.query(PostgresQuery(unsafeSQL: statement)) }
        }
    }

    // MARK: Tracks and events

    /// Writes tracks, events and outbox rows in one transaction; returns the events' sequences.
    @discardableResult
    public func commit(tracks: [TrackRow], events: [StoredEvent], now: Date = Date()) throws -> [Int64] {
        try inTransaction { db in try write(tracks: tracks, events: events, now: now, on: db) }
    }

    /// The locked batch: makes the rows of `keys` that are missing, locks all of them, hands
    /// their tracks (those that have one) to `advance`, and writes what it returns, all in one
    /// transaction. `advance` may run again if PostgreSQL rolled back a deadlock; it must
    /// depend on its argument only. Returns the sequences of the events written.
    @discardableResult
    public func advanceLocked(
        _ keys: [(device: String, layer: String)], now: Date = Date(),
        _ advance: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64] {
        // One order for every batch, so that two batches wait for each other instead of deadlocking.
        let sorted = Set(keys.map { "\($0.device)\u{0}\($0.layer)" }).sorted().map {
            $0.split(separator: "\u{0}", omittingEmptySubsequences: false)
        }
        let devices = sorted.map { String($0[0]) }
        let layers = sorted.map { String($0[1]) }
        return try inTransaction { db in
            try db.query(
                """
                INSERT INTO \(unescaped: tracksTable) (device, layer, state, updated)
                SELECT d, l, NULL, \(now) FROM unnest(\(devices)::text[], \(layers)::text[]) AS k(d, l) ORDER BY d, l
                ON CONFLICT (device, layer) DO NOTHING
                """)
            let locked = try db.query(
                """
                SELECT t.device, t.layer, t.state::text FROM \(unescaped: tracksTable) t
                JOIN unnest(\(devices)::text[], \(layers)::text[]) AS k(d, l) ON t.device = k.d AND t.layer = k.l
                ORDER BY t.device, t.layer FOR UPDATE OF t
                """)
            let change = try advance(try trackRows(locked))
            return try write(tracks: change.tracks, events: change.events, now: now, on: db)
        }
    }

    /// The locked sweep: locks every track not locked by someone else (`SKIP LOCKED`: a batch in
    /// progress, or another replica's sweep, keeps its rows; the next sweep sees them), hands
    /// them to `end`, and writes what it returns in the same transaction. Two replicas sweeping
    /// at once thus end each stay once.
    @discardableResult
    public func sweepLocked(
        now: Date = Date(), _ end: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64] {
        try inTransaction { db in
            let locked = try db.query(
                """
                SELECT device, layer, state::text FROM \(unescaped: tracksTable) WHERE state IS NOT NULL
                ORDER BY device, layer FOR UPDATE SKIP LOCKED
                """)
            let change = try end(try trackRows(locked))
            return try write(tracks: change.tracks, events: change.events, now: now, on: db)
        }
    }

    private func trackRows(_ rows: [PostgresRow]) throws -> [TrackRow] {
        try rows.compactMap { row in
            let (device, layer, state) = try row.decode((String, String, String?).self)
            return state.map { TrackRow(device: device, layer: layer, state: Data($0.utf8)) }
        }
    }

    /// The writes of a commit, in the caller's transaction.
    private func write(tracks: [TrackRow], events: [StoredEvent], now: Date, on db: PGConnection) throws
        -> [Int64]
    {
        if !tracks.isEmpty {
            try db.query(
                """
                INSERT INTO \(unescaped: tracksTable) (device, layer, state, updated)
                SELECT d, l, CAST(s AS json), \(now)
                FROM unnest(\(tracks.map(\.device))::text[], \(tracks.map(\.layer))::text[], \(tracks.map { String(decoding: $0.state, as: UTF8.self) })::text[]) AS t(d, l, s)
                ON CONFLICT (device, layer) DO UPDATE SET state = excluded.state, updated = excluded.updated
                """)
        }
        guard !events.isEmpty else { return [] }
        // Held to the commit: whoever takes sequences after us commits after us.
        try db.query("SELECT pg_advisory_xact_lock(hashtext(\(eventsTable)))")
        let inserted = try db.query(
            """
            INSERT INTO \(unescaped: eventsTable) (device, layer, kind, created, body)
            SELECT d, l, k, \(now), CAST(b AS json)
            FROM unnest(\(events.map(\.device))::text[], \(events.map(\.layer))::text[], \(events.map(\.kind))::text[], \(events.map { String(decoding: $0.body, as: UTF8.self) })::text[])
              WITH ORDINALITY AS e(d, l, k, b, n)
            ORDER BY n RETURNING sequence
            """)
        // Rows are numbered in the order inserted, so the sorted sequences follow `events`.
        let sequences = try inserted.map { try $0.decode(Int64.self) }.sorted()
        let hooks = try readHooks(on: db)
        var outbox: (hooks: [Int64], events: [Int64], keys: [String]) = ([], [], [])
        for (event, sequence) in zip(events, sequences) {
            for hook in hooks where hook.matches(layer: event.layer, kind: event.kind) {
                outbox.hooks.append(hook.id)
                outbox.events.append(sequence)
                outbox.keys.append(TrackingTables.idempotencyKey(hook: hook.id, sequence: sequence))
            }
        }
        if !outbox.hooks.isEmpty {
            try db.query(
                """
                INSERT INTO \(unescaped: outboxTable) (hook, event, idempotency_key, attempts, next_attempt, state)
                SELECT h, e, k, 0, \(now), 'pending'
                FROM unnest(\(outbox.hooks)::bigint[], \(outbox.events)::bigint[], \(outbox.keys)::text[]) AS o(h, e, k)
                """)
        }
        return sequences
    }

    /// Every track, or those of one device and/or layer.
    public func tracks(device: String? = nil, layer: String? = nil) throws -> [TrackRow] {
        try withConnection { db in
            try trackRows(
                db.query(
                    """
                    SELECT device, layer, state::text FROM \(unescaped: tracksTable)
                    WHERE state IS NOT NULL AND (\(device)::text IS NULL OR device = \(device))
                      AND (\(layer)::text IS NULL OR layer = \(layer))
                    ORDER BY device, layer
                    """))
        }
    }

    /// Events after `since` (a sequence; 0 for all), oldest first, at most `limit`.
    public func events(since: Int64, limit: Int) throws -> [EventRecord] {
        try withConnection { db in
            try db.query(
                """
                SELECT sequence, device, layer, kind, created, body::text FROM \(unescaped: eventsTable)
                WHERE sequence > \(since) ORDER BY sequence LIMIT \(Int64(limit))
                """
            ).map { row in
                let (sequence, device, layer, kind, created, body) = try row.decode(
                    (Int64, String, String, String, Date, String).self)
                return EventRecord(
                    sequence: sequence,
                    event: StoredEvent(device: device, layer: layer, kind: kind, body: Data(body.utf8)),
                    created: created)
            }
        }
    }
}
