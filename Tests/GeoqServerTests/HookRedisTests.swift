import Foundation
import GeoqHooks
import GeoqLayers
import GeoqServer
import GeoqStore
import GeoqTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Hooks whose URL names a Redis stream: the outbox's events appended with `XADD`, read back by
/// Debian's `redis-cli`; retried while Redis is down or refuses; only where the operator allows
/// Redis, and only what the forms allow.
@Suite struct HookRedisTests {
    static let allowed = DestinationRules(
        allowHTTP: true, allowRedis: true, allowed: [AddressRange("127.0.0.0/8")!])
    static let options = DeliveryOptions(
        destinations: allowed, timeout: .seconds(5), backoffBase: .milliseconds(20), backoffCap: .milliseconds(100),
        maxAttempts: 1000, sweepInterval: .milliseconds(200))

    let tests = HookDeliveryTests()

    func redis() throws -> TestRedis? {
        guard TestRedis.available else {
            #expect(!TestPostgres.requiredInCI, "\(TestRedis.missing)")
            return nil
        }
        return try TestRedis()
    }

    @Test func eachEventIsAppendedToTheStreamWithItsKeyAndBody() async throws {
        guard let redis = try redis() else { return }
        defer { redis.stop() }
        let store = tests.temporaryStore()
        let hook = try store.addHook(
            tenant: defaultTenant, url: "redis://127.0.0.1:\(redis.port)?stream=geoq-events&maxlen=1000")
        let delivery = HookDelivery(store: store, options: Self.options)
        try await tests.running(delivery) {
            try store.commit(tracks: [], events: ["enter", "dwell", "parked"].map { tests.event($0) })
            delivery.wake()
            try await tests.eventually { try store.outbox(hook: hook.id).allSatisfy { $0.state == .delivered } }
        }
        #expect(try store.outbox(hook: hook.id).map(\.state) == [.delivered, .delivered, .delivered])
        let entries = try redis.entries("geoq-events")
        #expect(entries.map { $0["id"] } == ["\(hook.id)-1", "\(hook.id)-2", "\(hook.id)-3"])
        #expect(
            entries.map { $0["body"] } == ["enter", "dwell", "parked"].map { #"{"device":"car-1","event":"\#($0)"}"# })
        #expect(entries.allSatisfy { $0.count == 2 }, "only id and body: \(entries)")
    }

    @Test func aStreamDownForAWhileGetsTheEventOnceItIsBack() async throws {
        guard TestRedis.available else { return #expect(!TestPostgres.requiredInCI, "\(TestRedis.missing)") }
        // Nothing listens on this port yet: the tries are refused, the event stays pending.
        let store = tests.temporaryStore()
        let closed = try FreePort.next()
        let hook = try store.addHook(tenant: defaultTenant, url: "redis://127.0.0.1:\(closed)?stream=late")
        let delivery = HookDelivery(store: store, options: Self.options)
        try await tests.running(delivery) {
            try store.commit(tracks: [], events: [tests.event("parked")])
            delivery.wake()
            try await tests.eventually { try (store.outbox(hook: hook.id).first?.attempts ?? 0) >= 5 }
            let down = try #require(try store.outbox(hook: hook.id).first)
            #expect(down.state == .pending)
            #expect(down.lastError?.hasPrefix("cannot connect") == true, "\(down.lastError ?? "")")
            // Redis comes up on that very port: the same event, under the same key, once.
            let redis = try TestRedis(port: closed)
            defer { redis.stop() }
            try await tests.eventually { try store.outbox(hook: hook.id).first?.state == .delivered }
            #expect(try redis.entries("late").map { $0["id"] } == ["\(hook.id)-1"])
        }
    }

    @Test func aKeyOfAnotherTypeIsRetriedWithRedisCodeOnly() async throws {
        guard let redis = try redis() else { return }
        defer { redis.stop() }
        // The stream's name holds a string: Redis answers WRONGTYPE and its text, of which only
        // the code may be kept.
        #expect(try redis.cli(["SET", "taken", "secret-value"]) == ["OK"])
        let store = tests.temporaryStore()
        let hook = try store.addHook(tenant: defaultTenant, url: "redis://127.0.0.1:\(redis.port)?stream=taken")
        let delivery = HookDelivery(store: store, options: Self.options)
        try await tests.running(delivery) {
            try store.commit(tracks: [], events: [tests.event("enter")])
            delivery.wake()
            try await tests.eventually { try (store.outbox(hook: hook.id).first?.attempts ?? 0) >= 2 }
        }
        let row = try #require(try store.outbox(hook: hook.id).first)
        #expect(row.state == .pending)
        #expect(row.lastError == "Redis refused the entry: WRONGTYPE")
        #expect(try redis.cli(["GET", "taken"]) == ["secret-value"])
    }

    @Test func redisIsADestinationOnlyWhereTheOperatorAllowsIt() async throws {
        let url = "redis://127.0.0.1:6379?stream=events"
        let resolver = HostResolver.system
        guard case .refused(let rule) = await DestinationRules(allowHTTP: true).check(url, resolver: resolver) else {
            Issue.record("a redis URL passed rules that do not allow Redis")
            return
        }
        #expect(rule.contains("--hook-allow-redis"))
        // Allowed as a protocol, the address is still checked: loopback is refused.
        guard case .refused(let loopback) = await DestinationRules(allowRedis: true).check(url, resolver: resolver)
        else {
            Issue.record("loopback passed")
            return
        }
        #expect(loopback.contains("127.0.0.1 is a loopback address"))
        guard case .reachable(let target, _) = await Self.allowed.check(url, resolver: resolver) else {
            Issue.record("an allowed Redis was refused")
            return
        }
        #expect(target.port == 6379)
        #expect(target.tls == false)
    }

    @Test(arguments: [
        ("redis://127.0.0.1", "names its stream"),
        ("redis://127.0.0.1/2?stream=s", "default database only"),
        ("redis://127.0.0.1?stream=s&maxlen=0", "maxlen=N (a positive number"),
        ("redis://127.0.0.1?stream=s&db=2", "takes stream=NAME and maxlen"),
        ("redis://127.0.0.1?stream=s&stream=t", "once each"),
        ("redis:///?stream=s", "with a host"),
    ])
    func malformedRedisURLsAreRefusedNamingTheField(url: String, message: String) throws {
        let problem = try #require(HookRequest(url: url).problem(layers: []))
        #expect(problem.field == "url")
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test func wellFormedRedisURLsPass() throws {
        for url in ["redis://127.0.0.1?stream=s", "redis://10.0.0.5:6380/0?stream=fleet%3Aevents&maxlen=100000"] {
            #expect(HookRequest(url: url).problem(layers: []) == nil, "\(url)")
        }
        let address = try #require(try RedisStreamAddress("redis://h:1/?stream=fleet%3Aevents&maxlen=7"))
        #expect(address == RedisStreamAddress(stream: "fleet:events", maxLength: 7))
    }
}

/// `POST /v1/hooks` with a Redis stream: refused (422, naming the option) where the operator has
/// not allowed Redis, made where it has; a stranger makes nothing, another tenant sees none.
@Suite struct HookRedisRouteTests {
    func post(_ client: some TestClientProtocol, _ credential: String?, _ url: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(credential, TrackingFixture.json),
            body: ByteBuffer(string: #"{"url":"\#(url)"}"#))
    }

    @Test func aRedisHookIsMadeOnlyWhereTheOperatorAllowsRedis() async throws {
        let url = "redis://127.0.0.1:6379?stream=fleet"
        let closed = TrackingFixture()
        let acme = try closed.key("acme", [.hooks])
        try await Application(router: Routes.router(state: ServiceState(), tracking: closed.tracking)).test(.router) {
            let refused = try await post($0, acme, url)
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains("--hook-allow-redis"))
        }
        #expect(try closed.store.hooks(tenant: nil).isEmpty)

        let open = TrackingFixture(delivery: DeliveryOptions(destinations: HookRedisTests.allowed))
        let owner = try open.key("acme", [.hooks])
        let other = try open.key("other", [.hooks])
        try await Application(router: Routes.router(state: ServiceState(), tracking: open.tracking)).test(.router) {
            client in
            #expect(try await post(client, nil, url).status == .unauthorized)
            #expect(try await post(client, owner, "redis://127.0.0.1:6379").status == .badRequest)
            let made = try await post(client, owner, url)
            #expect(made.status == .created)
            let listed = try await client.execute(
                uri: "/v1/hooks", method: .get, headers: TrackingFixture.bearer(other))
            #expect(String(buffer: listed.body) == #"{"hooks":[]}"#)
            let deleted = try await client.execute(
                uri: "/v1/hooks/1", method: .delete, headers: TrackingFixture.bearer(other))
            #expect(deleted.status == .notFound)
        }
        #expect(try open.store.hooks(tenant: "acme").map(\.url) == [url])
    }
}
