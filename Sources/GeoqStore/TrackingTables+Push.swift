import Foundation

/// Push subscriptions and their outbox in a GeoPackage (`geoq_push_subscriptions`,
/// `geoq_push_outbox`). A subscription that ended (its push service answered 404 or 410, or it
/// was deleted) keeps its row with the reason, and gets no new message.
extension TrackingTables {
    /// Stores a subscription for `device`, or, when the tenant already has a live one at the
    /// same endpoint (the browser subscribed again), gives that one the new device, keys and
    /// topics. Returns the stored row.
    public func putPushSubscription(
        tenant: String, device: String, endpoint: String, p256dh: String, auth: String, topics: [String], now: Date
    ) throws(StoreError) -> PushSubscriptionRow {
        let topicsText = topics.joined(separator: ",")
        return try connection.transaction { () throws(StoreError) -> PushSubscriptionRow in
            let put = try connection.prepare(
                """
                INSERT INTO geoq_push_subscriptions (tenant, device, endpoint, p256dh, auth, topics, created)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (tenant, endpoint) WHERE ended IS NULL
                DO UPDATE SET device = ?2, p256dh = ?4, auth = ?5, topics = ?6
                """)
            try put.bind(tenant, at: 1)
            try put.bind(device, at: 2)
            try put.bind(endpoint, at: 3)
            try put.bind(p256dh, at: 4)
            try put.bind(auth, at: 5)
            try put.bind(topicsText, at: 6)
            try put.bind(now.timeIntervalSince1970, at: 7)
            try put.run()
            let stmt = try connection.prepare(
                "\(Self.subscriptionColumns) WHERE tenant = ? AND endpoint = ? AND ended IS NULL")
            try stmt.bind(tenant, at: 1)
            try stmt.bind(endpoint, at: 2)
            guard try stmt.step() else {
                throw StoreError(.storeUnreadable, "the push subscription just stored could not be read back")
            }
            return Self.subscription(stmt)
        }
    }

    /// The tenant's live subscriptions: all, a device's, or those that asked for `topic`.
    public func pushSubscriptions(tenant: String, device: String?, topic: String?) throws(StoreError)
        -> [PushSubscriptionRow]
    {
        var sql = "\(Self.subscriptionColumns) WHERE tenant = ?1 AND ended IS NULL"
        if device != nil { sql += " AND device = ?2" }
        sql += " ORDER BY id"
        let stmt = try connection.prepare(sql)
        try stmt.bind(tenant, at: 1)
        if let device { try stmt.bind(device, at: 2) }
        var rows: [PushSubscriptionRow] = []
        while try stmt.step() {
            let row = Self.subscription(stmt)
            if let topic, !row.topics.contains(topic) { continue }
            rows.append(row)
        }
        return rows
    }

    /// How many live subscriptions the tenant has.
    public func pushSubscriptionCount(tenant: String) throws(StoreError) -> Int {
        let stmt = try connection.prepare(
            "SELECT count(*) FROM geoq_push_subscriptions WHERE tenant = ? AND ended IS NULL")
        try stmt.bind(tenant, at: 1)
        _ = try stmt.step()
        return Int(stmt.int64(at: 0))
    }

    /// Ends subscription `id` of `tenant` (of `device` only, when given); its pending messages
    /// are dead. False when there is no such live subscription.
    public func endPushSubscription(tenant: String, device: String?, id: Int64, reason: String, now: Date)
        throws(StoreError) -> Bool
    {
        try connection.transaction { () throws(StoreError) -> Bool in
            // Any device when none is given: the owner of the tenant's key ends any of them.
            let ended = try run(
                """
                UPDATE geoq_push_subscriptions SET ended = ?1, end_reason = ?2
                WHERE id = ?3 AND tenant = ?4 AND device = coalesce(?5, device) AND ended IS NULL
                """, .real(now.timeIntervalSince1970), .text(reason), .integer(id), .text(tenant),
                device.map { .text($0) } ?? .null)
            guard ended == 1 else { return false }
            try killPending(subscription: id, reason: reason)
            return true
        }
    }

    /// Puts `messages` in the outbox in one transaction, each unless its key is there already;
    /// returns how many were put.
    @discardableResult
    public func enqueuePush(_ messages: [PushMessageRow]) throws(StoreError) -> Int {
        guard !messages.isEmpty else { return 0 }
        return try connection.transaction { () throws(StoreError) -> Int in
            let put = try connection.prepare(
                """
                INSERT OR IGNORE INTO geoq_push_outbox (subscription, idempotency_key, body, topic, next_attempt, state)
                VALUES (?, ?, ?, ?, ?, 'pending')
                """)
            var added = 0
            for message in messages {
                put.reset()
                put.clearBindings()
                try put.bind(message.subscription, at: 1)
                try put.bind(message.idempotencyKey, at: 2)
                try put.bind(blob: [UInt8](message.body), at: 3)
                try put.bind(message.topic, at: 4)
                try put.bind(message.due.timeIntervalSince1970, at: 5)
                try put.run()
                added += Int(try connection.scalarInt("SELECT changes()") ?? 0)
            }
            return added
        }
    }

    /// The pending messages due at `now`, oldest due first, with their subscriptions. One
    /// process sends from a GeoPackage: nothing is leased.
    public func claimPush(now: Date, lease: Duration, limit: Int) throws(StoreError) -> [PushOutboxEntry] {
        let stmt = try connection.prepare(
            """
            SELECT o.id, o.idempotency_key, o.body, o.topic, o.attempts, o.next_attempt,
                   s.id, s.tenant, s.device, s.endpoint, s.p256dh, s.auth, s.topics, s.created
            FROM geoq_push_outbox o JOIN geoq_push_subscriptions s ON s.id = o.subscription
            WHERE o.state = 'pending' AND o.next_attempt <= ? AND s.ended IS NULL
            ORDER BY o.next_attempt, o.id LIMIT ?
            """)
        try stmt.bind(now.timeIntervalSince1970, at: 1)
        try stmt.bind(Int64(limit), at: 2)
        var entries: [PushOutboxEntry] = []
        while try stmt.step() {
            let subscription = PushSubscriptionRow(
                id: stmt.int64(at: 6), tenant: stmt.text(at: 7) ?? "", device: stmt.text(at: 8) ?? "",
                endpoint: stmt.text(at: 9) ?? "", p256dh: stmt.text(at: 10) ?? "", auth: stmt.text(at: 11) ?? "",
                topics: Self.topics(stmt.text(at: 12)), created: Date(timeIntervalSince1970: stmt.double(at: 13)))
            entries.append(
                PushOutboxEntry(
                    id: stmt.int64(at: 0), subscription: subscription, idempotencyKey: stmt.text(at: 1) ?? "",
                    body: stmt.withBlob(at: 2) { Data($0) }, topic: stmt.text(at: 3), attempts: Int(stmt.int64(at: 4)),
                    due: Date(timeIntervalSince1970: stmt.double(at: 5))))
        }
        return entries
    }

    /// When the next pending message of a live subscription falls due, if any is pending.
    public func nextPushDue() throws(StoreError) -> Date? {
        let stmt = try connection.prepare(
            """
            SELECT min(o.next_attempt) FROM geoq_push_outbox o JOIN geoq_push_subscriptions s ON s.id = o.subscription
            WHERE o.state = 'pending' AND s.ended IS NULL
            """)
        guard try stmt.step(), !stmt.isNull(at: 0) else { return nil }
        return Date(timeIntervalSince1970: stmt.double(at: 0))
    }

    /// Records the outcomes of a round of attempts in one transaction.
    public func recordPush(_ outcomes: [PushOutcome]) throws(StoreError) {
        guard !outcomes.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for outcome in outcomes {
                switch outcome {
                case .delivered(let id, let attempts, let at):
                    try run(
                        "UPDATE geoq_push_outbox SET state = 'delivered', attempts = ?2, delivered = ?3, last_error = NULL WHERE id = ?1",
                        .integer(id), .integer(Int64(attempts)), .real(at.timeIntervalSince1970))
                case .failed(let id, let attempts, let next, let error):
                    try run(
                        "UPDATE geoq_push_outbox SET attempts = ?2, next_attempt = ?3, last_error = ?4 WHERE id = ?1",
                        .integer(id), .integer(Int64(attempts)), .real(next.timeIntervalSince1970), .text(error))
                case .dead(let id, let attempts, let error):
                    try markPushDead(id, attempts: attempts, error: error)
                case .subscriptionGone(let id, let attempts, let subscription, let reason, let at):
                    try markPushDead(id, attempts: attempts, error: reason)
                    try run(
                        "UPDATE geoq_push_subscriptions SET ended = ?1, end_reason = ?2 WHERE id = ?3 AND ended IS NULL",
                        .real(at.timeIntervalSince1970), .text(reason), .integer(subscription))
                    try killPending(subscription: subscription, reason: reason)
                }
            }
        }
    }

    /// How many messages are pending, delivered and dead, and how many subscriptions are live.
    public func pushStats() throws(StoreError) -> PushOutboxStats {
        let stmt = try connection.prepare(
            """
            SELECT (SELECT count(*) FROM geoq_push_outbox WHERE state = 'pending'),
                   (SELECT count(*) FROM geoq_push_outbox WHERE state = 'delivered'),
                   (SELECT count(*) FROM geoq_push_outbox WHERE state = 'dead'),
                   (SELECT count(*) FROM geoq_push_subscriptions WHERE ended IS NULL)
            """)
        _ = try stmt.step()
        return PushOutboxStats(
            pending: Int(stmt.int64(at: 0)), delivered: Int(stmt.int64(at: 1)), dead: Int(stmt.int64(at: 2)),
            subscriptions: Int(stmt.int64(at: 3)))
    }

    private static let subscriptionColumns =
        "SELECT id, tenant, device, endpoint, p256dh, auth, topics, created FROM geoq_push_subscriptions"

    private static func subscription(_ stmt: SQLiteConnection.Statement) -> PushSubscriptionRow {
        PushSubscriptionRow(
            id: stmt.int64(at: 0), tenant: stmt.text(at: 1) ?? "", device: stmt.text(at: 2) ?? "",
            endpoint: stmt.text(at: 3) ?? "", p256dh: stmt.text(at: 4) ?? "", auth: stmt.text(at: 5) ?? "",
            topics: topics(stmt.text(at: 6)), created: Date(timeIntervalSince1970: stmt.double(at: 7)))
    }

    private static func topics(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map(String.init)
    }

    private func killPending(subscription: Int64, reason: String) throws(StoreError) {
        try run(
            "UPDATE geoq_push_outbox SET state = 'dead', last_error = ?1 WHERE subscription = ?2 AND state = 'pending'",
            .text(reason), .integer(subscription))
    }

    private func markPushDead(_ id: Int64, attempts: Int, error: String) throws(StoreError) {
        try run(
            "UPDATE geoq_push_outbox SET state = 'dead', attempts = ?2, last_error = ?3 WHERE id = ?1", .integer(id),
            .integer(Int64(attempts)), .text(error))
    }
}
