import Foundation
import GeoqLayers
import GeoqPostGIS
import GeoqStore
import GeoqTestSupport
import Testing

/// Two replicas on one PostgreSQL store writing the same device: each batch is applied on the
/// track as the other left it, whether the other wrote before the batch, while it was being
/// advanced, or while a sweep was ending the stay; and an erased device starts afresh even where
/// a replica remembers what it wrote. Each "replica" is a store of its own on the same schema.
@Suite(.enabled(if: TestPostgres.available, "needs the test cluster (GEOQ_TEST_POSTGRES)"))
struct SharedTracksTests {
    let database = TestPostgres.address(schema: "shared_tracks")

    /// A replica that has made (or found) the tables already: making them takes the tables'
    /// lock, which a batch left open inside another replica's transaction would hold.
    func replica() throws -> TrackingStore {
        let store = TrackingStore(
            address: try StoreAddress(parsing: try #require(database), sharedBackend: PostGISBackend.self))
        _ = try store.lastEventSequence()
        return store
    }

    /// Appends `letter` to the device's track (its state is the letters of the batches applied
    /// to it, in order), with one event naming the letter.
    @discardableResult
    func append(
        _ letter: String, on store: TrackingStore, open: Bool = true, seen: ((String?) -> Void)? = nil
    ) throws -> [Int64] {
        try store.advanceLocked(tenant: "acme", layer: "sectors", devices: ["car-1"]) { tracks in
            let before = tracks[0].map { String(decoding: $0.state, as: UTF8.self) }
            seen?(before)
            let track = StoredTrack(state: Array(((before ?? "") + letter).utf8), open: open)
            let event = StoredEvent(
                tenant: "acme", device: "car-1", layer: "sectors", kind: "enter",
                body: Data(#"{"by":"\#(letter)"}"#.utf8))
            return ([track], [event])
        }
    }

    func state(_ store: TrackingStore) throws -> String? {
        try store.tracks(tenant: "acme", device: "car-1").first.map { String(decoding: $0.state, as: UTF8.self) }
    }

    func eventLetters(_ store: TrackingStore) throws -> [String] {
        try store.events(tenant: "acme", since: 0, limit: 100).map {
            String(decoding: $0.event.body, as: UTF8.self).replacingOccurrences(of: #"{"by":""#, with: "")
                .replacingOccurrences(of: #""}"#, with: "")
        }
    }

    @Test func aReplicaGoesOnFromTheOtherReplicasWrite() throws {
        let (a, b) = (try replica(), try replica())
        try append("a", on: a)
        try append("b", on: b)
        var seen: String?
        try append("c", on: a) { seen = $0 }
        #expect(seen == "ab")
        #expect(try state(a) == "abc")
    }

    /// The other replica writes between this batch's read and its write: the batch is rolled
    /// back (its event with it) and applied again, under row locks, on the other's track.
    @Test func aWriteWhileABatchIsAdvancedSendsTheBatchAgainUnderLocks() throws {
        let (a, b) = (try replica(), try replica())
        try append("a", on: a)
        var calls: [String?] = []
        try append("c", on: a) { before in
            calls.append(before)
            if calls.count == 1 { _ = try? append("b", on: b) }
        }
        #expect(calls == ["a", "ab"])
        #expect(try state(a) == "abc")
        #expect(try eventLetters(a) == ["a", "b", "c"])
    }

    /// A sweep ends only stays no one wrote since it read them: the other replica's write keeps
    /// the stay open and no exit is stored.
    @Test func aStayWrittenWhileASweepEndsItStaysOpen() throws {
        let (a, b) = (try replica(), try replica())
        try append("a", on: a)
        var swept = 0
        try a.sweepLocked { rows in
            swept = rows.count
            _ = try? append("b", on: b)
            let ended = rows.map {
                TrackRow(tenant: $0.tenant, device: $0.device, layer: $0.layer, state: Array("ended".utf8), open: false)
            }
            let exits = rows.map {
                StoredEvent(
                    tenant: $0.tenant, device: $0.device, layer: $0.layer, kind: "exit",
                    body: Data(#"{"by":"sweep"}"#.utf8))
            }
            return (ended, exits)
        }
        #expect(swept == 1)
        #expect(try state(a) == "ab")
        #expect(try a.tracks(tenant: "acme").map(\.open) == [true])
        #expect(try eventLetters(a) == ["a", "b"])
        // With no write in between, the next sweep ends it.
        try a.sweepLocked { rows in
            (
                rows.map {
                    TrackRow(tenant: $0.tenant, device: $0.device, layer: $0.layer, state: Array("ended".utf8))
                },
                []
            )
        }
        #expect(try state(a) == "ended")
    }

    /// An erased device's next fix starts a new track, on the replica that erased it and on one
    /// that only remembers what it wrote before.
    @Test func anErasedDeviceStartsAfreshOnEveryReplica() throws {
        let (a, b) = (try replica(), try replica())
        try append("a", on: a)
        try append("b", on: b)
        #expect(try a.erase(tenant: "acme", device: "car-1").tracks == 1)
        var seen: String? = "not called"
        try append("c", on: b) { seen = $0 }
        #expect(seen == nil)
        try append("d", on: a) { seen = $0 }
        #expect(seen == "c")
        #expect(try state(b) == "cd")
    }

    /// Appends `letter` to the tracks of `devices` in one batch; returns what the batch was given,
    /// in the order of `devices`.
    @discardableResult
    func append(_ letter: String, to devices: [String], layer: String = "sectors", on store: TrackingStore) throws
        -> [String?]
    {
        var seen: [String?] = []
        try store.advanceLocked(tenant: "acme", layer: layer, devices: devices) { tracks in
            seen = tracks.map { $0.map { String(decoding: $0.state, as: UTF8.self) } }
            return (seen.map { StoredTrack(state: Array((($0 ?? "") + letter).utf8), open: true) }, [])
        }
        return seen
    }

    func states(_ store: TrackingStore, layer: String = "sectors") throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try store.tracks(tenant: "acme", layer: layer).map {
                ($0.device, String(decoding: $0.state, as: UTF8.self))
            })
    }

    /// A batch's devices come in any order and each kind at once: one this replica remembers, one
    /// it reads (another replica made it), one new, and the same device on another layer; each
    /// gets its own track, and a remembered track another replica wrote since sends the batch
    /// again under locks, still in its devices' order.
    @Test func eachDeviceOfABatchGetsItsOwnTrack() throws {
        let (a, b) = (try replica(), try replica())
        try append("1", to: ["car-1", "car-2"], on: a)
        #expect(try append("x", to: ["car-3", "car-2"], on: b) == [nil, "1"])
        #expect(try append("a", to: ["car-3", "car-4", "car-1"], on: a) == ["x", nil, "1"])
        #expect(try append("z", to: ["car-1"], layer: "zones", on: a) == [nil])
        // Replica a remembers car-2 as "1", which b has written since.
        #expect(try append("b", to: ["car-2", "car-1"], on: a) == ["1x", "1a"])
        #expect(try states(b) == ["car-1": "1ab", "car-2": "1xb", "car-3": "xa", "car-4": "a"])
        #expect(try states(b, layer: "zones") == ["car-1": "z"])
        // A sweep ends the stays of both layers, each with its own state.
        try b.sweepLocked { rows in
            (
                rows.map {
                    TrackRow(
                        tenant: $0.tenant, device: $0.device, layer: $0.layer,
                        state: Array("\($0.layer):\(String(decoding: $0.state, as: UTF8.self))".utf8))
                }, []
            )
        }
        #expect(try states(a)["car-2"] == "sectors:1xb")
        #expect(try states(a, layer: "zones") == ["car-1": "zones:z"])
        // Replica a remembered what it wrote before the sweep: it reads each track back.
        #expect(try append("c", to: ["car-4", "car-2"], on: a) == ["sectors:a", "sectors:1xb"])
    }
}
