import Crypto
import Foundation
import GeoqAccess
import GeoqLayers
import GeoqPush
import GeoqServer
import GeoqStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The push endpoints over a tracking store of their own: the public key open to anyone, the
/// subscriptions only to a key with the `track` scope of their tenant or a device token of
/// their device, each call also tried as a stranger, a key without the scope, another tenant
/// and another device's token.
@Suite struct PushRoutesTests {
    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func subscription(endpoint: String = "https://push.example.net/send/abc", device: String? = "car-1")
        -> ByteBuffer
    {
        let p256dh = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        let auth = Base64URL.encode(Data((0..<16).map { UInt8($0) }))
        let deviceField = device.map { #","device":"\#($0)""# } ?? ""
        return ByteBuffer(
            string:
                #"{"subscription":{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}\#(deviceField),"topics":["news"]}"#
        )
    }

    @Test func thePublicKeyIsOpenAndSubscriptionsArePrivate() async throws {
        let key = VAPIDKey()
        let fixture = TrackingFixture(pushKey: key)
        let store = fixture.store
        let acme = try fixture.key("acme", [.track])
        let other = try fixture.key("other", [.track])
        let readOnly = try fixture.key("acme", [.read, .events])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        let json = TrackingFixture.json
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/push/key", method: .get) { response in
                #expect(response.status == .ok)
                let object = try Self.object(response)
                #expect(object["publicKey"] as? String == key.publicKey)
            }
            // A stranger and a key without the scope make nothing.
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(nil, json),
                body: Self.subscription()
            ) { #expect($0.status == .unauthorized) }
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(readOnly, json),
                body: Self.subscription()
            ) { #expect($0.status == .forbidden) }
            #expect(try store.pushTables().pushSubscriptions(tenant: "acme").isEmpty)

            var id = 0
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(acme, json),
                body: Self.subscription()
            ) { response in
                #expect(response.status == .created)
                let object = try Self.object(response)
                id = object["id"] as? Int ?? 0
                #expect(object["device"] as? String == "car-1")
                #expect(object["topics"] as? [String] == ["news"])
            }
            #expect(try store.pushTables().pushSubscriptions(tenant: "acme").map(\.id) == [Int64(id)])
            // A key must name the device; bad fields are named.
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(acme, json),
                body: Self.subscription(device: nil)
            ) { #expect($0.status == .badRequest) }
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(acme, json),
                body: Self.subscription(endpoint: "ftp://push.example.net/x")
            ) { response in
                #expect(response.status == .badRequest)
                let object = try Self.object(response)
                #expect((object["detail"] as? String)?.hasPrefix("subscription.endpoint") == true)
            }
            // Another tenant sees none of them and cannot end one.
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .get, headers: TrackingFixture.bearer(other)
            ) {
                response in
                let object = try Self.object(response)
                #expect((object["subscriptions"] as? [Any])?.isEmpty == true)
            }
            try await client.execute(
                uri: "/v1/push/subscriptions/\(id)", method: .delete, headers: TrackingFixture.bearer(other)
            ) { #expect($0.status == .notFound) }
            try await client.execute(
                uri: "/v1/push/subscriptions/\(id)", method: .delete, headers: TrackingFixture.bearer(nil)
            ) {
                #expect($0.status == .unauthorized)
            }

            // A device token of car-2: its own device only.
            var token = ""
            try await client.execute(
                uri: "/v1/devices/car-2/token", method: .post, headers: TrackingFixture.bearer(acme, json),
                body: ByteBuffer(string: #"{"ttl":600}"#)
            ) { response in
                #expect(response.status == .created)
                token = try Self.object(response)["token"] as? String ?? ""
            }
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(token, json),
                body: Self.subscription(endpoint: "https://push.example.net/send/car1", device: "car-1")
            ) { #expect($0.status == .forbidden) }
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(token, json),
                body: Self.subscription(endpoint: "https://push.example.net/send/car2", device: nil)
            ) { response in
                #expect(response.status == .created)
                let object = try Self.object(response)
                #expect(object["device"] as? String == "car-2")
            }
            // It lists only its device's, and cannot end car-1's.
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .get, headers: TrackingFixture.bearer(token)
            ) {
                response in
                let listed = try Self.object(response)["subscriptions"] as? [[String: Any]]
                #expect(listed?.map { $0["device"] as? String } == ["car-2"])
            }
            try await client.execute(
                uri: "/v1/push/subscriptions/\(id)", method: .delete, headers: TrackingFixture.bearer(token)
            ) { #expect($0.status == .notFound) }
            // The owner ends it: no longer listed.
            try await client.execute(
                uri: "/v1/push/subscriptions/\(id)", method: .delete, headers: TrackingFixture.bearer(acme)
            ) { #expect($0.status == .noContent) }
            #expect(try store.pushTables().pushSubscriptions(tenant: "acme").map(\.device) == ["car-2"])
        }
    }

    @Test func withoutAKeyThePushEndpointsSaySoAndBuyingATicketIsPrivate() async throws {
        let fixture = TrackingFixture()
        let acme = try fixture.key("acme", [.track])
        let readOnly = try fixture.key("acme", [.read])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/push/key", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let object = try Self.object(response)
                #expect((object["detail"] as? String)?.contains("geoq push keys") == true)
            }
            try await client.execute(
                uri: "/v1/push/subscriptions", method: .post,
                headers: TrackingFixture.bearer(acme, TrackingFixture.json), body: Self.subscription()
            ) { #expect($0.status == .serviceUnavailable) }
            let ticket = "/v1/park?lat=42.81&lon=-1.64&zone=blue&minutes=30&device=car-1"
            try await client.execute(uri: ticket, method: .post, headers: TrackingFixture.bearer(nil)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: ticket, method: .post, headers: TrackingFixture.bearer(readOnly)) {
                #expect($0.status == .forbidden)
            }
        }
    }

    /// A tenant keeps at most as many live subscriptions as it may have devices, and a device
    /// at most 10; a browser subscribing again at its endpoint replaces its own.
    @Test func subscriptionsHaveTheirLimits() async throws {
        let fixture = TrackingFixture(limits: TrackingLimits(maxDevicesPerTenant: 2), pushKey: VAPIDKey())
        let acme = try fixture.key("acme", [.track])
        let other = try fixture.key("other", [.track])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        let json = TrackingFixture.json
        try await app.test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for (key, endpoint, device) in [
                (acme, "a", "car-1"), (acme, "b", "car-2"),
                // The tenant's third: refused; the same endpoint again: replaced; another tenant: its own count.
                (acme, "c", "car-3"), (acme, "a", "car-1"), (other, "c", "car-3"),
            ] {
                statuses.append(
                    try await client.execute(
                        uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(key, json),
                        body: Self.subscription(endpoint: "https://push.example.net/\(endpoint)", device: device)
                    ) { $0.status })
            }
            #expect(statuses == [.created, .created, .unprocessableContent, .created, .created])
            let count = try fixture.store.pushTables().pushSubscriptionCount(tenant: "acme")
            #expect(count == 2)
        }
        let many = TrackingFixture(pushKey: VAPIDKey())
        let key = try many.key("acme", [.track])
        try await Application(router: Routes.router(state: ServiceState(), tracking: many.tracking)).test(.router) {
            client in
            var statuses: [HTTPResponse.Status] = []
            for n in 0...10 {
                statuses.append(
                    try await client.execute(
                        uri: "/v1/push/subscriptions", method: .post, headers: TrackingFixture.bearer(key, json),
                        body: Self.subscription(endpoint: "https://push.example.net/\(n)", device: "car-1")
                    ) { $0.status })
            }
            #expect(statuses.dropLast().allSatisfy { $0 == .created } && statuses.last == .unprocessableContent)
        }
    }

    /// A ticket bought queues its reminder for its own tenant's device only: another tenant
    /// with a device of the same name schedules nothing for it.
    @Test func aTicketRemindsItsOwnTenantsDeviceOnly() async throws {
        let fixture = TrackingFixture(pushKey: VAPIDKey())
        let acme = try fixture.key("acme", [.track])
        let other = try fixture.key("other", [.track])
        let app = Application(router: Routes.router(state: OpenAPITests.state, tracking: fixture.tracking))
        let ticket = "/v1/park?lat=42.81&lon=-1.64&zone=blue&minutes=30&reminder=10&at=2027-03-15T10:00&device=car-1"
        try await app.test(.router) { client in
            let subscribed = try await client.execute(
                uri: "/v1/push/subscriptions", method: .post,
                headers: TrackingFixture.bearer(acme, TrackingFixture.json), body: Self.subscription()
            ) { $0.status }
            #expect(subscribed == .created)
            let stranger = try await client.execute(uri: ticket, method: .post, headers: TrackingFixture.bearer(nil)) {
                $0.status
            }
            #expect(stranger == .unauthorized)
            let others = try await client.execute(uri: ticket, method: .post, headers: TrackingFixture.bearer(other)) {
                response in
                (response.status, try Self.object(response)["push"] as? [String: Any])
            }
            #expect(others.0 == .created)
            #expect(others.1?["subscriptions"] as? Int == 0 && others.1?["messages"] as? Int == 0)
            #expect(try fixture.store.pushTables().pushStats().pending == 0)
            let own = try await client.execute(uri: ticket, method: .post, headers: TrackingFixture.bearer(acme)) {
                response in
                (response.status, try Self.object(response)["push"] as? [String: Any])
            }
            #expect(own.0 == .created)
            #expect(own.1?["subscriptions"] as? Int == 1 && own.1?["messages"] as? Int == 1)
            #expect(try fixture.store.pushTables().pushStats().pending == 1)
        }
    }
}
