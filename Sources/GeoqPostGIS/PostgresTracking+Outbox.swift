import Foundation
import GeoqStore
import PostgresNIO

/// Hooks and the outbox in PostgreSQL: the same operations as the GeoPackage's, plus the claim
/// with a lease through which several replicas share the deliveries.
extension PostgresTracking {
    /// Adds a hook, signing with `secret`; it receives the events committed from now on. With an
    /// `idempotencyKey` the tenant used before, the hook made then comes back, `replayed`.
    public func addHook(
        tenant: String, url: String, layer: String?, events: [String]?, secret: String, idempotencyKey: String?,
        ordered: Bool = false, now: Date = Date()
    ) throws -> (hook: Hook, replayed: Bool) {
        try withConnection { db in
            // The unique index on (tenant, idempotency_key) decides a race of two retries.
            let rows = try db.query(
                """
                INSERT INTO \(unescaped: hooksTable) (tenant, url, layer, events, created, secret, idempotency_key, ordered)
                VALUES (\(tenant), \(url), \(layer), \(events), \(now), \(secret), \(idempotencyKey), \(ordered))
                ON CONFLICT (tenant, idempotency_key) DO NOTHING RETURNING id
                """)
            if let id = try rows.first?.decode(Int64.self) {
                let hook = Hook(
                    id: id, tenant: tenant, url: url, layer: layer, events: events, created: now, secret: secret,
                    idempotencyKey: idempotencyKey, ordered: ordered)
                return (hook, false)
            }
            let earlier = try db.query(
                """
                SELECT id FROM \(unescaped: hooksTable) WHERE tenant = \(tenant) AND idempotency_key = \(idempotencyKey)
                """
            ).first?.decode(Int64.self)
            guard let earlier, let hook = try readHooks(on: db).first(where: { $0.id == earlier }) else {
                throw PostGISError.queryFailed(
                    address: address.description, sqlState: "02000", message: "INSERT of a hook returned no id")
            }
            return (hook, true)
        }
    }

    /// `tenant`'s hooks (nil: every tenant's), by id.
    public func hooks(tenant: String?) throws -> [Hook] {
        try withConnection { try readHooks(on: $0).filter { tenant == nil || $0.tenant == tenant } }
    }

    /// Gives hook `id` of `tenant` (nil: of any) a new `secret`; the one it had signs beside it
    /// until `previousExpires`. Nil when `tenant` has no such hook.
    public func rotateHookSecret(tenant: String?, id: Int64, secret: String, previousExpires: Date) throws -> Hook? {
        try withConnection { db in
            let rotated = try db.query(
                """
                UPDATE \(unescaped: hooksTable)
                SET previous_secret = secret, previous_secret_expires = \(previousExpires), secret = \(secret)
                WHERE id = \(id) AND (\(tenant)::text IS NULL OR tenant = \(tenant)) RETURNING id
                """)
            guard !rotated.isEmpty else { return nil }
            return try readHooks(on: db).first { $0.id == id }
        }
    }

    func readHooks(on db: PGConnection) throws -> [Hook] {
        try hooks(of: db.query("SELECT \(unescaped: Self.hookColumns) FROM \(unescaped: hooksTable) h ORDER BY id"))
    }

    private static let hookColumns = """
        h.id, h.tenant, h.url, h.layer, h.events, h.created, h.secret, h.previous_secret, h.previous_secret_expires,
        h.disabled, h.idempotency_key, h.ordered
        """

    /// The hooks of rows selecting ``hookColumns``.
    private func hooks(of rows: [PostgresRow]) throws -> [Hook] {
        try rows.map {
            let (id, tenant, url, layer, events, created, secret, previous, expires, disabled, key, ordered) =
                try $0.decode(
                    (Int64, String, String, String?, [String]?, Date, String?, String?, Date?, Date?, String?, Bool)
                        .self)
            return Hook(
                id: id, tenant: tenant, url: url, layer: layer, events: events, created: created, secret: secret ?? "",
                previousSecret: previous, previousSecretExpires: expires, disabled: disabled, idempotencyKey: key,
                ordered: ordered)
        }
    }

    /// Stops hook `id` (its receiver answered 410 Gone): no more events, and its pending
    /// deliveries become dead with `reason`.
    public func disableHook(id: Int64, reason: String, at now: Date = Date()) throws {
        try inTransaction { db in
            try db.query("UPDATE \(unescaped: hooksTable) SET disabled = \(now) WHERE id = \(id)")
            try db.query(
                """
                UPDATE \(unescaped: outboxTable) SET state = 'dead', last_error = \(reason)
                WHERE hook = \(id) AND state = 'pending'
                """)
        }
    }

    /// Whether the pending delivery `o` may go: always, unless its hook is ordered and an earlier
    /// delivery of the same device's events to it is still pending or claimed (see
    /// `Hook.ordered`).
    var mayGo: String {
        """
        NOT EXISTS (
          SELECT 1 FROM \(hooksTable) h JOIN \(eventsTable) oe ON oe.sequence = o.event
          JOIN \(outboxTable) p ON p.hook = o.hook AND p.state = 'pending' AND p.event < o.event
          JOIN \(eventsTable) pe ON pe.sequence = p.event AND pe.device = oe.device AND pe.tenant = oe.tenant
          WHERE h.id = o.hook AND h.ordered)
        """
    }

    /// The hooks with deliveries due at `now`, longest waiting first, at most `limit`, read with
    /// them (one round trip at every commit of events, not two).
    public func dueHooks(now: Date, limit: Int) throws -> [Hook] {
        try withConnection { db in
            try hooks(
                of: db.query(
                    """
                    SELECT \(unescaped: Self.hookColumns) FROM \(unescaped: hooksTable) h JOIN (
                      SELECT hook, min(next_attempt) AS due FROM \(unescaped: outboxTable) o
                      WHERE state = 'pending' AND next_attempt <= \(now) AND \(unescaped: mayGo)
                      GROUP BY hook ORDER BY due LIMIT \(Int64(limit))) d ON d.hook = h.id
                    ORDER BY d.due
                    """))
        }
    }

    /// Makes dead, with `reason`, each hook's oldest pending deliveries beyond its newest `keep`.
    /// Returns how many.
    public func trimPending(keep: Int, reason: String) throws -> Int {
        try withConnection { db in
            let pending =
                try db.query("SELECT count(*) FROM \(unescaped: outboxTable) WHERE state = 'pending'").first?
                .decode(Int64.self) ?? 0
            guard pending > keep else { return 0 }
            return try db.query(
                """
                UPDATE \(unescaped: outboxTable) SET state = 'dead', last_error = \(reason) WHERE id IN (
                  SELECT id FROM (
                    SELECT id, row_number() OVER (PARTITION BY hook ORDER BY event DESC) AS newer
                    FROM \(unescaped: outboxTable) WHERE state = 'pending') ranked
                  WHERE newer > \(Int64(keep)))
                RETURNING id
                """
            ).count
        }
    }

    /// Holds every pending delivery of `hook` until `until` at least (its receiver asked to wait).
    public func postpone(hook: Int64, until: Date) throws {
        try withConnection { db in
            try db.query(
                """
                UPDATE \(unescaped: outboxTable) SET next_attempt = greatest(next_attempt, \(until))
                WHERE hook = \(hook) AND state = 'pending'
                """)
        }
    }

    /// When the next pending delivery of any hook is due (nil when none is pending).
    public func nextDue() throws -> Date? {
        try withConnection { db in
            try db.query(
                "SELECT min(next_attempt) FROM \(unescaped: outboxTable) o WHERE state = 'pending' AND \(unescaped: mayGo)"
            ).first?.decode(Date?.self) ?? nil
        }
    }

    /// Deletes a hook of `tenant` (nil: of any); its pending deliveries become dead ("hook
    /// deleted"). False when `tenant` has no such hook, whether or not another tenant has.
    public func deleteHook(tenant: String?, id: Int64) throws -> Bool {
        try inTransaction { db in
            let deleted = try db.query(
                """
                DELETE FROM \(unescaped: hooksTable) WHERE id = \(id) AND (\(tenant)::text IS NULL OR tenant = \(tenant))
                RETURNING id
                """)
            guard !deleted.isEmpty else { return false }
            try db.query(
                """
                UPDATE \(unescaped: outboxTable) SET state = 'dead', last_error = 'hook deleted'
                WHERE hook = \(id) AND state = 'pending'
                """)
            return true
        }
    }

    static let entryColumns =
        "o.id, o.hook, o.event, o.idempotency_key, o.attempts, o.next_attempt, o.state, o.last_error, e.body::text"

    /// The pending deliveries of `hook` due at `now`, oldest event first (without claiming them).
    public func due(hook: Int64, now: Date, limit: Int) throws -> [OutboxEntry] {
        try withConnection { db in
            try entries(
                db.query(
                    """
                    SELECT \(unescaped: Self.entryColumns) FROM \(unescaped: outboxTable) o
                    JOIN \(unescaped: eventsTable) e ON e.sequence = o.event
                    WHERE o.hook = \(hook) AND o.state = 'pending' AND o.next_attempt <= \(now) AND \(unescaped: mayGo)
                    ORDER BY o.event LIMIT \(Int64(limit))
                    """))
        }
    }

    /// Claims up to `limit` of `hook`'s deliveries due at `now` for `lease`: their next attempt
    /// moves to `now + lease`, so no other replica takes them meanwhile, and rows another
    /// replica is claiming at this instant are skipped (`FOR UPDATE SKIP LOCKED`). The caller
    /// records each outcome (which replaces the lease); if it dies first, the lease runs out
    /// and another replica claims the row again: at least once, with the same idempotency key.
    /// Oldest event first.
    public func claim(hook: Int64, now: Date, lease: Duration, limit: Int) throws -> [OutboxEntry] {
        let until = now.addingTimeInterval(
            Double(lease.components.seconds) + Double(lease.components.attoseconds) / 1e18)
        return try withConnection { db in
            try entries(
                db.query(
                    """
                    UPDATE \(unescaped: outboxTable) o SET next_attempt = \(until)
                    FROM \(unescaped: eventsTable) e
                    WHERE e.sequence = o.event AND o.id IN (
                      SELECT id FROM \(unescaped: outboxTable) o
                      WHERE hook = \(hook) AND state = 'pending' AND next_attempt <= \(now) AND \(unescaped: mayGo)
                      ORDER BY event LIMIT \(Int64(limit)) FOR UPDATE OF o SKIP LOCKED)
                    RETURNING \(unescaped: Self.entryColumns)
                    """)
            ).sorted { $0.sequence < $1.sequence }
        }
    }

    /// Every delivery of `hook` (any state), by event.
    public func outbox(hook: Int64) throws -> [OutboxEntry] {
        try withConnection { db in
            try entries(
                db.query(
                    """
                    SELECT \(unescaped: Self.entryColumns) FROM \(unescaped: outboxTable) o
                    JOIN \(unescaped: eventsTable) e ON e.sequence = o.event WHERE o.hook = \(hook) ORDER BY o.event
                    """))
        }
    }

    /// When `hook`'s next pending delivery is due (nil when none is pending).
    public func nextDue(hook: Int64) throws -> Date? {
        try withConnection { db in
            try db.query(
                """
                SELECT min(next_attempt) FROM \(unescaped: outboxTable) o
                WHERE hook = \(hook) AND state = 'pending' AND \(unescaped: mayGo)
                """
            ).first?.decode(Date?.self) ?? nil
        }
    }

    private func entries(_ rows: [PostgresRow]) throws -> [OutboxEntry] {
        try rows.map { row in
            let (id, hook, sequence, key, attempts, next, state, error, body) = try row.decode(
                (Int64, Int64, Int64, String, Int32, Date, String, String?, String).self)
            return OutboxEntry(
                id: id, hook: hook, sequence: sequence, idempotencyKey: key, attempts: Int(attempts),
                nextAttempt: next, state: OutboxEntry.State(rawValue: state) ?? .pending, lastError: error,
                body: Data(body.utf8))
        }
    }

    /// Records `outcomes` in one transaction.
    public func record(_ outcomes: [OutboxOutcome]) throws {
        try inTransaction { db in
            for outcome in outcomes {
                switch outcome {
                case .delivered(let id, let attempts, let at):
                    try db.query(
                        """
                        UPDATE \(unescaped: outboxTable) SET state = 'delivered', attempts = \(Int32(attempts)),
                          delivered = \(at), last_error = NULL WHERE id = \(id)
                        """)
                case .failed(let id, let attempts, let next, let error):
                    try db.query(
                        """
                        UPDATE \(unescaped: outboxTable) SET attempts = \(Int32(attempts)), next_attempt = \(next),
                          last_error = \(error) WHERE id = \(id) AND state = 'pending'
                        """)
                case .dead(let id, let attempts, let error):
                    try db.query(
                        """
                        UPDATE \(unescaped: outboxTable) SET state = 'dead', attempts = \(Int32(attempts)),
                          last_error = \(error) WHERE id = \(id)
                        """)
                }
            }
        }
    }

    /// Records a delivery accepted by the receiver.
    public func markDelivered(_ id: Int64, attempts: Int, at now: Date = Date()) throws {
        try record([.delivered(id: id, attempts: attempts, at: now)])
    }

    /// Records a failed attempt; the delivery stays pending until `nextAttempt`.
    public func markFailed(_ id: Int64, attempts: Int, nextAttempt: Date, error: String) throws {
        try record([.failed(id: id, attempts: attempts, nextAttempt: nextAttempt, error: error)])
    }

    /// Records a delivery given up (dead letter).
    public func markDead(_ id: Int64, attempts: Int, error: String) throws {
        try record([.dead(id: id, attempts: attempts, error: error)])
    }

    /// Pending, delivered and dead counts and the oldest pending event's commit time.
    public func stats() throws -> OutboxStats {
        try withConnection { db in
            let row = try db.query(
                """
                SELECT count(*) FILTER (WHERE o.state = 'pending'), count(*) FILTER (WHERE o.state = 'delivered'),
                  count(*) FILTER (WHERE o.state = 'dead'), min(e.created) FILTER (WHERE o.state = 'pending')
                FROM \(unescaped: outboxTable) o JOIN \(unescaped: eventsTable) e ON e.sequence = o.event
                """)
            guard let row = row.first else { return OutboxStats(pending: 0, delivered: 0, dead: 0, oldestPending: nil) }
            let (pending, delivered, dead, oldest) = try row.decode((Int, Int, Int, Date?).self)
            return OutboxStats(pending: pending, delivered: delivered, dead: dead, oldestPending: oldest)
        }
    }
}
