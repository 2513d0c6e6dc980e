import Foundation

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

    /// Opens (creating when missing) the GeoPackage at `path` and its tracking tables; a store
    /// written before tenants existed is moved over first, its rows in the `default` tenant.
    public init(path: String) throws(StoreError) {
        store = try GeoPackage.open(at: path, create: true)
        // Only a store that needs moving over takes the write lock here: every call of the
        // tracking store opens its tables.
        if try needsMigration() {
            try connection.transaction { () throws(StoreError) in
                try migrateToTenants()
                try migrateToSignedHooks()
                try migrateToOpenStays()
                try connection.execute(Self.schema)
            }
        } else {
            try connection.execute(Self.schema)
        }
    }

    // AUTOINCREMENT: sequences and hook ids are never reused, even after deletions.
    // json_valid: an event whose body is not JSON fails the whole commit.
    // Every row but the outbox's names its tenant (an outbox row is its hook's).
    static let schema = """
        CREATE TABLE IF NOT EXISTS geoq_tracks (
          tenant TEXT NOT NULL, device TEXT NOT NULL, layer TEXT NOT NULL, state BLOB NOT NULL,
          updated REAL NOT NULL, open INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (tenant, device, layer));
        CREATE INDEX IF NOT EXISTS geoq_tracks_updated ON geoq_tracks (updated);
        CREATE INDEX IF NOT EXISTS geoq_tracks_open ON geoq_tracks (tenant, device) WHERE open;
        CREATE TABLE IF NOT EXISTS geoq_events (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL, layer TEXT NOT NULL,
          kind TEXT NOT NULL, created REAL NOT NULL, body BLOB NOT NULL CHECK (json_valid(body)),
          tenant TEXT NOT NULL DEFAULT 'default');
        CREATE INDEX IF NOT EXISTS geoq_events_tenant ON geoq_events (tenant, device, sequence);
        CREATE INDEX IF NOT EXISTS geoq_events_created ON geoq_events (created);
        CREATE TABLE IF NOT EXISTS geoq_hooks (
          id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, layer TEXT, events TEXT,
          created REAL NOT NULL, tenant TEXT NOT NULL DEFAULT 'default', secret TEXT,
          previous_secret TEXT, previous_secret_expires REAL, disabled REAL, idempotency_key TEXT,
          ordered INTEGER NOT NULL DEFAULT 0);
        CREATE UNIQUE INDEX IF NOT EXISTS geoq_hooks_idempotency ON geoq_hooks (tenant, idempotency_key);
        CREATE TABLE IF NOT EXISTS geoq_outbox (
          id INTEGER PRIMARY KEY, hook INTEGER NOT NULL,
          event INTEGER NOT NULL REFERENCES geoq_events(sequence),
          idempotency_key TEXT NOT NULL UNIQUE, attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt REAL NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
          last_error TEXT, delivered REAL);
        CREATE INDEX IF NOT EXISTS geoq_outbox_due ON geoq_outbox (hook, state, next_attempt);
        CREATE INDEX IF NOT EXISTS geoq_outbox_event ON geoq_outbox (event);
        CREATE INDEX IF NOT EXISTS geoq_outbox_pending ON geoq_outbox (state, next_attempt);
        CREATE TABLE IF NOT EXISTS geoq_keys (
          id TEXT PRIMARY KEY, tenant TEXT NOT NULL, scopes TEXT NOT NULL, hash TEXT NOT NULL UNIQUE,
          created REAL NOT NULL, expires REAL, revoked REAL, rate REAL);
        CREATE TABLE IF NOT EXISTS geoq_settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS geoq_track_log (id INTEGER PRIMARY KEY AUTOINCREMENT, records BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS geoq_push_subscriptions (
          id INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, device TEXT NOT NULL,
          endpoint TEXT NOT NULL, p256dh TEXT NOT NULL, auth TEXT NOT NULL, topics TEXT NOT NULL,
          created REAL NOT NULL, ended REAL, end_reason TEXT);
        CREATE UNIQUE INDEX IF NOT EXISTS geoq_push_live_endpoint
          ON geoq_push_subscriptions (tenant, endpoint) WHERE ended IS NULL;
        CREATE INDEX IF NOT EXISTS geoq_push_device ON geoq_push_subscriptions (tenant, device);
        CREATE TABLE IF NOT EXISTS geoq_push_outbox (
          id INTEGER PRIMARY KEY AUTOINCREMENT, subscription INTEGER NOT NULL,
          idempotency_key TEXT NOT NULL UNIQUE, body BLOB NOT NULL CHECK (json_valid(body)), topic TEXT,
          attempts INTEGER NOT NULL DEFAULT 0, next_attempt REAL NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')), last_error TEXT, delivered REAL);
        CREATE INDEX IF NOT EXISTS geoq_push_due ON geoq_push_outbox (state, next_attempt);
        CREATE INDEX IF NOT EXISTS geoq_push_of_subscription ON geoq_push_outbox (subscription);
        """

    /// Tracks keyed by (device, layer), events and hooks without a tenant: the tables of a store
    /// written before tenants existed. Their rows move to the `default` tenant, nothing lost; the
    /// tracks' table is made anew, as SQLite cannot change a primary key in place.
    private func migrateToTenants() throws(StoreError) {
        if try hasTenant("geoq_tracks") == false {
            try connection.execute(
                """
                ALTER TABLE geoq_tracks RENAME TO geoq_tracks_before_tenants;
                CREATE TABLE geoq_tracks (
                  tenant TEXT NOT NULL, device TEXT NOT NULL, layer TEXT NOT NULL, state BLOB NOT NULL,
                  updated REAL NOT NULL, PRIMARY KEY (tenant, device, layer));
                INSERT INTO geoq_tracks (tenant, device, layer, state, updated)
                  SELECT 'default', device, layer, state, updated FROM geoq_tracks_before_tenants;
                DROP TABLE geoq_tracks_before_tenants;
                """)
        }
        for table in ["geoq_events", "geoq_hooks"] where try hasTenant(table) == false {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default'")
        }
    }

    /// Hooks made before deliveries were signed: each gets a secret of its own (its owner
    /// rotates it to learn it).
    private func migrateToSignedHooks() throws(StoreError) {
        guard try hasColumn("geoq_hooks", "id") != nil else { return }
        for (column, type) in [("secret", "TEXT"), ("previous_secret", "TEXT"), ("previous_secret_expires", "REAL")]
        where try hasColumn("geoq_hooks", column) == false {
            try connection.execute("ALTER TABLE geoq_hooks ADD COLUMN \(column) \(type)")
        }
        for (column, type) in [
            ("disabled", "REAL"), ("idempotency_key", "TEXT"), ("ordered", "INTEGER NOT NULL DEFAULT 0"),
        ]
        where try hasColumn("geoq_hooks", column) == false {
            try connection.execute("ALTER TABLE geoq_hooks ADD COLUMN \(column) \(type)")
        }
        let ids = try connection.prepare("SELECT id FROM geoq_hooks WHERE secret IS NULL")
        var unsigned: [Int64] = []
        while try ids.step() { unsigned.append(ids.int64(at: 0)) }
        let update = try connection.prepare("UPDATE geoq_hooks SET secret = ? WHERE id = ?")
        for id in unsigned {
            try update.bind(Hook.newSecret(), at: 1)
            try update.bind(id, at: 2)
            try update.run()
        }
    }

    /// Whether `table` has a tenant column (nil: no such table).
    private func hasTenant(_ table: String) throws(StoreError) -> Bool? { try hasColumn(table, "tenant") }

    /// Whether `table` has `column` (nil: no such table).
    private func hasColumn(_ table: String, _ column: String) throws(StoreError) -> Bool? {
        let columns = try connection.prepare("SELECT name FROM pragma_table_info(?)")
        try columns.bind(table, at: 1)
        var names: [String] = []
        while try columns.step() { names.append(columns.text(at: 0) ?? "") }
        return names.isEmpty ? nil : names.contains(column)
    }

    /// Tracks written before stays were marked open: each is taken as open (1, the column's
    /// default), so that the next sweep looks at it once and its next write says.
    private func migrateToOpenStays() throws(StoreError) {
        guard try hasColumn("geoq_tracks", "open") == false else { return }
        try connection.execute("ALTER TABLE geoq_tracks ADD COLUMN open INTEGER NOT NULL DEFAULT 1")
    }

    /// Whether the store was written by an older geoq: its hooks lack the newest column (every
    /// older change came before it, the tracks' `open` among them). One question, as every
    /// call of the tracking store opens its tables.
    private func needsMigration() throws(StoreError) -> Bool {
        try hasColumn("geoq_hooks", "ordered") == false
    }

    /// Switches the store to a write-ahead log, for a connection that commits batch after batch
    /// (see `GeoPackage.useWriteAheadLog`).
    public func useWriteAheadLog() throws(StoreError) { try store.useWriteAheadLog() }

    /// Writes the tracks, the events and one outbox row per event and matching hook in one
    /// transaction: all of it or (on any error) nothing. Returns the events' sequences. The
    /// tracks' log is folded first, so that no older track of it lands over these later.
    @discardableResult
    public func commit(tracks: [TrackRow], events: [StoredEvent], now: Date = Date()) throws(StoreError) -> [Int64] {
        let time = now.timeIntervalSince1970
        return try connection.transaction { () throws(StoreError) -> [Int64] in
            _ = try foldInTransaction()
            try putTracks(tracks.map { ($0, time) }[...])
            return try putEvents(events, time: time)
        }
    }

    /// Inserts `events` and one outbox row per event and matching hook, inside a transaction;
    /// returns their sequences.
    func putEvents(_ events: [StoredEvent], time: Double) throws(StoreError) -> [Int64] {
        guard !events.isEmpty else { return [] }
        let hooks = try readHooks()
        let putEvent = try connection.prepare(
            "INSERT INTO geoq_events (tenant, device, layer, kind, created, body) VALUES (?, ?, ?, ?, ?, ?)")
        let putOutbox = try connection.prepare(
            """
            INSERT INTO geoq_outbox (hook, event, idempotency_key, attempts, next_attempt, state)
            VALUES (?, ?, ?, 0, ?, 'pending')
            """)
        var sequences: [Int64] = []
        for event in events {
            try putEvent.bind(event.tenant, at: 1)
            try putEvent.bind(event.device, at: 2)
            try putEvent.bind(event.layer, at: 3)
            try putEvent.bind(event.kind, at: 4)
            try putEvent.bind(time, at: 5)
            try putEvent.bind(blob: [UInt8](event.body), at: 6)
            try putEvent.run()
            let sequence = connection.lastInsertRowID
            sequences.append(sequence)
            try afterEventInserted?(sequence)
            for hook in hooks where hook.matches(event) {
                try putOutbox.bind(hook.id, at: 1)
                try putOutbox.bind(sequence, at: 2)
                try putOutbox.bind(Self.idempotencyKey(hook: hook.id, sequence: sequence), at: 3)
                try putOutbox.bind(time, at: 4)
                try putOutbox.run()
            }
        }
        return sequences
    }

    /// The idempotency key of the delivery of event `sequence` to hook `hook`.
    public static func idempotencyKey(hook: Int64, sequence: Int64) -> String { "\(hook)-\(sequence)" }

    /// A tenant's tracks, or those of one of its devices and/or layers; with `tenant` nil, every
    /// tenant's (the operator's view).
    public func tracks(tenant: String?, device: String? = nil, layer: String? = nil, updatedSince: Date? = nil)
        throws(StoreError) -> [TrackRow]
    {
        try foldTrackLog()
        let stmt = try connection.prepare(
            """
            SELECT tenant, device, layer, state, open FROM geoq_tracks
            WHERE (?1 IS NULL OR tenant = ?1) AND (?2 IS NULL OR device = ?2) AND (?3 IS NULL OR layer = ?3)
              AND (?4 IS NULL OR updated >= ?4)
            ORDER BY tenant, device, layer
            """)
        try stmt.bind(tenant, at: 1)
        try stmt.bind(device, at: 2)
        try stmt.bind(layer, at: 3)
        try stmt.bind(updatedSince?.timeIntervalSince1970, at: 4)
        return try trackRows(stmt)
    }

    /// What a service starting on this store keeps in memory: every track of each device that
    /// has an open stay on some layer or was updated since `activeSince` (the devices of the
    /// sweep and of the next batches), not each device ever seen; the rest is read back at the
    /// device's next fix.
    public func startingTracks(activeSince: Date) throws(StoreError) -> [TrackRow] {
        try foldTrackLog()
        let stmt = try connection.prepare(
            """
            SELECT tenant, device, layer, state, open FROM geoq_tracks
            WHERE (tenant, device) IN (
              SELECT tenant, device FROM geoq_tracks WHERE open
              UNION SELECT tenant, device FROM geoq_tracks WHERE updated >= ?1)
            """)
        try stmt.bind(activeSince.timeIntervalSince1970, at: 1)
        return try trackRows(stmt)
    }

    /// The rows of a statement that selects tenant, device, layer, state and open.
    private func trackRows(_ stmt: SQLiteConnection.Statement) throws(StoreError) -> [TrackRow] {
        var rows: [TrackRow] = []
        while try stmt.step() {
            rows.append(
                TrackRow(
                    tenant: stmt.text(at: 0) ?? "", device: stmt.text(at: 1) ?? "", layer: stmt.text(at: 2) ?? "",
                    state: bytes(stmt, 3), open: stmt.int64(at: 4) != 0))
        }
        return rows
    }

    /// How many devices each tenant has a track of.
    public func deviceCounts() throws(StoreError) -> [String: Int] {
        try foldTrackLog()
        let stmt = try connection.prepare("SELECT tenant, count(DISTINCT device) FROM geoq_tracks GROUP BY tenant")
        var counts: [String: Int] = [:]
        while try stmt.step() { counts[stmt.text(at: 0) ?? ""] = Int(stmt.int64(at: 1)) }
        return counts
    }

    /// The tracks of `devices` of `tenant`, on every layer, by device (a device with none is
    /// absent): look-ups by the primary key's prefix, for devices the service reads back at their
    /// next fix (the general query above, whose filters may each be absent, scans the whole
    /// table). Up to 500 devices a statement: compiling one for each device cost more than its
    /// look-up. The tracks' log is not read: the service overlays the tracks it logged and has
    /// not yet folded.
    public func deviceTracks(tenant: String, devices: [String]) throws(StoreError) -> [String: [TrackRow]] {
        var found: [String: [TrackRow]] = [:]
        var start = 0
        while start < devices.count {
            let chunk = devices[start..<min(start + 500, devices.count)]
            let marks = (2..<(chunk.count + 2)).map { "?\($0)" }.joined(separator: ", ")
            let stmt = try connection.prepare(
                """
                SELECT device, layer, state, open FROM geoq_tracks WHERE tenant = ?1 AND device IN (\(marks))
                ORDER BY device, layer
                """)
            try stmt.bind(tenant, at: 1)
            var mark: Int32 = 2
            for device in chunk {
                try stmt.bind(device, at: mark)
                mark += 1
            }
            while try stmt.step() {
                let device = stmt.text(at: 0) ?? ""
                found[device, default: []].append(
                    TrackRow(
                        tenant: tenant, device: device, layer: stmt.text(at: 1) ?? "", state: bytes(stmt, 2),
                        open: stmt.int64(at: 3) != 0))
            }
            start += chunk.count
        }
        return found
    }

    /// How many devices `tenant` has a track of.
    public func deviceCount(tenant: String) throws(StoreError) -> Int {
        try foldTrackLog()
        let stmt = try connection.prepare("SELECT count(DISTINCT device) FROM geoq_tracks WHERE tenant = ?")
        try stmt.bind(tenant, at: 1)
        _ = try stmt.step()
        return Int(stmt.int64(at: 0))
    }

    /// `tenant`'s events after `since` (a sequence; 0 for all), oldest first, at most `limit`,
    /// all of them or one device's. With `tenant` nil, every tenant's (the operator's view).
    public func events(tenant: String?, device: String? = nil, since: Int64, limit: Int) throws(StoreError)
        -> [EventRecord]
    {
        let stmt = try connection.prepare(
            """
            SELECT sequence, tenant, device, layer, kind, created, body FROM geoq_events
            WHERE sequence > ?1 AND (?3 IS NULL OR tenant = ?3) AND (?4 IS NULL OR device = ?4)
            ORDER BY sequence LIMIT ?2
            """)
        try stmt.bind(since, at: 1)
        try stmt.bind(Int64(limit), at: 2)
        try stmt.bind(tenant, at: 3)
        try stmt.bind(device, at: 4)
        var records: [EventRecord] = []
        while try stmt.step() {
            records.append(
                EventRecord(
                    sequence: stmt.int64(at: 0),
                    event: StoredEvent(
                        tenant: stmt.text(at: 1) ?? "", device: stmt.text(at: 2) ?? "", layer: stmt.text(at: 3) ?? "",
                        kind: stmt.text(at: 4) ?? "", body: blob(stmt, 6)),
                    created: Date(timeIntervalSince1970: stmt.double(at: 5))))
        }
        return records
    }

    /// The sequence of the last event committed (0 when none): a stream that starts now goes on
    /// after it.
    public func lastEventSequence() throws(StoreError) -> Int64 {
        let stmt = try connection.prepare("SELECT coalesce(max(sequence), 0) FROM geoq_events")
        _ = try stmt.step()
        return stmt.int64(at: 0)
    }

    /// Adds a hook of `tenant`, signing with `secret`; it receives the tenant's events committed
    /// from now on. With an `idempotencyKey` the tenant used before, nothing is added: the hook
    /// made then comes back, `replayed` (a client's retry makes one hook).
    public func addHook(
        tenant: String, url: String, layer: String?, events: [String]?, secret: String, idempotencyKey: String?,
        ordered: Bool = false, now: Date = Date()
    ) throws(StoreError) -> (hook: Hook, replayed: Bool) {
        // The unique index on (tenant, idempotency_key) decides a race of two retries.
        let stmt = try connection.prepare(
            """
            INSERT INTO geoq_hooks (tenant, url, layer, events, created, secret, idempotency_key, ordered)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, idempotency_key) DO NOTHING
            """)
        try stmt.bind(tenant, at: 1)
        try stmt.bind(url, at: 2)
        try stmt.bind(layer, at: 3)
        try stmt.bind(events?.joined(separator: ","), at: 4)
        try stmt.bind(now.timeIntervalSince1970, at: 5)
        try stmt.bind(secret, at: 6)
        try stmt.bind(idempotencyKey, at: 7)
        try stmt.bind(Int64(ordered ? 1 : 0), at: 8)
        try stmt.run()
        if try connection.scalarInt("SELECT changes()") == 1 {
            let hook = Hook(
                id: connection.lastInsertRowID, tenant: tenant, url: url, layer: layer, events: events, created: now,
                secret: secret, idempotencyKey: idempotencyKey, ordered: ordered)
            return (hook, false)
        }
        let earlier = try connection.prepare("SELECT id FROM geoq_hooks WHERE tenant = ? AND idempotency_key = ?")
        try earlier.bind(tenant, at: 1)
        try earlier.bind(idempotencyKey, at: 2)
        guard try earlier.step() else {
            throw StoreError(.storeUnreadable, "a hook's idempotency key was taken and its hook is gone")
        }
        let id = earlier.int64(at: 0)
        guard let hook = try readHooks().first(where: { $0.id == id }) else {
            throw StoreError(.storeUnreadable, "a hook's idempotency key was taken and its hook is gone")
        }
        return (hook, true)
    }

    /// `tenant`'s hooks by id; with `tenant` nil, every tenant's (the delivery's and the
    /// operator's view).
    public func hooks(tenant: String?) throws(StoreError) -> [Hook] {
        try readHooks().filter { tenant == nil || $0.tenant == tenant }
    }

    /// Gives hook `id` of `tenant` (nil: of any) a new `secret`; the one it had signs beside it
    /// until `previousExpires`. Nil when `tenant` has no such hook.
    public func rotateHookSecret(tenant: String?, id: Int64, secret: String, previousExpires: Date)
        throws(StoreError) -> Hook?
    {
        let stmt = try connection.prepare(
            """
            UPDATE geoq_hooks SET previous_secret = secret, previous_secret_expires = ?3, secret = ?4
            WHERE id = ?1 AND (?2 IS NULL OR tenant = ?2)
            """)
        try stmt.bind(id, at: 1)
        try stmt.bind(tenant, at: 2)
        try stmt.bind(previousExpires.timeIntervalSince1970, at: 3)
        try stmt.bind(secret, at: 4)
        try stmt.run()
        guard try connection.scalarInt("SELECT changes()") == 1 else { return nil }
        return try readHooks().first { $0.id == id }
    }

    private static let hookColumns = """
        h.id, h.tenant, h.url, h.layer, h.events, h.created, h.secret, h.previous_secret, h.previous_secret_expires,
        h.disabled, h.idempotency_key, h.ordered
        """

    private func readHooks() throws(StoreError) -> [Hook] {
        try hooks(of: connection.prepare("SELECT \(Self.hookColumns) FROM geoq_hooks h ORDER BY id"))
    }

    /// The hooks a statement selecting ``hookColumns`` reads.
    private func hooks(of stmt: SQLiteConnection.Statement) throws(StoreError) -> [Hook] {
        var hooks: [Hook] = []
        while try stmt.step() {
            hooks.append(
                Hook(
                    id: stmt.int64(at: 0), tenant: stmt.text(at: 1) ?? "", url: stmt.text(at: 2) ?? "",
                    layer: stmt.text(at: 3), events: stmt.text(at: 4).map { $0.split(separator: ",").map(String.init) },
                    created: Date(timeIntervalSince1970: stmt.double(at: 5)), secret: stmt.text(at: 6) ?? "",
                    previousSecret: stmt.text(at: 7),
                    previousSecretExpires: stmt.isNull(at: 8) ? nil : Date(timeIntervalSince1970: stmt.double(at: 8)),
                    disabled: stmt.isNull(at: 9) ? nil : Date(timeIntervalSince1970: stmt.double(at: 9)),
                    idempotencyKey: stmt.text(at: 10), ordered: stmt.int64(at: 11) != 0))
        }
        return hooks
    }

    /// Stops hook `id` (its receiver answered 410 Gone): it gets no more events, and its pending
    /// deliveries become dead with `reason`.
    public func disableHook(id: Int64, reason: String, at now: Date = Date()) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            let disable = try connection.prepare("UPDATE geoq_hooks SET disabled = ?2 WHERE id = ?1")
            try disable.bind(id, at: 1)
            try disable.bind(now.timeIntervalSince1970, at: 2)
            try disable.run()
            let bury = try connection.prepare(
                "UPDATE geoq_outbox SET state = 'dead', last_error = ?2 WHERE hook = ?1 AND state = 'pending'")
            try bury.bind(id, at: 1)
            try bury.bind(reason, at: 2)
            try bury.run()
        }
    }

    /// Whether the pending delivery `o` may go: always, unless its hook is ordered and an earlier
    /// delivery of the same device's events to it is still pending (see ``Hook/ordered``).
    static let mayGo = """
        NOT EXISTS (
          SELECT 1 FROM geoq_hooks h JOIN geoq_events oe ON oe.sequence = o.event
          JOIN geoq_outbox p ON p.hook = o.hook AND p.state = 'pending' AND p.event < o.event
          JOIN geoq_events pe ON pe.sequence = p.event AND pe.device = oe.device AND pe.tenant = oe.tenant
          WHERE h.id = o.hook AND h.ordered)
        """

    /// The hooks with deliveries due at `now`, longest waiting first, at most `limit`, read with
    /// them (the delivery's scheduler asks at every commit of events: one statement, not two).
    public func dueHooks(now: Date, limit: Int) throws(StoreError) -> [Hook] {
        let stmt = try connection.prepare(
            """
            SELECT \(Self.hookColumns) FROM geoq_hooks h JOIN (
              SELECT hook, min(next_attempt) AS due FROM geoq_outbox o
              WHERE state = 'pending' AND next_attempt <= ?1 AND \(Self.mayGo)
              GROUP BY hook ORDER BY due LIMIT ?2) d ON d.hook = h.id
            ORDER BY d.due
            """)
        try stmt.bind(now.timeIntervalSince1970, at: 1)
        try stmt.bind(Int64(limit), at: 2)
        return try hooks(of: stmt)
    }

    /// Makes dead, with `reason`, each hook's oldest pending deliveries beyond its newest `keep`
    /// (a receiver down for long must not grow the outbox without end). Returns how many.
    public func trimPending(keep: Int, reason: String) throws(StoreError) -> Int {
        // Counted first through the pending index: the ranking scan runs only when some hook can be over.
        guard try connection.scalarInt("SELECT count(*) FROM geoq_outbox WHERE state = 'pending'") ?? 0 > keep else {
            return 0
        }
        let stmt = try connection.prepare(
            """
            UPDATE geoq_outbox SET state = 'dead', last_error = ?2 WHERE id IN (
              SELECT id FROM (
                SELECT id, row_number() OVER (PARTITION BY hook ORDER BY event DESC) AS newer
                FROM geoq_outbox WHERE state = 'pending')
              WHERE newer > ?1)
            """)
        try stmt.bind(Int64(keep), at: 1)
        try stmt.bind(reason, at: 2)
        try stmt.run()
        return Int(try connection.scalarInt("SELECT changes()") ?? 0)
    }

    /// Holds every pending delivery of `hook` until `until` at least (its receiver asked to wait).
    public func postpone(hook: Int64, until: Date) throws(StoreError) {
        let stmt = try connection.prepare(
            "UPDATE geoq_outbox SET next_attempt = max(next_attempt, ?2) WHERE hook = ?1 AND state = 'pending'")
        try stmt.bind(hook, at: 1)
        try stmt.bind(until.timeIntervalSince1970, at: 2)
        try stmt.run()
    }

    /// When the next pending delivery of any hook is due (nil when none is pending).
    public func nextDue() throws(StoreError) -> Date? {
        let stmt = try connection.prepare(
            "SELECT min(next_attempt) FROM geoq_outbox o WHERE state = 'pending' AND \(Self.mayGo)")
        guard try stmt.step(), !stmt.isNull(at: 0) else { return nil }
        return Date(timeIntervalSince1970: stmt.double(at: 0))
    }

    /// Deletes a hook of `tenant` (nil: of any tenant, the operator's view); its pending
    /// deliveries become dead ("hook deleted"), kept for the record. Returns false when `tenant`
    /// has no such hook, whether or not another tenant has.
    public func deleteHook(tenant: String?, id: Int64) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            let delete = try connection.prepare("DELETE FROM geoq_hooks WHERE id = ?1 AND (?2 IS NULL OR tenant = ?2)")
            try delete.bind(id, at: 1)
            try delete.bind(tenant, at: 2)
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
            "SELECT min(next_attempt) FROM geoq_outbox o WHERE hook = ? AND state = 'pending' AND \(Self.mayGo)")
        try stmt.bind(hook, at: 1)
        guard try stmt.step(), !stmt.isNull(at: 0) else { return nil }
        return Date(timeIntervalSince1970: stmt.double(at: 0))
    }

    /// `hook`'s deliveries: all of them, or (with `dueAt`) the pending ones due then.
    private func entries(hook: Int64, dueAt: Date?, limit: Int?) throws(StoreError) -> [OutboxEntry] {
        let condition =
            dueAt == nil
            ? "o.hook = ?1 ORDER BY o.event"
            : "o.hook = ?1 AND o.state = 'pending' AND o.next_attempt <= ?2 AND \(Self.mayGo) ORDER BY o.event LIMIT ?3"
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

    /// Records `outcomes` in one transaction: one commit (one wait for the disk) for them all.
    public func record(_ outcomes: [OutboxOutcome]) throws(StoreError) {
        try connection.transaction { () throws(StoreError) in
            for outcome in outcomes {
                switch outcome {
                case .delivered(let id, let attempts, let at): try markDelivered(id, attempts: attempts, at: at)
                case .failed(let id, let attempts, let next, let error):
                    try markFailed(id, attempts: attempts, nextAttempt: next, error: error)
                case .dead(let id, let attempts, let error): try markDead(id, attempts: attempts, error: error)
                }
            }
        }
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

    func blob(_ stmt: SQLiteConnection.Statement, _ index: Int32) -> Data {
        stmt.withBlob(at: index) { Data($0) }
    }

    /// A blob as the bytes a track's record is kept in.
    func bytes(_ stmt: SQLiteConnection.Statement, _ index: Int32) -> [UInt8] {
        stmt.withBlob(at: index) { [UInt8]($0) }
    }
}

/// A value bound to a statement's parameter, for ``TrackingTables/run(_:_:)``.
enum SQLValue {
    case text(String)
    case real(Double)
    case integer(Int64)
    case null
}

extension TrackingTables {
    /// Runs one statement with its parameters (`?1`, `?2`… in order); returns how many rows it
    /// changed.
    @discardableResult
    func run(_ sql: String, _ values: SQLValue...) throws(StoreError) -> Int {
        let stmt = try connection.prepare(sql)
        for (index, value) in values.enumerated() {
            let at = Int32(index + 1)
            switch value {
            case .text(let text): try stmt.bind(text, at: at)
            case .real(let number): try stmt.bind(number, at: at)
            case .integer(let number): try stmt.bind(number, at: at)
            case .null: try stmt.bindNull(at: at)
            }
        }
        try stmt.run()
        return Int(try connection.scalarInt("SELECT changes()") ?? 0)
    }
}
