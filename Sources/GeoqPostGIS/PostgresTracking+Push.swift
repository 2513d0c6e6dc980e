import Foundation
import GeoqStore
import PostgresNIO

/// Push subscriptions and their outbox in PostgreSQL: the same operations as the GeoPackage's,
/// with the due messages claimed for a lease, so that of several replicas one sends each.
extension PostgresTracking {
    var pushSubscriptionsTable: String { "\(schema).geoq_push_subscriptions" }
    var pushOutboxTable: String { "\(schema).geoq_push_outbox" }

    /// The statements that make the push tables (run with the others, under the same lock).
    var pushTableStatements: [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(pushSubscriptionsTable) (
              id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tenant text NOT NULL, device text NOT NULL,
              endpoint text NOT NULL, p256dh text NOT NULL, auth text NOT NULL, topics text[] NOT NULL,
              created timestamptz NOT NULL, ended timestamptz, end_reason text)
            """,
            """
            CREATE UNIQUE INDEX IF NOT EXISTS geoq_push_live_endpoint
              ON \(pushSubscriptionsTable) (tenant, endpoint) WHERE ended IS NULL
            """,
            "CREATE INDEX IF NOT EXISTS geoq_push_device ON \(pushSubscriptionsTable) (tenant, device)",
            // json (not jsonb): the payload is encrypted byte for byte as it was written.
            """
            CREATE TABLE IF NOT EXISTS \(pushOutboxTable) (
              id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, subscription bigint NOT NULL,
              idempotency_key text NOT NULL UNIQUE, body json NOT NULL, topic text,
              attempts integer NOT NULL DEFAULT 0, next_attempt timestamptz NOT NULL,
              state text NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')), last_error text,
              delivered timestamptz)
            """,
            "CREATE INDEX IF NOT EXISTS geoq_push_due ON \(pushOutboxTable) (state, next_attempt)",
            "CREATE INDEX IF NOT EXISTS geoq_push_of_subscription ON \(pushOutboxTable) (subscription)",
        ]
    }

    private static let subscriptionColumns =
        "s.id, s.tenant, s.device, s.endpoint, s.p256dh, s.auth, s.topics, s.created"

    private func subscription(_ row: PostgresRow) throws -> PushSubscriptionRow {
        let (id, tenant, device, endpoint, p256dh, auth, topics, created) = try row.decode(
            (Int64, String, String, String, String, String, [String], Date).self)
        return PushSubscriptionRow(
            id: id, tenant: tenant, device: device, endpoint: endpoint, p256dh: p256dh, auth: auth, topics: topics,
            created: created)
    }

    /// Stores a subscription for `device`, or gives the tenant's live one at the same endpoint
    /// the new device, keys and topics.
    public func putPushSubscription(
        tenant: String, device: String, endpoint: String, p256dh: String, auth: String, topics: [String], now: Date
    ) throws -> PushSubscriptionRow {
        try withConnection { db in
            let rows = try db.query(
                """
                INSERT INTO \(unescaped: pushSubscriptionsTable) AS s (tenant, device, endpoint, p256dh, auth, topics, created)
                VALUES (\(tenant), \(device), \(endpoint), \(p256dh), \(auth), \(topics), \(now))
                ON CONFLICT (tenant, endpoint) WHERE ended IS NULL
                DO UPDATE SET device = EXCLUDED.device, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
                  topics = EXCLUDED.topics
                RETURNING \(unescaped: Self.subscriptionColumns)
                """)
            guard let row = rows.first else {
                throw PostGISError.queryFailed(
                    address: address.description, sqlState: "02000", message: "INSERT of a subscription returned no row"
                )
            }
            return try subscription(row)
        }
    }

    /// The tenant's live subscriptions: all, a device's, or those that asked for `topic`.
    public func pushSubscriptions(tenant: String, device: String?, topic: String?) throws -> [PushSubscriptionRow] {
        try withConnection { db in
            try db.query(
                """
                SELECT \(unescaped: Self.subscriptionColumns) FROM \(unescaped: pushSubscriptionsTable) s
                WHERE s.tenant = \(tenant) AND s.ended IS NULL AND (\(device)::text IS NULL OR s.device = \(device))
                  AND (\(topic)::text IS NULL OR \(topic) = ANY (s.topics))
                ORDER BY s.id
                """
            ).map(subscription)
        }
    }

    /// How many live subscriptions the tenant has.
    public func pushSubscriptionCount(tenant: String) throws -> Int {
        try withConnection { db in
            Int(
                try db.query(
                    """
                    SELECT count(*) FROM \(unescaped: pushSubscriptionsTable) WHERE tenant = \(tenant) AND ended IS NULL
                    """
                ).first?.decode(Int64.self) ?? 0)
        }
    }

    /// Ends subscription `id` of `tenant` (of `device` only, when given); its pending messages
    /// are dead. False when there is no such live subscription.
    public func endPushSubscription(tenant: String, device: String?, id: Int64, reason: String, now: Date) throws
        -> Bool
    {
        try inTransaction { db in
            let ended = try db.query(
                """
                UPDATE \(unescaped: pushSubscriptionsTable) SET ended = \(now), end_reason = \(reason)
                WHERE id = \(id) AND tenant = \(tenant) AND ended IS NULL
                  AND (\(device)::text IS NULL OR device = \(device))
                RETURNING id
                """)
            guard !ended.isEmpty else { return false }
            try killPending(subscription: id, reason: reason, on: db)
            return true
        }
    }

    /// Puts `messages` in the outbox in one transaction, each unless its key is there already;
    /// returns how many were put.
    @discardableResult
    public func enqueuePush(_ messages: [PushMessageRow]) throws -> Int {
        guard !messages.isEmpty else { return 0 }
        return try withConnection { db in
            try db.query(
                """
                INSERT INTO \(unescaped: pushOutboxTable) (subscription, idempotency_key, body, topic, next_attempt, state)
                SELECT s, k, b::json, NULLIF(t, ''), d, 'pending'
                FROM unnest(\(messages.map(\.subscription)), \(messages.map(\.idempotencyKey)),
                  \(messages.map { String(decoding: $0.body, as: UTF8.self) }), \(messages.map { $0.topic ?? "" }),
                  \(messages.map(\.due))) AS m(s, k, b, t, d)
                ON CONFLICT (idempotency_key) DO NOTHING RETURNING id
                """
            ).count
        }
    }

    /// The pending messages of live subscriptions due at `now`, oldest due first, taken for
    /// `lease`: a replica that dies before recording them leaves them to another after it.
    public func claimPush(now: Date, lease: Duration, limit: Int) throws -> [PushOutboxEntry] {
        let until = now.addingTimeInterval(Double(lease.components.seconds))
        return try inTransaction { db in
            try db.query(
                """
                WITH due AS (
                  SELECT o.id FROM \(unescaped: pushOutboxTable) o
                  JOIN \(unescaped: pushSubscriptionsTable) s ON s.id = o.subscription AND s.ended IS NULL
                  WHERE o.state = 'pending' AND o.next_attempt <= \(now)
                  ORDER BY o.next_attempt, o.id LIMIT \(Int64(limit)) FOR UPDATE OF o SKIP LOCKED),
                taken AS (
                  UPDATE \(unescaped: pushOutboxTable) o SET next_attempt = \(until) FROM due WHERE o.id = due.id
                  RETURNING o.id, o.subscription, o.idempotency_key, o.body::text AS body, o.topic, o.attempts,
                    o.next_attempt)
                SELECT t.id, t.idempotency_key, t.body, t.topic, t.attempts, \(unescaped: Self.subscriptionColumns)
                FROM taken t JOIN \(unescaped: pushSubscriptionsTable) s ON s.id = t.subscription
                ORDER BY t.id
                """
            ).map { row in
                let (id, key, body, topic, attempts, sid, tenant, device, endpoint, p256dh, auth, topics, created) =
                    try row.decode(
                        (
                            Int64, String, String, String?, Int32, Int64, String, String, String, String, String,
                            [String],
                            Date
                        ).self)
                return PushOutboxEntry(
                    id: id,
                    subscription: PushSubscriptionRow(
                        id: sid, tenant: tenant, device: device, endpoint: endpoint, p256dh: p256dh, auth: auth,
                        topics: topics, created: created),
                    idempotencyKey: key, body: Data(body.utf8), topic: topic, attempts: Int(attempts), due: now)
            }
        }
    }

    /// When the next pending message of a live subscription falls due, if any is pending.
    public func nextPushDue() throws -> Date? {
        try withConnection { db in
            try db.query(
                """
                SELECT min(o.next_attempt) FROM \(unescaped: pushOutboxTable) o
                JOIN \(unescaped: pushSubscriptionsTable) s ON s.id = o.subscription AND s.ended IS NULL
                WHERE o.state = 'pending'
                """
            ).first?.decode(Date?.self)
        }
    }

    /// Records the outcomes of a round of attempts in one transaction.
    public func recordPush(_ outcomes: [PushOutcome]) throws {
        guard !outcomes.isEmpty else { return }
        try inTransaction { db in
            for outcome in outcomes {
                switch outcome {
                case .delivered(let id, let attempts, let at):
                    try db.query(
                        """
                        UPDATE \(unescaped: pushOutboxTable) SET state = 'delivered', attempts = \(Int32(attempts)),
                          delivered = \(at), last_error = NULL WHERE id = \(id)
                        """)
                case .failed(let id, let attempts, let next, let error):
                    try db.query(
                        """
                        UPDATE \(unescaped: pushOutboxTable) SET attempts = \(Int32(attempts)), next_attempt = \(next),
                          last_error = \(error) WHERE id = \(id)
                        """)
                case .dead(let id, let attempts, let error):
                    try db.query(
                        """
                        UPDATE \(unescaped: pushOutboxTable) SET state = 'dead', attempts = \(Int32(attempts)),
                          last_error = \(error) WHERE id = \(id)
                        """)
                case .subscriptionGone(let id, let attempts, let subscription, let reason, let at):
                    try db.query(
                        """
                        UPDATE \(unescaped: pushOutboxTable) SET state = 'dead', attempts = \(Int32(attempts)),
                          last_error = \(reason) WHERE id = \(id)
                        """)
                    try db.query(
                        """
                        UPDATE \(unescaped: pushSubscriptionsTable) SET ended = \(at), end_reason = \(reason)
                        WHERE id = \(subscription) AND ended IS NULL
                        """)
                    try killPending(subscription: subscription, reason: reason, on: db)
                }
            }
        }
    }

    /// How many messages are pending, delivered and dead, and how many subscriptions are live.
    public func pushStats() throws -> PushOutboxStats {
        try withConnection { db in
            let row = try db.query(
                """
                SELECT (SELECT count(*) FROM \(unescaped: pushOutboxTable) WHERE state = 'pending'),
                       (SELECT count(*) FROM \(unescaped: pushOutboxTable) WHERE state = 'delivered'),
                       (SELECT count(*) FROM \(unescaped: pushOutboxTable) WHERE state = 'dead'),
                       (SELECT count(*) FROM \(unescaped: pushSubscriptionsTable) WHERE ended IS NULL)
                """)
            guard let first = row.first else {
                return PushOutboxStats(pending: 0, delivered: 0, dead: 0, subscriptions: 0)
            }
            let (pending, delivered, dead, live) = try first.decode((Int64, Int64, Int64, Int64).self)
            return PushOutboxStats(
                pending: Int(pending), delivered: Int(delivered), dead: Int(dead), subscriptions: Int(live))
        }
    }

    /// The setting `name`, or nil when none is stored.
    public func storedSetting(_ name: String) throws -> Data? {
        try withConnection { db in
            let stored = try db.query("SELECT value FROM \(unescaped: settingsTable) WHERE name = \(name)").first?
                .decode(ByteBuffer.self)
            return stored.map { Data(buffer: $0) }
        }
    }

    /// Stores `value` as the setting `name`, in place of any earlier value.
    public func replaceSetting(_ name: String, with value: Data) throws {
        try withConnection { db in
            try db.query(
                """
                INSERT INTO \(unescaped: settingsTable) (name, value) VALUES (\(name), \(ByteBuffer(bytes: value)))
                ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value
                """)
        }
    }

    private func killPending(subscription: Int64, reason: String, on db: PGConnection) throws {
        try db.query(
            """
            UPDATE \(unescaped: pushOutboxTable) SET state = 'dead', last_error = \(reason)
            WHERE subscription = \(subscription) AND state = 'pending'
            """)
    }
}
