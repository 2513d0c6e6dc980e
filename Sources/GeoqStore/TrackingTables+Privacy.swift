import Foundation

/// Erasure and retention in a GeoPackage: what the store forgets, and how thoroughly.
extension TrackingTables {
    /// Removes everything of `device` in `tenant` (its tracks on every layer, its events and
    /// every delivery of them, pending or not; its push subscriptions and their messages) in one
    /// transaction. The pages the rows lay in are overwritten with zeros (`secure_delete`), so
    /// that the file keeps no copy of them.
    public func erase(tenant: String, device: String) throws(StoreError) -> Erasure {
        try connection.execute("PRAGMA secure_delete = ON")
        defer { try? connection.execute("PRAGMA secure_delete = FAST") }
        return try connection.transaction { () throws(StoreError) -> Erasure in
            _ = try foldInTransaction()
            let deliveries = try run(
                """
                DELETE FROM geoq_outbox WHERE event IN
                  (SELECT sequence FROM geoq_events WHERE tenant = ?1 AND device = ?2)
                """, .text(tenant), .text(device))
            let events = try run(
                "DELETE FROM geoq_events WHERE tenant = ?1 AND device = ?2", .text(tenant), .text(device))
            let tracks = try run(
                "DELETE FROM geoq_tracks WHERE tenant = ?1 AND device = ?2", .text(tenant), .text(device))
            // Its push subscriptions (the browser's keys and endpoint) and their messages go with it.
            _ = try run(
                """
                DELETE FROM geoq_push_outbox WHERE subscription IN
                  (SELECT id FROM geoq_push_subscriptions WHERE tenant = ?1 AND device = ?2)
                """, .text(tenant), .text(device))
            _ = try run(
                "DELETE FROM geoq_push_subscriptions WHERE tenant = ?1 AND device = ?2", .text(tenant), .text(device))
            return Erasure(tracks: tracks, events: events, deliveries: deliveries)
        }
    }

    /// Removes the events committed before `eventsBefore` with their deliveries, and the tracks
    /// not updated since `tracksBefore`, in transactions of at most `batch` events each so that
    /// the writers waiting for the store are not held up for long.
    public func purge(eventsBefore: Date?, tracksBefore: Date?, batch: Int = 5_000) throws(StoreError) -> Purge {
        var purge = Purge(tracks: 0, events: 0, deliveries: 0)
        if let eventsBefore {
            let cut = SQLValue.real(eventsBefore.timeIntervalSince1970)
            while true {
                let removed = try connection.transaction { () throws(StoreError) -> (Int, Int) in
                    let oldest =
                        "SELECT sequence FROM geoq_events WHERE created < ?1 ORDER BY sequence LIMIT \(batch)"
                    let deliveries = try run("DELETE FROM geoq_outbox WHERE event IN (\(oldest))", cut)
                    let events = try run("DELETE FROM geoq_events WHERE sequence IN (\(oldest))", cut)
                    return (deliveries, events)
                }
                purge.deliveries += removed.0
                purge.events += removed.1
                if removed.1 < batch { break }
            }
        }
        if let tracksBefore {
            try foldTrackLog()
            purge.tracks = try run(
                "DELETE FROM geoq_tracks WHERE updated < ?1", .real(tracksBefore.timeIntervalSince1970))
        }
        return purge
    }
}
