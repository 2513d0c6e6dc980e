import Foundation
import GeoqLayers
import GeoqStore
import PostgresNIO
import Synchronization

/// Device tracks, events, hooks and the hooks' outbox in PostgreSQL (`S.geoq_tracks`,
/// `S.geoq_events`, `S.geoq_hooks`, `S.geoq_outbox` in the address's schema `S`, made on first
/// use), shared by every geoq replica on the database.
///
/// Why geofence state lives here rather than in the memory of the replica a load balancer would
/// pin each device to: a device then needs no owner, so any balancing works (round robin, least
/// connections, retries to another replica) and a replica that dies takes no state with it. A
/// batch of fixes is applied in one transaction that writes its tracks only where no other
/// writer changed them since they were read (else again under row locks; see
/// ``advanceLocked(tenant:layer:devices:now:maxDevices:_:)``), writes events and outbox rows, and commits before
/// the client is answered. A replica dying before its commit leaves nothing; the retried batch is
/// applied once, as the geofence engine ignores a fix not newer than the track's last. Nothing
/// committed is lost. Events take their sequence under a transaction-level advisory lock held to
/// the commit, so sequences increase in commit order and a reader of ``events(since:limit:)``
/// never skips an event committed after it read with a lower number.
///
/// The cost is a few round trips to the database per batch and a second pass when two replicas
/// take the same device at once, against the in-memory tracks of the GeoPackage path.
///
/// Sendable: each call borrows a connection from a small pool (one statement stream per caller).
/// The tracking store of the layers calls it as their ``SharedTrackingTables``: a failure of the
/// database leaves every call as a ``SharedStoreError`` (see ``withConnection(_:)``).
public final class PostgresTracking: SharedTrackingTables {
    public let address: PostgresAddress
    let pool: PGConnectionPool
    private let tablesMade = Mutex(false)
    /// The tracks this process last wrote, with their versions (see
    /// ``advanceLocked(tenant:layer:devices:now:maxDevices:_:)``).
    let recent = RecentTracks()

    /// The tracking tables of the store at `address`, over at most `connections` connections.
    /// Eight: a fleet of 16 clients ran faster than with 4 (which left batches waiting) or 16
    /// (which left the database switching between them) on two cores.
    public init(address: PostgresAddress, connections: Int = 8) {
        self.address = address
        pool = PGConnectionPool(address: address, capacity: connections)
    }

    var schema: String { address.schema }
    var tracksTable: String { "\(schema).geoq_tracks" }
    var eventsTable: String { "\(schema).geoq_events" }
    var hooksTable: String { "\(schema).geoq_hooks" }
    var outboxTable: String { "\(schema).geoq_outbox" }
    var keysTable: String { "\(schema).geoq_keys" }
    var settingsTable: String { "\(schema).geoq_settings" }
    /// Each tenant's devices (those with a row of `geoq_tracks` on some layer), and how many: a
    /// batch that brings new devices checks the tenant's cap by one row, not by counting the
    /// tenant's tracks (11 ms at 20,000 devices, and growing with them).
    var devicesTable: String { "\(schema).geoq_devices" }
    var deviceCountsTable: String { "\(schema).geoq_device_counts" }
    /// Where track versions come from: a row made again after an erasure never has a version an
    /// earlier row of the same key had.
    var versionsSequence: String { "\(schema).geoq_track_versions" }

    /// Runs `body` on a pooled connection, the tables made first when this process has not yet.
    ///
    /// Every call of the tracking tables goes through here or ``inTransaction(_:)``, which is
    /// where a ``PostGISError`` becomes the layers' ``SharedStoreError``: the tracking store
    /// reports the database's failures in one type whichever backend it is on.
    @discardableResult
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        do { return try onPooledConnection(body) } catch let error as PostGISError { throw SharedStoreError(error) }
    }

    /// Runs `body` in a transaction, again (up to three times) when PostgreSQL broke a deadlock
    /// or a serialisation conflict by rolling it back: nothing of it was kept, so it is safe.
    func inTransaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try onPooledConnection { db in try db.transaction { try body(db) } }
            } catch PostGISError.queryFailed(_, let state, _)
                where (state == "40P01" || state == "40001") && attempt < 3
            {
                continue
            } catch let error as PostGISError {
                throw SharedStoreError(error)
            }
        }
    }

    /// ``withConnection(_:)`` with the database's failures as they are (the retry above reads
    /// their SQLSTATE).
    private func onPooledConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        try pool.withConnection { db in
            if !tablesMade.withLock({ $0 }) {
                try makeTables(db)
                tablesMade.withLock { $0 = true }
            }
            return try body(db)
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
                // bytea: the track's record (`DeviceTrack.storage`), or JSON an older geoq wrote.
                """
                CREATE TABLE IF NOT EXISTS \(tracksTable) (
                  tenant text COLLATE "C" NOT NULL DEFAULT 'default', device text COLLATE "C" NOT NULL,
                  layer text COLLATE "C" NOT NULL, state bytea, updated timestamptz NOT NULL,
                  open boolean NOT NULL DEFAULT true, PRIMARY KEY (tenant, device, layer))
                """,
                // json (not jsonb): the body is POSTed byte for byte as the engine wrote it.
                """
                CREATE TABLE IF NOT EXISTS \(eventsTable) (
                  sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, device text NOT NULL,
                  layer text NOT NULL, kind text NOT NULL, created timestamptz NOT NULL, body json NOT NULL,
                  tenant text NOT NULL DEFAULT 'default')
                """,
                """
                CREATE TABLE IF NOT EXISTS \(hooksTable) (
                  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, url text NOT NULL, layer text,
                  events text[], created timestamptz NOT NULL, tenant text NOT NULL DEFAULT 'default')
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
                """
                CREATE TABLE IF NOT EXISTS \(keysTable) (
                  id text PRIMARY KEY, tenant text NOT NULL, scopes text[] NOT NULL, hash text NOT NULL UNIQUE,
                  created timestamptz NOT NULL, expires timestamptz, revoked timestamptz, rate double precision)
                """,
                "CREATE TABLE IF NOT EXISTS \(settingsTable) (name text PRIMARY KEY, value bytea NOT NULL)",
                // A store written before tenants existed: its rows join the default tenant.
                "ALTER TABLE \(tracksTable) ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT 'default'",
                "ALTER TABLE \(eventsTable) ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT 'default'",
                "ALTER TABLE \(hooksTable) ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT 'default'",
                // Hooks made before deliveries were signed get a secret each, below.
                """
                ALTER TABLE \(hooksTable) ADD COLUMN IF NOT EXISTS secret text,
                  ADD COLUMN IF NOT EXISTS previous_secret text,
                  ADD COLUMN IF NOT EXISTS previous_secret_expires timestamptz,
                  ADD COLUMN IF NOT EXISTS disabled timestamptz,
                  ADD COLUMN IF NOT EXISTS idempotency_key text,
                  ADD COLUMN IF NOT EXISTS ordered boolean NOT NULL DEFAULT false
                """,
                """
                CREATE UNIQUE INDEX IF NOT EXISTS geoq_hooks_idempotency
                  ON \(hooksTable) (tenant, idempotency_key)
                """,
                "CREATE INDEX IF NOT EXISTS geoq_outbox_pending ON \(outboxTable) (state, next_attempt)",
                """
                DO $$ BEGIN
                  IF NOT EXISTS (
                    SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                    WHERE i.indrelid = '\(tracksTable)'::regclass AND i.indisprimary AND a.attname = 'tenant')
                  THEN
                    ALTER TABLE \(tracksTable) DROP CONSTRAINT IF EXISTS geoq_tracks_pkey;
                    ALTER TABLE \(tracksTable) ADD PRIMARY KEY (tenant, device, layer);
                  END IF;
                END $$
                """,
                // Every write of a track changes `updated`: indexed, no write could be a heap-only
                // update, and each would add an entry to every index. The purge reads the table.
                "DROP INDEX IF EXISTS \(schema).geoq_tracks_updated",
                // The version a write checks (see advanceLocked); room on each page for the next
                // version of its rows, so that a write stays on the page (a heap-only update).
                "CREATE SEQUENCE IF NOT EXISTS \(schema).geoq_track_versions",
                "ALTER TABLE \(tracksTable) ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0",
                "ALTER TABLE \(tracksTable) ALTER COLUMN version SET DEFAULT nextval('\(schema).geoq_track_versions')",
                "ALTER TABLE \(tracksTable) SET (fillfactor = 50)",
                // Keys compared byte by byte (as SQLite does): the database's locale would make
                // every comparison in the key's index a call to strcoll.
                """
                DO $$ BEGIN
                  IF (SELECT c.collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation
                      WHERE a.attrelid = '\(tracksTable)'::regclass AND a.attname = 'device') <> 'C'
                  THEN
                    ALTER TABLE \(tracksTable) ALTER COLUMN tenant TYPE text COLLATE "C",
                      ALTER COLUMN device TYPE text COLLATE "C", ALTER COLUMN layer TYPE text COLLATE "C";
                  END IF;
                END $$
                """,
                // Tracks written before stays were marked open are taken as open (the sweep looks
                // at each once; its next write says).
                "ALTER TABLE \(tracksTable) ADD COLUMN IF NOT EXISTS open boolean NOT NULL DEFAULT true",
                "CREATE INDEX IF NOT EXISTS geoq_tracks_open ON \(tracksTable) (tenant, device, layer) WHERE open",
                // Tracks kept as JSON before records: the same bytes, now of any format.
                """
                DO $$ BEGIN
                  IF (SELECT format_type(atttypid, atttypmod) FROM pg_attribute
                      WHERE attrelid = '\(tracksTable)'::regclass AND attname = 'state') = 'json'
                  THEN
                    ALTER TABLE \(tracksTable) ALTER COLUMN state TYPE bytea USING convert_to(state::text, 'UTF8');
                  END IF;
                END $$
                """,
                """
                CREATE TABLE IF NOT EXISTS \(devicesTable) (
                  tenant text COLLATE "C" NOT NULL, device text COLLATE "C" NOT NULL, PRIMARY KEY (tenant, device))
                """,
                """
                CREATE TABLE IF NOT EXISTS \(deviceCountsTable) (
                  tenant text COLLATE "C" PRIMARY KEY, devices bigint NOT NULL)
                """,
                // A store written before the devices were kept apart: made from its tracks, once.
                """
                DO $$ BEGIN
                  IF NOT EXISTS (SELECT 1 FROM \(deviceCountsTable)) AND EXISTS (SELECT 1 FROM \(tracksTable)) THEN
                    INSERT INTO \(devicesTable) SELECT DISTINCT tenant, device FROM \(tracksTable) ON CONFLICT DO NOTHING;
                    INSERT INTO \(deviceCountsTable) SELECT tenant, count(*) FROM \(devicesTable) GROUP BY tenant;
                  END IF;
                END $$
                """,
                "CREATE INDEX IF NOT EXISTS geoq_events_tenant ON \(eventsTable) (tenant, device, sequence)",
                "CREATE INDEX IF NOT EXISTS geoq_events_created ON \(eventsTable) (created)",
                "CREATE INDEX IF NOT EXISTS geoq_outbox_event ON \(outboxTable) (event)",
            ]
            for statement in statements + pushTableStatements { try db.query(PostgresQuery(unsafeSQL: statement)) }
            for row in try db.query("SELECT id FROM \(unescaped: hooksTable) WHERE secret IS NULL") {
                let id = try row.decode(Int64.self)
                try db.query("UPDATE \(unescaped: hooksTable) SET secret = \(Hook.newSecret()) WHERE id = \(id)")
            }
        }
    }

    // MARK: Tracks and events

    /// Writes tracks, events and outbox rows in one transaction; returns the events' sequences.
    @discardableResult
    public func commit(tracks: [TrackRow], events: [StoredEvent], now: Date = Date()) throws -> [Int64] {
        try inTransaction { db in try write(tracks: tracks, events: events, now: now, on: db) }
    }

    func trackRows(_ rows: [PostgresRow]) throws -> [TrackRow] {
        try rows.compactMap { row in
            let (tenant, device, layer, state, open) = try row.decode((String, String, String, ByteBuffer?, Bool).self)
            return state.map {
                TrackRow(tenant: tenant, device: device, layer: layer, state: Array($0.readableBytesView), open: open)
            }
        }
    }

    /// The writes of a commit, in the caller's transaction.
    func write(tracks: [TrackRow], events: [StoredEvent], now: Date, on db: PGConnection) throws
        -> [Int64]
    {
        if !tracks.isEmpty {
            // xmax 0: a row inserted, not updated.
            let made = try db.query(
                """
                INSERT INTO \(unescaped: tracksTable) (tenant, device, layer, state, updated, open)
                SELECT t, d, l, s, \(now), o
                FROM unnest(\(tracks.map(\.tenant))::text[], \(tracks.map(\.device))::text[], \(tracks.map(\.layer))::text[], \(tracks.map { ByteBuffer(bytes: $0.state) })::bytea[], \(tracks.map(\.open))::boolean[]) AS t(t, d, l, s, o)
                ON CONFLICT (tenant, device, layer) DO UPDATE
                  SET state = excluded.state, updated = excluded.updated, open = excluded.open,
                    version = nextval('\(unescaped: versionsSequence)')
                RETURNING tenant, device, xmax = 0
                """)
            _ = try countDevices(
                try made.compactMap { row in
                    let (tenant, device, inserted) = try row.decode((String, String, Bool).self)
                    return inserted ? (tenant, device) : nil
                }, on: db)
        }
        return try writeEvents(events, now: now, on: db)
    }

    /// Events and their outbox rows, in the caller's transaction; returns their sequences.
    func writeEvents(_ events: [StoredEvent], now: Date, on db: PGConnection) throws -> [Int64] {
        guard !events.isEmpty else { return [] }
        // Held to the commit: whoever takes sequences after us commits after us.
        try db.query("SELECT pg_advisory_xact_lock(hashtext(\(eventsTable)))")
        let inserted = try db.query(
            """
            INSERT INTO \(unescaped: eventsTable) (tenant, device, layer, kind, created, body)
            SELECT t, d, l, k, \(now), CAST(b AS json)
            FROM unnest(\(events.map(\.tenant))::text[], \(events.map(\.device))::text[], \(events.map(\.layer))::text[], \(events.map(\.kind))::text[], \(events.map { String(decoding: $0.body, as: UTF8.self) })::text[])
              WITH ORDINALITY AS e(t, d, l, k, b, n)
            ORDER BY n RETURNING sequence
            """)
        // Rows are numbered in the order inserted, so the sorted sequences follow `events`.
        let sequences = try inserted.map { try $0.decode(Int64.self) }.sorted()
        let hooks = try readHooks(on: db)
        var outbox: (hooks: [Int64], events: [Int64], keys: [String]) = ([], [], [])
        for (event, sequence) in zip(events, sequences) {
            for hook in hooks where hook.matches(event) {
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

    /// A tenant's tracks (nil: every tenant's), or those of one device and/or layer.
    public func tracks(tenant: String?, device: String? = nil, layer: String? = nil, updatedSince: Date? = nil)
        throws -> [TrackRow]
    {
        try withConnection { db in
            try trackRows(
                db.query(
                    """
                    SELECT tenant, device, layer, state, open FROM \(unescaped: tracksTable)
                    WHERE state IS NOT NULL AND (\(tenant)::text IS NULL OR tenant = \(tenant))
                      AND (\(device)::text IS NULL OR device = \(device))
                      AND (\(layer)::text IS NULL OR layer = \(layer))
                      AND (\(updatedSince)::timestamptz IS NULL OR updated >= \(updatedSince))
                    ORDER BY tenant, device, layer
                    """))
        }
    }

    /// How many devices `tenant` has a track of.
    public func deviceCount(tenant: String) throws -> Int {
        try withConnection { db in
            try db.query("SELECT devices FROM \(unescaped: deviceCountsTable) WHERE tenant = \(tenant)")
                .first?.decode(Int.self) ?? 0
        }
    }

    /// Adds the devices among `keys` (tenant, device) that are new to their tenants, in the
    /// caller's transaction, which made their first rows of `geoq_tracks`; returns each such
    /// tenant's count after. Two transactions adding the same device count it once (the second
    /// waits for the first's row; in key order, so that two such never wait for each other).
    func countDevices(_ keys: [(tenant: String, device: String)], on db: PGConnection) throws -> [String: Int] {
        guard !keys.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for row in try db.query(
            """
            WITH new AS (
              INSERT INTO \(unescaped: devicesTable) (tenant, device)
              SELECT DISTINCT t, d FROM unnest(\(keys.map(\.tenant))::text[], \(keys.map(\.device))::text[]) AS k(t, d)
              ORDER BY t, d ON CONFLICT DO NOTHING RETURNING tenant)
            INSERT INTO \(unescaped: deviceCountsTable) (tenant, devices) SELECT tenant, count(*) FROM new GROUP BY tenant
            ON CONFLICT (tenant) DO UPDATE SET devices = \(unescaped: deviceCountsTable).devices + excluded.devices
            RETURNING tenant, devices
            """)
        {
            let (tenant, devices) = try row.decode((String, Int).self)
            counts[tenant] = devices
        }
        return counts
    }

    /// The sequence of the last event committed (0 when none).
    public func lastEventSequence() throws -> Int64 {
        try withConnection { db in
            try db.query("SELECT coalesce(max(sequence), 0)::bigint FROM \(unescaped: eventsTable)")
                .first.map { try $0.decode(Int64.self) } ?? 0
        }
    }

    /// `tenant`'s events (nil: every tenant's) after sequence `since` (0 for all), oldest first,
    /// at most `limit`, all of them or one device's.
    public func events(tenant: String?, device: String? = nil, since: Int64, limit: Int) throws -> [EventRecord] {
        try withConnection { db in
            try db.query(
                """
                SELECT sequence, tenant, device, layer, kind, created, body::text FROM \(unescaped: eventsTable)
                WHERE sequence > \(since) AND (\(tenant)::text IS NULL OR tenant = \(tenant))
                  AND (\(device)::text IS NULL OR device = \(device))
                ORDER BY sequence LIMIT \(Int64(limit))
                """
            ).map { row in
                let (sequence, tenant, device, layer, kind, created, body) = try row.decode(
                    (Int64, String, String, String, String, Date, String).self)
                return EventRecord(
                    sequence: sequence,
                    event: StoredEvent(tenant: tenant, device: device, layer: layer, kind: kind, body: Data(body.utf8)),
                    created: created)
            }
        }
    }
}
