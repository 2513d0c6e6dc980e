import Foundation
import GeoqLayers
import GeoqServer
import GeoqStore
import Hummingbird
import HummingbirdTesting
import Testing

/// The hooks and events endpoints over a tracking store of their own.
@Suite struct HookRoutesTests {
    @Test func hooksAreAddedListedAndDeletedAndEventsPulledInOrder() async throws {
        let store = TrackingStore(
            storeFile: FileManager.default.temporaryDirectory.appendingPathComponent("geoq-routes-\(UUID()).gpkg"))
        let app = Application(router: Routes.router(state: ServiceState(), tracking: store))
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/hooks", method: .post,
                body: ByteBuffer(string: #"{"url":"http://127.0.0.1:9/h","events":["parked","left"]}"#)
            ) { response in
                #expect(response.status == .created)
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(object["id"] as? Int == 1)
                #expect(object["events"] as? [String] == ["parked", "left"])
            }
            for bad in [#"{"url":"ftp://x/h"}"#, #"{"url":"http://x/h","events":["arrive"]}"#, "nope"] {
                try await client.execute(uri: "/v1/hooks", method: .post, body: ByteBuffer(string: bad)) { response in
                    #expect(response.status == .badRequest)
                }
            }
            try await client.execute(uri: "/v1/hooks", method: .get) { response in
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect((object["hooks"] as? [[String: Any]])?.map { $0["url"] as? String } == ["http://127.0.0.1:9/h"])
            }
            try store.commit(
                tracks: [],
                events: ["enter", "parked", "left"].map {
                    StoredEvent(
                        device: "car-1", layer: "pamplona-sectors", kind: $0, body: Data(#"{"event":"\#($0)"}"#.utf8))
                })
            try await client.execute(uri: "/v1/events?since=1&limit=1", method: .get) { response in
                let object = try #require(
                    JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let events = try #require(object["events"] as? [[String: Any]])
                #expect(events.map { $0["sequence"] as? Int } == [2])
                #expect((events.first?["event"] as? [String: Any])?["event"] as? String == "parked")
                #expect(object["next"] as? Int == 2)
            }
            try await client.execute(uri: "/v1/hooks/7", method: .delete) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/hooks/1", method: .delete) { #expect($0.status == .noContent) }
            #expect(try store.hooks().isEmpty)
            #expect(try store.outbox(hook: 1).map(\.state) == [.dead, .dead])
        }
    }
}
