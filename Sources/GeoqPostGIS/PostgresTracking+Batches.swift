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
///
/// A batch is one tenant's devices on one layer, and its tracks go back and forth in the order of
/// its devices, so that neither side looks a track up by its key: hashing keys of three strings,
/// several times a fix, took a fifth of the service's time in a fleet's run.
extension PostgresTracking {
    /// A batch: `advance` gets the current tracks of `devices` (distinct) of `tenant` on `layer`
    /// in their order (nil: none yet) and returns, in the same order, the tracks to write (nil:
    /// leave it) and the events, all committed in one transaction with no other writer's change
    /// to those tracks in between. `advance` may run more than once (a conflict or a deadlock
    /// rolled back): it must depend on its argument only. With `maxDevices`, a batch that would
    /// give the tenant more devices than that is refused and nothing is written. Returns the
    /// sequences of the events written.
    @discardableResult
    public func advanceLocked(
        tenant: String, layer: String, devices: [String], now: Date = Date(), maxDevices: Int? = nil,
        _ advance: ([StoredTrack?]) throws -> (tracks: [StoredTrack?], events: [StoredEvent])
    ) throws -> [Int64] {
        let batch = BatchRows(tenant: tenant, layer: layer, devices: devices)
        do {
            let done = try inTransaction { db in
                try advanceIfUnchanged(batch, now: now, maxDevices: maxDevices, on: db, advance)
            }
            recent.remember(tenant: tenant, layer: layer, devices: devices, written: done.written)
            return done.sequences
        } catch is WrittenMeanwhile {
            recent.forget(devices.map { TrackKey(tenant: tenant, device: $0, layer: layer) })
            return try inTransaction { db in
                try advanceUnderLocks(batch, now: now, maxDevices: maxDevices, on: db, advance)
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
            // The stays that end, as batches of their tenants' devices on their layers.
            var batches: [RecentTracks.Group: (rows: BatchRows, tracks: [StoredTrack?])] = [:]
            for track in change.tracks {
                guard let version = read.versions[TrackKey(track)] else { continue }
                let group = RecentTracks.Group(tenant: track.tenant, layer: track.layer)
                var batch =
                    batches.removeValue(forKey: group)
                    ?? (BatchRows(tenant: track.tenant, layer: track.layer, devices: []), [])
                batch.rows.devices.append(track.device)
                batch.rows.versions.append(version)
                batch.tracks.append(StoredTrack(state: track.state, open: track.open))
                batches[group] = batch
            }
            var written = Set<TrackKey>()
            for batch in batches.values {
                for (index, _) in try writeIfUnchanged(
                    Array(batch.tracks.indices), of: batch.tracks, in: batch.rows, now: now, on: db)
                {
                    written.insert(
                        TrackKey(tenant: batch.rows.tenant, device: batch.rows.devices[index], layer: batch.rows.layer))
                }
            }
            let sequences = try writeEvents(
                change.events.filter {
                    written.contains(TrackKey(tenant: $0.tenant, device: $0.device, layer: $0.layer))
                },
                now: now, on: db)
            return (sequences: sequences, written: written)
        }
        // What this process remembered of them is stale now: the next batches read them back.
        recent.forget(done.written)
        return done.sequences
    }

    /// Another writer changed (or made) a track this batch read: roll back and lock.
    private struct WrittenMeanwhile: Error {}

    /// A batch's rows: one tenant's devices on one layer, each with the version of its row read
    /// or remembered (nil: no row).
    ///
    /// The tenant and the layer are sent once and repeated for each device by the database: the
    /// statements join the table on every column of its key, for then the planner finds each row
    /// through the key's index (given one tenant and one layer for the batch, it would take every
    /// row of theirs into a hash join while its statistics of a table that grows from empty lag
    /// behind: measured, a third of the fixes a second).
    struct BatchRows {
        let tenant: String
        let layer: String
        var devices: [String]
        var versions: [RowVersion?]

        init(tenant: String, layer: String, devices: [String]) {
            self.tenant = tenant
            self.layer = layer
            self.devices = devices
            versions = Array(repeating: nil, count: devices.count)
        }
    }

    private func advanceIfUnchanged(
        _ batch: BatchRows, now: Date, maxDevices: Int?, on db: PGConnection,
        _ advance: ([StoredTrack?]) throws -> (tracks: [StoredTrack?], events: [StoredEvent])
    ) throws -> (sequences: [Int64], written: [RecentTracks.Track?]) {
        var rows = batch
        let devices = rows.devices
        // Remembered tracks are taken as they are, with no place: each is written through the
        // key's index where the row still has the version remembered (a search of the index,
        // unlike a write at a place, prunes the page of the row's dead versions, which leaves
        // room for the write to stay on it). Another replica's write in between makes the count
        // fall short.
        var current: [StoredTrack?] = []
        current.reserveCapacity(devices.count)
        var unread: [Int] = []
        for (index, remembered) in recent.tracks(tenant: rows.tenant, layer: rows.layer, devices: devices).enumerated()
        {
            current.append(remembered?.track)
            if let remembered {
                rows.versions[index] = RowVersion(version: remembered.version, place: nil)
            } else {
                unread.append(index)
            }
        }
        // Those read now are written at the place read.
        if !unread.isEmpty {
            for row in try db.query(
                """
                SELECT k.n, t.state, t.open, t.version, t.ctid::text FROM \(unescaped: tracksTable) t
                JOIN unnest(array_fill(\(rows.tenant)::text, ARRAY[\(Int32(unread.count))]), \(unread.map { devices[$0] })::text[], array_fill(\(rows.layer)::text, ARRAY[\(Int32(unread.count))])) WITH ORDINALITY AS k(t, d, l, n)
                  ON t.tenant = k.t AND t.device = k.d AND t.layer = k.l
                """)
            {
                let (n, state, open, version, place) = try row.decode((Int64, ByteBuffer?, Bool, Int64, String).self)
                let index = unread[Int(n) - 1]
                rows.versions[index] = RowVersion(version: version, place: place)
                current[index] = state.map { StoredTrack(state: Array($0.readableBytesView), open: open) }
            }
        }
        let change = try advance(current)
        precondition(change.tracks.count == devices.count, "advance returns one track (or nil) per device")
        var (atPlace, byKey, new): ([Int], [Int], [Int]) = ([], [], [])
        for (index, track) in change.tracks.enumerated() where track != nil {
            switch rows.versions[index] {
            case nil: new.append(index)
            case let version? where version.place == nil: byKey.append(index)
            default: atPlace.append(index)
            }
        }
        var versions = [Int64?](repeating: nil, count: devices.count)
        for (index, version) in try writeIfUnchanged(atPlace, of: change.tracks, in: rows, now: now, on: db)
            + writeIfUnchanged(byKey, of: change.tracks, in: rows, now: now, on: db)
        {
            versions[index] = version
        }
        var count = versions.count { $0 != nil }
        if count != atPlace.count + byKey.count { throw WrittenMeanwhile() }
        if !new.isEmpty {
            let made = try db.query(
                """
                INSERT INTO \(unescaped: tracksTable) (tenant, device, layer, state, updated, open)
                SELECT \(rows.tenant), d, \(rows.layer), s, \(now), o
                FROM unnest(\(new.map { devices[$0] })::text[], \(new.map { ByteBuffer(bytes: change.tracks[$0]!.state) })::bytea[], \(new.map { change.tracks[$0]!.open })::boolean[]) AS n(d, s, o)
                ON CONFLICT (tenant, device, layer) DO NOTHING RETURNING device, version
                """)
            // Few: a device's first fix.
            var newIndex: [String: Int] = [:]
            for index in new { newIndex[devices[index]] = index }
            for row in made {
                let (device, version) = try row.decode((String, Int64).self)
                if let index = newIndex[device] { versions[index] = version }
            }
            count += made.count
            if count != atPlace.count + byKey.count + new.count { throw WrittenMeanwhile() }
            try checkDeviceCounts(countDevices(new.map { (rows.tenant, devices[$0]) }, on: db), max: maxDevices)
        }
        let remembered = zip(change.tracks, versions).map { track, version in
            version.map { RecentTracks.Track(track: track!, version: $0) }
        }
        return (try writeEvents(change.events, now: now, on: db), remembered)
    }

    /// The locked batch: makes the rows of the batch's devices that are missing, locks all of
    /// them, hands their tracks (those that have one) to `advance`, and writes what it returns.
    private func advanceUnderLocks(
        _ rows: BatchRows, now: Date, maxDevices: Int?, on db: PGConnection,
        _ advance: ([StoredTrack?]) throws -> (tracks: [StoredTrack?], events: [StoredEvent])
    ) throws -> [Int64] {
        let (tenant, layer, devices) = (rows.tenant, rows.layer, rows.devices)
        let made = try db.query(
            """
            INSERT INTO \(unescaped: tracksTable) (tenant, device, layer, state, updated)
            SELECT \(tenant), d, \(layer), NULL, \(now) FROM unnest(\(devices)::text[]) AS k(d)
            ORDER BY d COLLATE "C"
            ON CONFLICT (tenant, device, layer) DO NOTHING RETURNING device
            """)
        // New devices: the tenant's count checked in the same transaction (refused: nothing kept).
        try checkDeviceCounts(
            countDevices(try made.map { (tenant, try $0.decode(String.self)) }, on: db), max: maxDevices)
        // One order for every locking batch, so that two wait for each other instead of
        // deadlocking.
        var current = [StoredTrack?](repeating: nil, count: devices.count)
        for row in try db.query(
            """
            SELECT k.n, t.state, t.open FROM \(unescaped: tracksTable) t
            JOIN unnest(array_fill(\(rows.tenant)::text, ARRAY[\(Int32(devices.count))]), \(devices)::text[], array_fill(\(rows.layer)::text, ARRAY[\(Int32(devices.count))])) WITH ORDINALITY AS k(t, d, l, n)
              ON t.tenant = k.t AND t.device = k.d AND t.layer = k.l
            ORDER BY t.device COLLATE "C" FOR UPDATE OF t
            """)
        {
            let (n, state, open) = try row.decode((Int64, ByteBuffer?, Bool).self)
            current[Int(n) - 1] = state.map { StoredTrack(state: Array($0.readableBytesView), open: open) }
        }
        let change = try advance(current)
        precondition(change.tracks.count == devices.count, "advance returns one track (or nil) per device")
        let tracks = zip(devices, change.tracks).compactMap { device, track in
            track.map { TrackRow(tenant: tenant, device: device, layer: layer, state: $0.state, open: $0.open) }
        }
        return try write(tracks: tracks, events: change.events, now: now, on: db)
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

    /// Writes the tracks at `indices` of a batch (`tracks[i]` that of `rows.devices[i]`, not nil)
    /// where each row still has the version read or remembered, in one statement, so each row
    /// once and no lock taken before; returns the index and new version of each row written. A
    /// row another writer changed since is left as that writer made it. The rows at `indices` are
    /// all of one kind: with a place, found there, or without, found through the key's index.
    private func writeIfUnchanged(
        _ indices: [Int], of tracks: [StoredTrack?], in rows: BatchRows, now: Date, on db: PGConnection
    ) throws -> [(index: Int, version: Int64)] {
        guard let first = indices.first else { return [] }
        let devices = indices.map { rows.devices[$0] }
        let states = indices.map { ByteBuffer(bytes: tracks[$0]!.state) }
        let open = indices.map { tracks[$0]!.open }
        let versions = indices.map { rows.versions[$0]!.version }
        // Without places, the places' array is empty: unnest pads it with nulls, never read.
        let places = indices.compactMap { rows.versions[$0]!.place }
        let atPlace = rows.versions[first]!.place != nil
        let written = try db.query(
            """
            UPDATE \(unescaped: tracksTable) t
            SET state = u.s, updated = \(now), open = u.o, version = nextval('\(unescaped: versionsSequence)')
            FROM unnest(array_fill(\(rows.tenant)::text, ARRAY[\(Int32(indices.count))]), \(devices)::text[], array_fill(\(rows.layer)::text, ARRAY[\(Int32(indices.count))]), \(states)::bytea[], \(open)::boolean[], \(versions)::bigint[], \(places)::text[]) WITH ORDINALITY AS u(t, d, l, s, o, v, c, n)
            WHERE \(unescaped: atPlace ? "t.ctid = u.c::tid AND " : "")t.tenant = u.t AND t.device = u.d AND t.layer = u.l AND t.version = u.v
            RETURNING u.n, t.version
            """)
        return try written.map { row in
            let (n, version) = try row.decode((Int64, Int64).self)
            return (indices[Int(n) - 1], version)
        }
    }
}
