import Foundation
import GeoqStore

/// The tracking tables of a shared store: the operations every backend offers
/// (``TrackingTableAccess`` and ``PushTableAccess``, as a GeoPackage's `TrackingTables` does), and what only a store that
/// several processes write at once needs.
///
/// A batch of fixes and the sweep of silent stays are applied with the tracks they change safe
/// from every other writer, and the outbox's deliveries are claimed for a lease, so that one
/// replica sends each. Sendable: many tasks call at once, each on a connection of its own.
/// Failures of the database are ``SharedStoreError``s.
public protocol SharedTrackingTables: TrackingTableAccess, PushTableAccess, Sendable {
    /// Applies a batch to the tracks of `devices` (distinct) of `tenant` on `layer`: `advance`
    /// gets their current tracks in the order of `devices` (nil: none yet) and returns, in the same
    /// order, the tracks to write (nil: leave it) and the events, all committed in one transaction
    /// with no other writer's change to those tracks in between. `advance` may run more than once:
    /// it must depend on its argument only. With `maxDevices`, a batch that would give the tenant
    /// more devices than that is refused (`TrackingLimitError`) and nothing is written. Returns
    /// the sequences of the events written.
    func advanceLocked(
        tenant: String, layer: String, devices: [String], now: Date, maxDevices: Int?,
        _ advance: ([StoredTrack?]) throws -> (tracks: [StoredTrack?], events: [StoredEvent])
    ) throws -> [Int64]

    /// Ends stays: `end` gets every open stay and returns the tracks and events to write; a stay
    /// is written only where no one wrote it since it was read, so two replicas sweeping at once
    /// end each stay once.
    func sweepLocked(
        now: Date, _ end: ([TrackRow]) throws -> (tracks: [TrackRow], events: [StoredEvent])
    ) throws -> [Int64]

    /// `hook`'s deliveries due at `now`, taken for `lease`: no other replica gets them meanwhile.
    func claim(hook: Int64, now: Date, lease: Duration, limit: Int) throws -> [OutboxEntry]
}
