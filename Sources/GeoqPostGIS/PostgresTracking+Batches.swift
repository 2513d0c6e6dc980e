import Foundation
import GeoqStore
import PostgresNIO

/// Batches of fixes and sweeps of silent stays on the shared tracks' table.
///
/// A batch is applied optimistically: its tracks are read without a lock (or taken from what
/// this process wrote last, ``RecentTracks``), advanced, and written back only where each row
/// still has the version read (or remembered). Another replica that wrote one
/// of those rows in between makes the count fall short; the transaction is then rolled back and
/// the batch applied again under row locks. Why not lock at once: a lock writes every row twice
/// (the lock, then the track), and a device is nearly always written by one replica at a time.
/// Versions come from a sequence, so a row made again after an erasure never repeats one.
extension PostgresTracking {
    /// A batch: `advance` gets the current tracks of `keys` (those that have one) and returns
    /// the tracks and events to write, all committed in one transaction with no other writer's
    /// change to those tracks in between. `advance` may run more than once (a conflict or a
    /// deadlock rolled back): it must depend on its argument only. With `maxDevices`, a batch that
    /// would give a tenant more devices than that is refused and nothing is written. Returns the
    /// sequences of the events written.
    @discardableResult
    public func advanceLocked(
        _ keys: [(tenant: String, device: String, layer: String)], now: Date = Date(), maxDevices: Int? = nil,
        _ advance: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64] {
        var unique = Set<TrackKey>(minimumCapacity: keys.count)
        for key in keys { unique.insert(TrackKey(tenant: key.tenant, device: key.device, layer: key.layer)) }
        do {
            let done = try inTransaction { db in
                try advanceIfUnchanged(unique, now: now, maxDevices: maxDevices, on: db, advance)
            }
            recent.remember(done.written)
            return done.sequences
        } catch is WrittenMeanwhile {
            recent.forget(unique)
            // One order for every locking batch, so that two wait for each other instead of
            // deadlocking.
            let sorted = unique.sorted()
            return try inTransaction { db in
                try advanceUnderLocks(sorted, now: now, maxDevices: maxDevices, on: db, advance)
            }
        }
    }

    /// The sweep: `end` gets every open stay and returns the tracks and events to write. Nothing
    /// is locked: a track is written only where its row still has the version read, and an event
    /// only with its device's track, so a batch or another replica's sweep that wrote the row in
    /// between keeps it (the next sweep looks again), and two replicas sweeping at once end each
    /// stay once. Only the stays that end are written.
    @discardableResult
    public func sweepLocked(
        now: Date = Date(), _ end: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64] {
        let done = try inTransaction { db in
            let read = try readVersioned(
                db.query(
                    """
                    SELECT tenant, device, layer, state, open, version, ctid::text FROM \(unescaped: tracksTable)
                    WHERE open AND state IS NOT NULL
                    """))
            let change = try end(read.rows)
            let changed = change.tracks.compactMap { track in read.versions[TrackKey(track)].map { (track, $0) } }
            let written = try writeIfUnchanged(changed, now: now, on: db)
            let sequences = try writeEvents(
                change.events.filter {
                    written[TrackKey(tenant: $0.tenant, device: $0.device, layer: $0.layer)] != nil
                },
                now: now, on: db)
            return (sequences: sequences, written: Self.remembered(change.tracks, at: written))
        }
        recent.remember(done.written)
        return done.sequences
    }

    /// Another writer changed (or made) a track this batch read: roll back and lock.
    private struct WrittenMeanwhile: Error {}

    private func advanceIfUnchanged(
        _ keys: Set<TrackKey>, now: Date, maxDevices: Int?, on db: PGConnection,
        _ advance: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> (sequences: [Int64], written: [TrackKey: RecentTracks.Track]) {
        var rows: [TrackRow] = []
        var versions: [TrackKey: RowVersion] = [:]
        // Remembered tracks are taken as they are, with no place: each is written through the
        // key's index where the row still has the version remembered (a search of the index,
        // unlike a write at a place, prunes the page of the row's dead versions, which leaves
        // room for the write to stay on it). Another replica's write in between makes the count
        // fall short.
        for (key, track) in recent.tracks(of: keys) {
            rows.append(
                TrackRow(tenant: key.tenant, device: key.device, layer: key.layer, state: track.state, open: track.open)
            )
            versions[key] = RowVersion(version: track.version, place: nil)
        }
        // Those read now are written at the place read.
        let unread = keys.filter { versions[$0] == nil }
        if !unread.isEmpty {
            let keys = Array(unread)
            let read = try readVersioned(
                db.query(
                    """
                    SELECT t.tenant, t.device, t.layer, t.state, t.open, t.version, t.ctid::text FROM \(unescaped: tracksTable) t
                    JOIN unnest(\(keys.map(\.tenant))::text[], \(keys.map(\.device))::text[], \(keys.map(\.layer))::text[]) AS k(t, d, l)
                      ON t.tenant = k.t AND t.device = k.d AND t.layer = k.l
                    """))
            rows += read.rows
            versions.merge(read.versions) { $1 }
        }
        let change = try advance(rows)
        var atPlace: [(row: TrackRow, version: RowVersion)] = []
        var byKey: [(row: TrackRow, version: RowVersion)] = []
        var new: [TrackRow] = []
        for track in change.tracks {
            if let version = versions[TrackKey(track)] {
                if version.place == nil { byKey.append((track, version)) } else { atPlace.append((track, version)) }
            } else {
                new.append(track)
            }
        }
        var written = try writeIfUnchanged(atPlace, now: now, on: db)
        written.merge(try writeIfUnchanged(byKey, now: now, on: db)) { $1 }
        if written.count != atPlace.count + byKey.count { throw WrittenMeanwhile() }
        if !new.isEmpty {
            let made = try db.query(
                """
                INSERT INTO \(unescaped: tracksTable) (tenant, device, layer, state, updated, open)
                SELECT t, d, l, s, \(now), o
                FROM unnest(\(new.map(\.tenant))::text[], \(new.map(\.device))::text[], \(new.map(\.layer))::text[], \(new.map { ByteBuffer(bytes: $0.state) })::bytea[], \(new.map(\.open))::boolean[]) AS n(t, d, l, s, o)
                ON CONFLICT (tenant, device, layer) DO NOTHING RETURNING tenant, device, layer, version
                """)
            for row in made {
                let (tenant, device, layer, version) = try row.decode((String, String, String, Int64).self)
                written[TrackKey(tenant: tenant, device: device, layer: layer)] = version
            }
            if written.count != atPlace.count + byKey.count + new.count { throw WrittenMeanwhile() }
            try checkDeviceCounts(
                countDevices(new.map { ($0.tenant, $0.device) }, on: db), max: maxDevices)
        }
        return (try writeEvents(change.events, now: now, on: db), Self.remembered(change.tracks, at: written))
    }

    /// The locked batch: makes the rows of `keys` that are missing, locks all of them, hands
    /// their tracks (those that have one) to `advance`, and writes what it returns.
    private func advanceUnderLocks(
        _ keys: [TrackKey], now: Date, maxDevices: Int?, on db: PGConnection,
        _ advance: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64] {
        let (tenants, devices, layers) = (keys.map(\.tenant), keys.map(\.device), keys.map(\.layer))
        let made = try db.query(
            """
            INSERT INTO \(unescaped: tracksTable) (tenant, device, layer, state, updated)
            SELECT t, d, l, NULL, \(now)
            FROM unnest(\(tenants)::text[], \(devices)::text[], \(layers)::text[]) AS k(t, d, l)
            ORDER BY t COLLATE "C", d COLLATE "C", l COLLATE "C"
            ON CONFLICT (tenant, device, layer) DO NOTHING RETURNING tenant, device
            """)
        // New devices: the tenant's count checked in the same transaction (refused: nothing kept).
        try checkDeviceCounts(
            countDevices(try made.map { try $0.decode((String, String).self) }, on: db), max: maxDevices)
        let locked = try db.query(
            """
            SELECT t.tenant, t.device, t.layer, t.state, t.open FROM \(unescaped: tracksTable) t
            JOIN unnest(\(tenants)::text[], \(devices)::text[], \(layers)::text[]) AS k(t, d, l)
              ON t.tenant = k.t AND t.device = k.d AND t.layer = k.l
            ORDER BY t.tenant COLLATE "C", t.device COLLATE "C", t.layer COLLATE "C" FOR UPDATE OF t
            """)
        let change = try advance(try trackRows(locked))
        return try write(tracks: change.tracks, events: change.events, now: now, on: db)
    }

    /// Refuses (rolling back) a batch that gave a tenant more than `max` devices (`counts`: the
    /// tenants' counts after it).
    private func checkDeviceCounts(_ counts: [String: Int], max: Int?) throws {
        guard let max else { return }
        for (tenant, count) in counts.sorted(by: { $0.key < $1.key }) where count > max {
            throw TrackingLimitError.tooManyDevices(tenant: tenant, limit: max)
        }
    }

    /// Rows read with their versions: the tracks (rows made only to be locked have none), and
    /// the version and place of every row.
    private func readVersioned(_ result: [PostgresRow]) throws -> (rows: [TrackRow], versions: [TrackKey: RowVersion]) {
        var versions: [TrackKey: RowVersion] = [:]
        var rows: [TrackRow] = []
        for row in result {
            let (tenant, device, layer, state, open, version, place) = try row.decode(
                (String, String, String, ByteBuffer?, Bool, Int64, String).self)
            versions[TrackKey(tenant: tenant, device: device, layer: layer)] = RowVersion(
                version: version, place: place)
            if let state {
                rows.append(
                    TrackRow(
                        tenant: tenant, device: device, layer: layer, state: Array(state.readableBytesView), open: open)
                )
            }
        }
        return (rows, versions)
    }

    /// Writes each track whose row still has the version read or remembered (in one statement,
    /// so each row once and no lock taken before); returns the new version of each row written.
    /// A row another writer changed since is left as that writer made it. `tracks` are all of
    /// one kind: with a place, found there, or without, found through the key's index.
    private func writeIfUnchanged(_ tracks: [(row: TrackRow, version: RowVersion)], now: Date, on db: PGConnection)
        throws -> [TrackKey: Int64]
    {
        guard !tracks.isEmpty else { return [:] }
        let rows = tracks.map(\.row)
        let atPlace = tracks[0].version.place != nil
        return try newVersions(
            of: rows,
            db.query(
                """
                UPDATE \(unescaped: tracksTable) t
                SET state = u.s, updated = \(now), open = u.o, version = nextval('\(unescaped: versionsSequence)')
                FROM unnest(\(rows.map(\.tenant))::text[], \(rows.map(\.device))::text[], \(rows.map(\.layer))::text[], \(rows.map { ByteBuffer(bytes: $0.state) })::bytea[], \(rows.map(\.open))::boolean[], \(tracks.map(\.version.version))::bigint[], \(tracks.map { $0.version.place ?? "" })::text[]) WITH ORDINALITY AS u(t, d, l, s, o, v, c, n)
                WHERE \(unescaped: atPlace ? "t.ctid = u.c::tid AND " : "")t.tenant = u.t AND t.device = u.d AND t.layer = u.l AND t.version = u.v
                RETURNING u.n, t.version
                """))
    }

    /// The new version of each of `rows` an update returned (by its ordinal in `rows`).
    private func newVersions(of rows: [TrackRow], _ written: [PostgresRow]) throws -> [TrackKey: Int64] {
        var versions: [TrackKey: Int64] = [:]
        for row in written {
            let (n, version) = try row.decode((Int64, Int64).self)
            versions[TrackKey(rows[Int(n) - 1])] = version
        }
        return versions
    }

    /// What to remember of `tracks` once committed: those written, with their rows' new versions.
    private static func remembered(_ tracks: [TrackRow], at written: [TrackKey: Int64])
        -> [TrackKey: RecentTracks.Track]
    {
        var remembered: [TrackKey: RecentTracks.Track] = [:]
        for track in tracks {
            let key = TrackKey(track)
            if let version = written[key] {
                remembered[key] = RecentTracks.Track(state: track.state, open: track.open, version: version)
            }
        }
        return remembered
    }
}
