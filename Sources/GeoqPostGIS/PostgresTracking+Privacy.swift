import Foundation
import GeoqStore
import PostgresNIO

/// Erasure and retention in PostgreSQL.
extension PostgresTracking {
    /// Removes everything of `device` in `tenant` (its tracks, its events and every delivery of
    /// them) in one transaction, then vacuums the three tables so that the removed rows'
    /// space is reclaimed rather than left in the files until autovacuum gets to it.
    public func erase(tenant: String, device: String) throws -> Erasure {
        let erasure = try inTransaction { db in
            let deliveries = try count(
                db,
                """
                DELETE FROM \(unescaped: outboxTable) WHERE event IN
                  (SELECT sequence FROM \(unescaped: eventsTable) WHERE tenant = \(tenant) AND device = \(device))
                """)
            let events = try count(
                db, "DELETE FROM \(unescaped: eventsTable) WHERE tenant = \(tenant) AND device = \(device)")
            let tracks = try count(
                db, "DELETE FROM \(unescaped: tracksTable) WHERE tenant = \(tenant) AND device = \(device)")
            // Its push subscriptions (the browser's keys and endpoint) and their messages go with it.
            try db.query(
                """
                DELETE FROM \(unescaped: pushOutboxTable) WHERE subscription IN
                  (SELECT id FROM \(unescaped: pushSubscriptionsTable) WHERE tenant = \(tenant) AND device = \(device))
                """)
            try db.query(
                "DELETE FROM \(unescaped: pushSubscriptionsTable) WHERE tenant = \(tenant) AND device = \(device)")
            try db.query(
                """
                WITH gone AS (
                  DELETE FROM \(unescaped: devicesTable) WHERE tenant = \(tenant) AND device = \(device) RETURNING tenant)
                UPDATE \(unescaped: deviceCountsTable) c SET devices = devices - 1 FROM gone WHERE c.tenant = gone.tenant
                """)
            return Erasure(tracks: tracks, events: events, deliveries: deliveries)
        }
        // Nothing of the device kept in memory either (its rows are gone: never read back anyway).
        recent.forget(tenant: tenant, device: device)
        // Outside the transaction (VACUUM cannot run in one); best effort: the rows are gone
        // for every reader already.
        try? withConnection { db in
            try db.query(PostgresQuery(unsafeSQL: "VACUUM \(outboxTable), \(eventsTable), \(tracksTable)"))
        }
        return erasure
    }

    /// Removes the events committed before `eventsBefore` with their deliveries, and the tracks
    /// not updated since `tracksBefore`, at most `batch` events a transaction.
    public func purge(eventsBefore: Date?, tracksBefore: Date?, batch: Int = 5_000) throws -> Purge {
        var purge = Purge(tracks: 0, events: 0, deliveries: 0)
        if let eventsBefore {
            while true {
                let removed = try inTransaction { db in
                    let oldest =
                        "SELECT sequence FROM \(eventsTable) WHERE created < $1 ORDER BY sequence LIMIT \(batch)"
                    var query = PostgresQuery(unsafeSQL: "DELETE FROM \(outboxTable) WHERE event IN (\(oldest))")
                    try query.binds.append(eventsBefore)
                    let deliveries = try count(db, query)
                    var events = PostgresQuery(unsafeSQL: "DELETE FROM \(eventsTable) WHERE sequence IN (\(oldest))")
                    try events.binds.append(eventsBefore)
                    return (deliveries, try count(db, events))
                }
                purge.deliveries += removed.0
                purge.events += removed.1
                if removed.1 < batch { break }
            }
        }
        if let tracksBefore {
            purge.tracks = try inTransaction { db in
                let removed = try count(db, "DELETE FROM \(unescaped: tracksTable) WHERE updated < \(tracksBefore)")
                if removed > 0 {
                    // The devices left with no track, and the counts again (the retention runs
                    // seldom; a batch reads one row).
                    try db.query(
                        """
                        DELETE FROM \(unescaped: devicesTable) d WHERE NOT EXISTS (
                          SELECT 1 FROM \(unescaped: tracksTable) t WHERE t.tenant = d.tenant AND t.device = d.device)
                        """)
                    try db.query(
                        """
                        UPDATE \(unescaped: deviceCountsTable) c
                        SET devices = (SELECT count(*) FROM \(unescaped: devicesTable) d WHERE d.tenant = c.tenant)
                        """)
                }
                return removed
            }
            recent.forgetAll()
        }
        return purge
    }

    /// Runs a DELETE and returns how many rows it removed.
    private func count(_ db: PGConnection, _ delete: PostgresQuery) throws -> Int {
        var counted = PostgresQuery(
            unsafeSQL: "WITH removed AS (\(delete.sql) RETURNING 1) SELECT count(*) FROM removed")
        counted.binds = delete.binds
        return try db.query(counted).first?.decode(Int.self) ?? 0
    }
}
