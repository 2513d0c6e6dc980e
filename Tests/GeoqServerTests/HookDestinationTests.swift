import Foundation
import GeoqHooks
import GeoqLayers
import GeoqServer
import GeoqStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// Where a webhook may POST: every special-purpose range refused (on literal addresses, on the
/// lenient numeric forms, and on names that resolve to them), at registration and again at
/// delivery (a name that changes its answer in between, as DNS rebinding makes it), the POST sent
/// to the address checked, no redirect followed, and nothing of a receiver's answer kept.
@Suite struct HookDestinationTests {
    /// Each URL and the range that refuses it, from IANA's special-purpose address registries
    /// (RFC 6890 and its updates), with the default rules (https only, nothing allowed).
    static let refused: [(url: String, range: String)] = [
        ("https://127.0.0.1:5432/", "127.0.0.0/8"),
        ("https://[::1]/", "::1/128"),
        ("https://169.254.169.254/latest/meta-data/", "169.254.0.0/16"),
        ("https://10.0.0.7/", "10.0.0.0/8"),
        ("https://172.16.5.4/", "172.16.0.0/12"),
        ("https://172.31.255.255/", "172.16.0.0/12"),
        ("https://192.168.1.1/", "192.168.0.0/16"),
        ("https://100.64.0.1/", "100.64.0.0/10"),
        ("https://0.0.0.0/", "0.0.0.0/8"),
        ("https://224.0.0.251/", "224.0.0.0/4"),
        ("https://255.255.255.255/", "240.0.0.0/4"),
        ("https://198.18.0.1/", "198.18.0.0/15"),
        ("https://[fd00::1]/", "fc00::/7"),
        ("https://[fe80::1]/", "fe80::/10"),
        ("https://[ff02::1]/", "ff00::/8"),
        ("https://[::]/", "::/128"),
        ("https://[::ffff:127.0.0.1]/", "::ffff:0.0.0.0/96"),
        ("https://[::ffff:8.8.8.8]/", "::ffff:0.0.0.0/96"),
        ("https://[64:ff9b::7f00:1]/", "64:ff9b::/96"),
        ("https://[2002:7f00:1::1]/", "2002::/16"),
        ("https://[2001:0:4136:e378::1]/", "2001::/32"),
        // The lenient numeric forms a resolver reads as addresses (inet_aton's).
        ("https://0x7f000001/", "127.0.0.0/8"),
        ("https://2130706433/", "127.0.0.0/8"),
        ("https://127.1/", "127.0.0.0/8"),
        ("https://017700000001/", "127.0.0.0/8"),
        ("https://0xa9fea9fe/", "169.254.0.0/16"),
        // A name the system resolves (/etc/hosts) to a loopback address.
        ("https://localhost:8080/", "127.0.0.0/8"),
    ]

    @Test func specialAddressesAreRefusedNamingTheirRange() async {
        let rules = DestinationRules()
        for (url, range) in Self.refused {
            guard case .refused(let why) = await rules.check(url, resolver: .system) else {
                Issue.record("\(url) was not refused")
                continue
            }
            #expect(why.contains("(\(range))") && why.contains("--hook-allow \(range)"), "\(url): \(why)")
        }
    }

    @Test func globalAddressesPass() async {
        let rules = DestinationRules()
        for url in [
            "https://8.8.8.8/", "https://1.1.1.1:8443/h?x=1", "https://[2606:4700:4700::1111]/",
            "https://93.184.215.14/",
        ] {
            guard case .reachable(_, let addresses) = await rules.check(url, resolver: .system) else {
                Issue.record("\(url) was refused")
                continue
            }
            #expect(addresses.count == 1, "\(url)")
        }
    }

    @Test func httpAndAllowedRangesAreTheOperatorsChoice() async throws {
        let strict = DestinationRules()
        guard case .refused(let why) = await strict.check("http://8.8.8.8/", resolver: .system) else {
            Issue.record("http was not refused")
            return
        }
        #expect(why.contains("--hook-allow-http"))
        let operatorRules = DestinationRules(allowHTTP: true, allowed: [try #require(AddressRange("10.1.2.0/24"))])
        guard case .reachable = await operatorRules.check("http://10.1.2.3/", resolver: .system) else {
            Issue.record("an allowed range was refused")
            return
        }
        guard case .refused = await operatorRules.check("http://10.1.3.3/", resolver: .system) else {
            Issue.record("an address beside the allowed range was let through")
            return
        }
        guard case .refused = await operatorRules.check("https://user:pw@8.8.8.8/", resolver: .system) else {
            Issue.record("credentials in the URL were let through")
            return
        }
    }

    @Test func addressRangesAreWrittenOneWay() {
        #expect(AddressRange("10.0.0.0/8")?.description == "10.0.0.0/8")
        #expect(AddressRange("fd00:1::/64")?.description == "fd00:1::/64")
        #expect(AddressRange("10.0.0.1")?.description == "10.0.0.1/32")
        #expect(AddressRange("10.0.0.1/8") == nil)  // host bits set
        #expect(AddressRange("::1/129") == nil)
        #expect(AddressRange("0x7f000001/32") == nil)  // lenient forms are names, not ranges
        #expect(AddressRange("172.16.0.0/12")!.contains(IPAddress("172.31.255.255")!))
        #expect(!AddressRange("172.16.0.0/12")!.contains(IPAddress("172.32.0.0")!))
    }

    /// A resolver of the test's own: names it was given, each answering the next of its lists in
    /// turn (the last again once used up); an address literal is itself.
    static func resolver(_ names: [String: [[String]]]) -> HostResolver {
        let asked = Mutex([String: Int]())
        return HostResolver { host in
            if let literal = IPAddress(host) { return [literal] }
            guard let answers = names[host] else { throw HostResolver.Failure(description: "\(host) is unknown") }
            let turn = asked.withLock { asked in
                defer { asked[host, default: 0] += 1 }
                return asked[host, default: 0]
            }
            return answers[min(turn, answers.count - 1)].map { IPAddress($0)! }
        }
    }

    @Test func namesThatResolveToDeniedAddressesAreRefusedAtRegistration() async throws {
        let names = Self.resolver([
            "metadata.test": [["169.254.169.254"]], "db.test": [["8.8.8.8", "10.0.0.5"]],
            "v6.test": [["fd12::1"]],
        ])
        let fixture = TrackingFixture(delivery: DeliveryOptions(), resolver: names)
        let key = try fixture.key("acme", [.hooks])
        let app = Application(router: Routes.router(state: ServiceState(), tracking: fixture.tracking))
        try await app.test(.router) { client in
            for (url, range) in [
                ("https://metadata.test/", "169.254.0.0/16"),
                // One denied address among the answers is enough: the one connected to could be it.
                ("https://db.test/", "10.0.0.0/8"), ("https://v6.test/", "fc00::/7"),
                ("https://127.0.0.1/", "127.0.0.0/8"), ("http://8.8.8.8/", "--hook-allow-http"),
            ] {
                try await client.execute(
                    uri: "/v1/hooks", method: .post, headers: TrackingFixture.bearer(key, TrackingFixture.json),
                    body: ByteBuffer(string: #"{"url":"\#(url)"}"#)
                ) { response in
                    #expect(response.status == .unprocessableContent, "\(url)")
                    let problem = try #require(
                        try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    #expect(problem["type"] as? String == "/problems/hook-destination-refused")
                    #expect((problem["detail"] as? String)?.contains(range) == true, "\(url): \(problem)")
                }
            }
            #expect(try fixture.store.hooks(tenant: nil).isEmpty)
        }
    }

    /// What a receiver on loopback was sent: the Host header and the path of each request.
    final class Receiver: Sendable {
        let seen = Mutex<[(host: String, path: String)]>([])

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("/ok") { request, _ -> Response in
                self.note(request)
                return Response(status: .ok)
            }
            router.post("/moved") { request, _ -> Response in
                self.note(request)
                // To a receiver that is not allowed (the same server, under a loopback address
                // the rules do not allow).
                let port = request.head.authority?.split(separator: ":").last ?? "80"
                return Response(status: .found, headers: [.location: "http://127.0.0.2:\(port)/ok"])
            }
            router.post("/moved-permanently") { request, context -> Response in
                self.note(request)
                return Response(status: .permanentRedirect, headers: [.location: "/ok"])
            }
            router.post("/tells") { request, _ -> Response in
                self.note(request)
                let secret = "postgres: password authentication failed for user internal"
                return Response(
                    status: .internalServerError, body: ResponseBody(byteBuffer: ByteBuffer(string: secret)))
            }
            return router
        }

        private func note(_ request: Request) {
            seen.withLock { $0.append((request.head.authority ?? "", request.uri.path)) }
        }

        func paths() -> [String] { seen.withLock { $0.map(\.path) } }
    }

    func temporaryStore() -> TrackingStore {
        TrackingStore(
            storeFile: FileManager.default.temporaryDirectory
                .appendingPathComponent("geoq-destinations-\(UUID().uuidString)/geoq.gpkg"))
    }

    /// Runs a delivery over `store` with `rules` and `resolver` until `done` holds (20 s at most).
    func deliver(
        _ store: TrackingStore, rules: DestinationRules, resolver: HostResolver = .system, until done: () throws -> Bool
    ) async throws {
        // One try each: a retry's wait is drawn from zero up (full jitter), so a second try could
        // come within the test.
        let options = DeliveryOptions(
            destinations: rules, timeout: .seconds(5), backoffBase: .seconds(30), backoffCap: .seconds(60),
            maxAttempts: 1, sweepInterval: .milliseconds(100))
        let delivery = HookDelivery(store: store, options: options, resolver: resolver)
        let task = Task { await delivery.run() }
        try store.commit(
            tracks: [],
            events: [
                StoredEvent(
                    tenant: defaultTenant, device: "car-1", layer: "pamplona-sectors", kind: "parked",
                    body: Data(#"{"event":"parked"}"#.utf8))
            ])
        delivery.wake()
        for _ in 0..<200 where try !done() { try await Task.sleep(for: .milliseconds(100)) }
        task.cancel()
        await task.value
    }

    @Test func aNameIsResolvedAgainAtDeliveryAndThePostGoesToTheAddressChecked() async throws {
        let receiver = Receiver()
        try await Application(router: receiver.router).test(.live) { client in
            let port = client.port!
            let store = temporaryStore()
            // Registered while the name answered a loopback address the operator allows; by the
            // delivery it answers a private one (DNS rebinding): a dead letter, nothing sent.
            let rebinding = try store.addHook(tenant: defaultTenant, url: "http://rebinding.test:\(port)/ok")
            let steady = try store.addHook(tenant: defaultTenant, url: "http://receiver.test:\(port)/ok")
            let names = Self.resolver([
                "rebinding.test": [["127.0.0.1"], ["10.0.0.1"]], "receiver.test": [["127.0.0.1"]],
            ])
            let rules = DestinationRules(allowHTTP: true, allowed: [AddressRange("127.0.0.1/32")!])
            guard case .reachable = await rules.check("http://rebinding.test:\(port)/ok", resolver: names) else {
                Issue.record("the first answer was refused")
                return
            }
            try await deliver(store, rules: rules, resolver: names) {
                try store.outbox(hook: rebinding.id).first?.state == .dead
                    && store.outbox(hook: steady.id).first?.state == .delivered
            }
            let dead = try #require(try store.outbox(hook: rebinding.id).first)
            #expect(dead.state == .dead)
            #expect(dead.lastError?.contains("10.0.0.1 is a private address (10.0.0.0/8)") == true, "\(dead)")
            // The steady name's POST reached the address checked, under its own name.
            #expect(try store.outbox(hook: steady.id).first?.state == .delivered)
            #expect(receiver.seen.withLock { $0.map(\.host) } == ["receiver.test:\(port)"])
        }
    }

    @Test func redirectsAreNotFollowedAndAnswersNotKept() async throws {
        let receiver = Receiver()
        try await Application(router: receiver.router).test(.live) { client in
            let port = client.port!
            let store = temporaryStore()
            let moved = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(port)/moved")
            let permanent = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(port)/moved-permanently")
            let tells = try store.addHook(tenant: defaultTenant, url: "http://127.0.0.1:\(port)/tells")
            let rules = DestinationRules(allowHTTP: true, allowed: [AddressRange("127.0.0.1/32")!])
            try await deliver(store, rules: rules) {
                try [moved, permanent, tells].allSatisfy { try store.outbox(hook: $0.id).first?.attempts == 1 }
            }
            #expect(try store.outbox(hook: moved.id).first?.lastError == "HTTP status 302 (redirects are not followed)")
            #expect(
                try store.outbox(hook: permanent.id).first?.lastError == "HTTP status 308 (redirects are not followed)")
            #expect(try store.outbox(hook: tells.id).first?.lastError == "HTTP status 500")
            // Each receiver was asked once; the redirects' targets never.
            #expect(receiver.paths().sorted() == ["/moved", "/moved-permanently", "/tells"])
        }
    }
}
