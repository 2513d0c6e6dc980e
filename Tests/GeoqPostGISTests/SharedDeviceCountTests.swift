import Foundation
import GeoqLayers
import GeoqPostGIS
import GeoqStore
import GeoqTestSupport
import Testing

/// A tenant's devices on PostgreSQL are counted as they come and go, not by counting its tracks
/// at each batch: a device counts once whichever layers and replicas it is written on, a batch
/// that would pass the cap is refused whole, an erasure and the retention give places back, and
/// a store written before the count was kept gets it from its tracks. Each count is checked
/// against the distinct devices of the store's own tracks.
@Suite(.enabled(if: TestPostgres.available, "needs the test cluster (GEOQ_TEST_POSTGRES)"))
struct SharedDeviceCountTests {
    let database = TestPostgres.address(schema: "device_counts")

    func replica() throws -> TrackingStore {
        TrackingStore(address: try StoreAddress(parsing: try #require(database), sharedBackend: PostGISBackend.self))
    }

    /// One fix's worth for each of `devices` on `layer`: a track each, no event.
    func send(_ devices: [String], layer: String = "sectors", on store: TrackingStore, cap: Int? = nil) throws {
        try store.advanceLocked(tenant: "acme", layer: layer, devices: devices, maxDevices: cap) { _ in
            (devices.map { _ in StoredTrack(state: Array("t".utf8), open: false) }, [])
        }
    }

    /// The devices of the tenant's tracks, counted apart from the kept count.
    func distinctDevices(_ store: TrackingStore) throws -> Int {
        Set(try store.tracks(tenant: "acme").map(\.device)).count
    }

    @Test func aDeviceCountsOnceOnEveryLayerAndReplica() throws {
        let (a, b) = (try replica(), try replica())
        try send(["car-1", "car-2"], on: a)
        try send(["car-1"], layer: "zones", on: b)
        try send(["car-2", "car-3"], on: b)
        #expect(try a.deviceCount(tenant: "acme") == 3)
        #expect(try distinctDevices(a) == 3)
        #expect(try a.deviceCount(tenant: "another") == 0)
    }

    @Test func aBatchPastTheCapIsRefusedWholeAndAnErasureGivesAPlaceBack() throws {
        let store = try replica()
        try send(["car-1", "car-2"], on: store, cap: 3)
        #expect(throws: TrackingLimitError.self) { try send(["car-3", "car-4"], on: store, cap: 3) }
        #expect(try store.tracks(tenant: "acme").map(\.device).sorted() == ["car-1", "car-2"])
        #expect(try store.deviceCount(tenant: "acme") == 2)
        // Known devices on another layer bring none.
        try send(["car-1", "car-2"], layer: "zones", on: store, cap: 2)
        _ = try store.erase(tenant: "acme", device: "car-1")
        #expect(try store.deviceCount(tenant: "acme") == 1)
        try send(["car-3", "car-4"], on: store, cap: 3)
        #expect(try store.deviceCount(tenant: "acme") == 3)
        #expect(try distinctDevices(store) == 3)
    }

    @Test func theRetentionGivesThePlacesOfThePurgedDevicesBack() throws {
        let store = try replica()
        try send(["car-1", "car-2", "car-3"], on: store)
        let purged = try store.purge(eventsBefore: nil, tracksBefore: Date().addingTimeInterval(60))
        #expect(purged.tracks == 3)
        #expect(try store.deviceCount(tenant: "acme") == 0)
        try send(["car-4"], on: store, cap: 1)
        #expect(try store.deviceCount(tenant: "acme") == 1)
    }

    @Test func aStoreWrittenBeforeTheCountWasKeptGetsItFromItsTracks() throws {
        let address = try #require(database)
        try send(["car-1", "car-2"], on: try replica())
        try send(["car-2"], layer: "zones", on: try replica())
        // As an older geoq left it: no devices, no counts.
        let server = try #require(TestPostgres.address)
        let schema = try #require(address.split(separator: "schema=").last.map(String.init))
        #expect(try TestPostgres.psql(server, "DROP TABLE \(schema).geoq_devices, \(schema).geoq_device_counts") != nil)
        let upgraded = try replica()
        #expect(try upgraded.deviceCount(tenant: "acme") == 2)
        #expect(try distinctDevices(upgraded) == 2)
        try send(["car-3"], on: upgraded)
        #expect(try upgraded.deviceCount(tenant: "acme") == 3)
    }
}
