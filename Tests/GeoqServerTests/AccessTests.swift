import Foundation
import GeoqAPI
import GeoqAccess
import GeoqHooks
import GeoqLayers
import GeoqPostGIS
import GeoqStore
import GeoqTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

@testable import GeoqServer

/// Who may ask what, over real sockets on 127.0.0.1 and on both stores: keys, scopes, tenants,
/// device tokens, revocation on a second replica, the requests a browser page could forge, fixes
/// that would lock a device out, caps, rate limits, retention and erasure read back from the
/// store itself (sqlite3, psql).
@Suite(.serialized) struct AccessTests {
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case geoPackage, postgreSQL
        var testDescription: String { rawValue }
        static var available: [Backend] { TestPostgres.available ? allCases : [.geoPackage] }
    }

    /// A fresh store on `backend`, and how to query it with the database's own client.
    struct Store {
        let tracking: TrackingStore
        /// The GeoPackage file, or the PostgreSQL server's address and the schema.
        let file: URL?
        let database: (address: String, schema: String)?

        init(_ backend: Backend) throws {
            switch backend {
            case .geoPackage:
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("geoq-access-\(UUID()).gpkg")
                (tracking, self.file, database) = (TrackingStore(storeFile: file), file, nil)
            case .postgreSQL:
                let address = try #require(TestPostgres.address(schema: "access"))
                let parts = address.components(separatedBy: "schema=")
                tracking = TrackingStore(
                    address: try StoreAddress(parsing: address, sharedBackend: PostGISBackend.self))
                (file, database) = (nil, (String(parts[0].dropLast()), parts[1]))
            }
        }

        /// The rows `sql` selects (`$schema` stands for the tables' schema, none on a GeoPackage).
        func select(_ sql: String) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            if let file {
                // Waits for the service's writes (the purge runs beside the test) instead of failing busy.
                process.arguments = [
                    "sqlite3", "-cmd", ".timeout 5000", file.path, sql.replacingOccurrences(of: "$schema.", with: ""),
                ]
            } else if let database {
                process.arguments = [
                    "psql", database.address, "-Atc", sql.replacingOccurrences(of: "$schema", with: database.schema),
                ]
            }
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(sql)")
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    /// A clock the tests move (the service's bounds of fixes and its retention read it).
    final class TestClock: Sendable {
        let now = Mutex(Date())
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
        var read: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
    }

    /// One answer read off the wire.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
        }
    }

    /// A request over a connection of its own, closed after the answer.
    static func request(
        _ port: Int, _ method: String, _ path: String, key: String? = nil, headers: [String: String] = [:],
        body: String? = nil
    ) async throws -> Answer {
        let connection = try RawConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
        var fields = headers
        if fields["Host"] == nil { fields["Host"] = "127.0.0.1:\(port)" }
        if let key { fields["Authorization"] = "Bearer \(key)" }
        if let body {
            fields["Content-Length"] = String(body.utf8.count)
            if fields["Content-Type"] == nil { fields["Content-Type"] = "application/json" }
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        connection.send(head + "\r\n" + (body ?? ""))
        try await connection.waitForClose(within: 10)
        let text = connection.text
        let split = try #require(text.range(of: "\r\n\r\n"), "no answer to \(method) \(path): \(text)")
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        let status = try #require(Int(lines[0].split(separator: " ")[1]))
        var parsed: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var content = String(text[split.upperBound...])
        if parsed["transfer-encoding"] == "chunked" { content = SlowClientTests.dechunked(content) }
        return Answer(status: status, headers: parsed, body: content)
    }

    /// Runs the service over `store` on a free port for `body`, then stops it.
    static func withService(
        _ store: TrackingStore, access: AccessRules = AccessRules(), limits: TrackingLimits = TrackingLimits(),
        clock: TestClock = TestClock(), purgeInterval: Duration = .seconds(60),
        _ body: @Sendable (Int, Tracking) async throws -> Void
    ) async throws {
        // Each crossing on its first fix: these tests post single fixes, and are about who may
        // post and read them, not about the geofencing rules (GeoqTrackingTests).
        let tracking = Tracking(
            store: store, delivery: HookDelivery(store: store, options: .loopbackReceivers), options: .immediate,
            limits: limits, purgeInterval: purgeInterval, now: clock.read)
        try await LiveService.run({ port in try await body(port, tracking) }) { onListening in
            Routes.application(
                state: ServiceState(FixesRouteTests.data), address: ServerAddress(host: "127.0.0.1", port: 0),
                logger: LiveService.quietLogger, tracking: tracking, access: access, onListening: onListening)
        }
    }

    static func key(
        _ store: TrackingStore, _ tenant: String, _ scopes: [Scope], expires: Date? = nil, rate: Double? = nil
    )
        throws -> (text: String, id: String)
    {
        let made = APIKey.make(tenant: tenant, scopes: scopes, expires: expires, rate: rate)
        try store.addKey(made.record)
        return (made.text, made.record.id)
    }

    /// A fix of `device` at `time` in Pamplona's Sector 2, as JSON.
    static func fix(_ device: String, _ time: Date, lat: Double = 42.81) -> String {
        let text = ISO8601DateFormatter().string(from: time)
        return #"{"device":"\#(device)","time":"\#(text)","lat":\#(lat),"lon":-1.64,"accuracy":5}"#
    }

    /// Polls `condition` for up to `seconds`.
    static func eventually(within seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    @Test(arguments: Backend.available) func keysScopesAndTenants(_ backend: Backend) async throws {
        let store = try Store(backend).tracking
        let acme = try Self.key(store, "acme", [.track, .events, .hooks])
        let reader = try Self.key(store, "acme", [.read])
        let admin = try Self.key(store, "acme", [.admin])
        let expired = try Self.key(store, "acme", [.events], expires: Date(timeIntervalSinceNow: -1))
        let other = try Self.key(store, "other", [.track, .events, .hooks])
        try await Self.withService(store) { port, _ in
            // Open city data: no key needed.
            #expect(try await Self.request(port, "GET", "/v1/sector?lat=42.81&lon=-1.64").status == 200)
            // No key, in the asker's language, with the challenge.
            let none = try await Self.request(port, "GET", "/v1/events", headers: ["Accept-Language": "eu"])
            #expect(none.status == 401 && none.headers["www-authenticate"] == #"Bearer realm="geoq""#)
            #expect(
                none.json["detail"] as? String == "sarbide-puntu honek gako bat behar du: Authorization: Bearer GAKOA")
            #expect(none.headers["content-type"] == "application/problem+json")
            // A made-up key, a forged secret of a real id, an expired key, not a bearer at all:
            // the same 401, which says nothing of which it was.
            let forged = "gqk_\(acme.id)_" + String(repeating: "A", count: 43)
            var details: Set<String> = []
            for credential in ["gqk_0123456789ab_" + String(repeating: "B", count: 43), forged, expired.text] {
                let answer = try await Self.request(port, "GET", "/v1/events", key: credential)
                #expect(answer.status == 401, "\(credential)")
                #expect(answer.headers["www-authenticate"]?.contains(#"error="invalid_token""#) == true)
                details.insert(answer.body)
            }
            #expect(details.count == 1)
            let basic = try await Self.request(port, "GET", "/v1/events", headers: ["Authorization": "Basic YTpi"])
            #expect(basic.status == 401)
            // The scope each endpoint needs.
            let fixes = Self.fix("car-1", Date())
            #expect(try await Self.request(port, "POST", "/v1/fixes", key: reader.text, body: fixes).status == 403)
            #expect(try await Self.request(port, "GET", "/v1/hooks", key: reader.text).status == 403)
            #expect(try await Self.request(port, "GET", "/metrics").status == 401)
            #expect(try await Self.request(port, "GET", "/metrics", key: acme.text).status == 403)
            #expect(try await Self.request(port, "GET", "/metrics", key: admin.text).status == 200)
            #expect(try await Self.request(port, "DELETE", "/v1/devices/car-1", key: acme.text).status == 403)
            // Another spelling of a private path (the router skips empty segments) needs the same.
            for path in ["/metrics/", "//metrics", "/v1/events/", "//v1/events", "/v1/hooks/", "/v1//hooks"] {
                #expect(try await Self.request(port, "GET", path).status == 401, "\(path)")
                #expect(try await Self.request(port, "GET", path, key: reader.text).status == 403, "\(path)")
            }
            for path in ["/v1/hooks/", "//v1/hooks"] {
                let hook = try await Self.request(
                    port, "POST", path, key: reader.text, body: #"{"url":"http://127.0.0.1:9/h"}"#)
                #expect(hook.status == 403, "\(path)")
            }
            #expect(try await Self.request(port, "POST", "/v1/fixes/", key: reader.text, body: fixes).status == 403)
            // Readiness: the store only to an admin.
            let ready = try await Self.request(port, "GET", "/readyz")
            #expect(ready.status == 200 && ready.json["store"] == nil)

            // The same device id in two tenants: two devices, each tenant reading its own events.
            let posted = try await Self.request(port, "POST", "/v1/fixes", key: acme.text, body: fixes)
            #expect(posted.status == 200, "\(posted.body)")
            #expect((posted.json["events"] as? [[String: Any]])?.first?["event"] as? String == "enter")
            let elsewhere = try await Self.request(port, "POST", "/v1/fixes", key: other.text, body: fixes)
            #expect((elsewhere.json["events"] as? [[String: Any]])?.first?["event"] as? String == "enter")
            let mine = try await Self.request(port, "GET", "/v1/events?device=car-1", key: acme.text)
            let theirs = try await Self.request(port, "GET", "/v1/events", key: other.text)
            let mySequences = (mine.json["events"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int }
            let theirSequences = (theirs.json["events"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int }
            #expect(mySequences?.count == 1 && theirSequences?.count == 1 && mySequences != theirSequences)
            #expect(try store.tracks(tenant: nil).map(\.tenant).sorted() == ["acme", "other"])
        }
    }

    @Test(arguments: Backend.available) func browserPagesCannotForgeWrites(_ backend: Backend) async throws {
        let store = try Store(backend).tracking
        let acme = try Self.key(store, "acme", [.hooks])
        let rules = AccessRules(allowedHosts: ["127.0.0.1", "localhost"], corsOrigins: ["https://app.example.org"])
        try await Self.withService(store, access: rules) { port, _ in
            let hook = #"{"url":"http://127.0.0.1:9/h"}"#
            // A form post (text/plain needs no preflight): refused before the body is read.
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let answer = try await Self.request(
                    port, "POST", "/v1/hooks", key: acme.text, headers: ["Content-Type": type], body: hook)
                #expect(answer.status == 415, "\(type)")
            }
            // DNS rebinding: a name that resolves to this machine but is not served.
            let rebound = try await Self.request(
                port, "GET", "/v1/sector?lat=42.81&lon=-1.64", headers: ["Host": "attacker.example:\(port)"])
            #expect(rebound.status == 421 && rebound.json["type"] as? String == "/problems/host-not-allowed")
            // Another site's page: no write; the allowed origin gets CORS headers and its preflight.
            let foreign = try await Self.request(
                port, "POST", "/v1/hooks", key: acme.text, headers: ["Origin": "https://evil.example"], body: hook)
            #expect(foreign.status == 403 && foreign.headers["access-control-allow-origin"] == nil)
            let preflight = try await Self.request(
                port, "OPTIONS", "/v1/hooks",
                headers: ["Origin": "https://app.example.org", "Access-Control-Request-Method": "POST"])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "https://app.example.org")
            #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
            let allowed = try await Self.request(
                port, "POST", "/v1/hooks", key: acme.text, headers: ["Origin": "https://app.example.org"], body: hook)
            #expect(
                allowed.status == 201 && allowed.headers["access-control-allow-origin"] == "https://app.example.org")
            #expect(try store.hooks(tenant: nil).count == 1)
        }
    }

    @Test(arguments: Backend.available) func deviceTokensPostTheirOwnDevicesFixesOnly(_ backend: Backend) async throws {
        let store = try Store(backend).tracking
        let acme = try Self.key(store, "acme", [.track])
        try await Self.withService(store) { port, _ in
            let issued = try await Self.request(
                port, "POST", "/v1/devices/car-1/token", key: acme.text, body: #"{"ttl": 600}"#)
            #expect(issued.status == 201, "\(issued.body)")
            let token = try #require(issued.json["token"] as? String)
            let expiry = try #require(issued.json["expires"] as? String)
            let expires = try #require(ISO8601DateFormatter().date(from: expiry))
            #expect(abs(expires.timeIntervalSinceNow - 600) < 5)
            // Its own device: taken; another device, or one other fix among its own: 403, nothing written.
            let own = try await Self.request(port, "POST", "/v1/fixes", key: token, body: Self.fix("car-1", Date()))
            #expect(own.status == 200 && own.json["accepted"] as? Int == 1)
            let mixed = "[\(Self.fix("car-1", Date() + 1)),\(Self.fix("car-2", Date() + 1))]"
            let refused = try await Self.request(port, "POST", "/v1/fixes", key: token, body: mixed)
            #expect(refused.status == 403 && refused.json["type"] as? String == "/problems/forbidden")
            #expect(try store.tracks(tenant: "acme").map(\.device) == ["car-1"])
            // Nothing else: not events, not another token.
            #expect(try await Self.request(port, "GET", "/v1/events", key: token).status == 403)
            #expect(try await Self.request(port, "POST", "/v1/devices/car-1/token", key: token).status == 403)
            // Within the longest life only; a tampered token is not one.
            let long = try await Self.request(
                port, "POST", "/v1/devices/car-1/token", key: acme.text, body: #"{"ttl": 90000}"#)
            #expect(long.status == 400 && long.json["parameter"] as? String == "ttl")
            let tampered = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
            #expect(
                try await Self.request(port, "POST", "/v1/fixes", key: tampered, body: Self.fix("car-1", Date() + 2))
                    .status == 401)
            // Revoking the key that issued it ends the token too.
            #expect(try store.revokeKey(id: acme.id))
            let stopped = try await Self.eventually(within: 2) {
                try await Self.request(port, "POST", "/v1/fixes", key: token, body: Self.fix("car-1", Date() + 3))
                    .status == 401
            }
            #expect(stopped)
        }
    }

    @Test(arguments: Backend.available) func aRevokedKeyStopsOnASecondReplicaWithinASecond(_ backend: Backend)
        async throws
    {
        let store = try Store(backend).tracking
        try await Self.withService(store) { first, _ in
            // The second replica: another process's view of the same store.
            let replica =
                backend == .geoPackage
                ? TrackingStore(storeFile: store.storeFile!) : TrackingStore(address: store.address)
            try await Self.withService(replica) { second, _ in
                // A key made while both run works on both at once.
                let key = try Self.key(store, "acme", [.events])
                #expect(try await Self.request(first, "GET", "/v1/events", key: key.text).status == 200)
                #expect(try await Self.request(second, "GET", "/v1/events", key: key.text).status == 200)
                #expect(try store.revokeKey(id: key.id))
                let revokedAt = ContinuousClock.now
                let stopped = try await Self.eventually(within: 3) {
                    try await Self.request(second, "GET", "/v1/events", key: key.text).status == 401
                }
                let took = ContinuousClock.now - revokedAt
                #expect(stopped)
                // The ring is read every half second; a second is the promise (slack for a busy machine).
                #expect(took < .milliseconds(1_500), "\(took)")
                // The first replica reads its keys on its own half-second beat.
                #expect(
                    try await Self.eventually(within: 1.5) {
                        try await Self.request(first, "GET", "/v1/events", key: key.text).status == 401
                    })
            }
        }
    }

    @Test(arguments: Backend.available) func fixesThatWouldLockADeviceOutAreRefusedAndNamed(_ backend: Backend)
        async throws
    {
        let store = try Store(backend).tracking
        let acme = try Self.key(store, "acme", [.track])
        let clock = TestClock()
        try await Self.withService(store, clock: clock) { port, _ in
            let now = clock.read()
            let batch = [
                Self.fix("car-1", Date(timeIntervalSince1970: 253_402_214_400)),  // 9999-12-31
                Self.fix("car-1", now + 301),  // past the 5 minutes a phone's clock may be ahead
                Self.fix("car-1", now - 31 * 86_400),  // older than the retention
                Self.fix("car-1", now),
                #"{"device":"\#(String(repeating: "x", count: 129))","time":"2026-12-06T00:00:00Z","lat":42.81,"lon":-1.64}"#,
            ].joined(separator: "\n")
            let answer = try await Self.request(
                port, "POST", "/v1/fixes", key: acme.text, headers: ["Content-Type": "application/x-ndjson"],
                body: batch)
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.json["accepted"] as? Int == 1)
            let errors = try #require(answer.json["errors"] as? [String])
            #expect(errors.count == 4)
            #expect(errors[0].hasPrefix("line 1: time 9999-12-31T00:00:00Z is later than"), "\(errors)")
            #expect(errors[1].hasPrefix("line 2: time") && errors[1].contains("later than"), "\(errors)")
            #expect(errors[2].hasPrefix("line 3: time") && errors[2].contains("older than the retention"), "\(errors)")
            #expect(errors[3] == "line 5: device is longer than 128 bytes", "\(errors)")
            // The device goes on: a fix a minute later is taken.
            let next = try await Self.request(
                port, "POST", "/v1/fixes", key: acme.text, body: Self.fix("car-1", now + 60))
            #expect(next.json["accepted"] as? Int == 1 && next.json["ignored"] as? Int == 0)
        }
    }

    @Test(arguments: Backend.available) func capsAndRateLimits(_ backend: Backend) async throws {
        let store = try Store(backend).tracking
        let acme = try Self.key(store, "acme", [.track])
        let other = try Self.key(store, "other", [.track])
        let slow = try Self.key(store, "slow", [.track], rate: 1)
        let rules = AccessRules(anonymousRate: RateLimiter.Policy(rate: 1, burst: 3), limitLoopback: true)
        let limits = TrackingLimits(maxFixesPerRequest: 3, maxDevicesPerTenant: 2)
        try await Self.withService(store, access: rules, limits: limits) { port, _ in
            let now = Date()
            let two = "[\(Self.fix("car-1", now)),\(Self.fix("car-2", now))]"
            #expect(try await Self.request(port, "POST", "/v1/fixes", key: acme.text, body: two).status == 200)
            // A third device: the whole batch refused, nothing written; the other tenant has its own cap.
            let third = "[\(Self.fix("car-1", now + 1)),\(Self.fix("car-3", now + 1))]"
            let refused = try await Self.request(port, "POST", "/v1/fixes", key: acme.text, body: third)
            #expect(refused.status == 422 && refused.json["parameter"] as? String == "device", "\(refused.body)")
            #expect(try store.deviceCount(tenant: "acme") == 2)
            #expect(try await Self.request(port, "POST", "/v1/fixes", key: other.text, body: third).status == 200)
            let four = "[" + (0..<4).map { Self.fix("car-1", now + Double(2 + $0)) }.joined(separator: ",") + "]"
            let many = try await Self.request(port, "POST", "/v1/fixes", key: acme.text, body: four)
            #expect(many.status == 422 && many.json["parameter"] as? String == "body")

            // A key of 1 request a second (burst 2): the third at once is a 429 saying when to come back.
            var statuses: [Int] = []
            var last: Answer?
            for _ in 0..<3 {
                last = try await Self.request(port, "GET", "/v1/sector?lat=42.81&lon=-1.64", key: slow.text)
                statuses.append(last!.status)
            }
            #expect(statuses == [200, 200, 429])
            #expect(last?.headers["retry-after"] == "1")
            // The bucket as the draft's quota: its burst, refilled in burst / rate seconds.
            #expect(last?.headers["ratelimit-policy"] == #""key";q=2;w=2"#)
            #expect(last?.headers["ratelimit"]?.hasPrefix(#""key";r=0;t="#) == true)
            #expect(last?.json["type"] as? String == "/problems/too-many-requests")
            // Without a key, per client address (burst 3), on the event loop's answers too.
            var anonymous: [Int] = []
            for _ in 0..<4 {
                anonymous.append(try await Self.request(port, "GET", "/v1/sector?lat=42.81&lon=-1.64").status)
            }
            #expect(anonymous == [200, 200, 200, 429])
        }
    }

    /// The credential of an Authorization header: the scheme in any case, spaces and tabs around.
    @Test func bearerCredentials() {
        let cases: [(String, String?)] = [
            ("Bearer abc", "abc"), ("  bEaReR \t abc \t", "abc"), ("BEARER gqk_x_y", "gqk_x_y"), ("Bearer ", nil),
            ("Bearer", nil), ("Bearerabc", nil), ("Basic YTpi", nil), ("", nil), ("Bearer\tabc", nil),
        ]
        for (header, credential) in cases { #expect(AccessGate.bearer(header) == credential, "\(header)") }
    }

    /// `--metrics-host`: /metrics without a key for a client on this machine, but not for what a
    /// reverse proxy on this machine forwards from elsewhere.
    @Test func metricsFromLoopbackButNotThroughAProxy() async throws {
        let store = try Store(.geoPackage).tracking
        try await Self.withService(store, access: AccessRules(metricsFromLoopback: true)) { port, _ in
            #expect(try await Self.request(port, "GET", "/metrics").status == 200)
            for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
                let forwarded = try await Self.request(port, "GET", "/metrics", headers: [header: "203.0.113.9"])
                #expect(forwarded.status == 401, "\(header)")
            }
        }
    }

    /// The page's key is every visitor's: its requests count against the client address's
    /// bucket, as requests without a key do, never against one bucket shared by all visitors.
    @Test func thePageKeyIsLimitedPerClientAddress() async throws {
        let store = try Store(.geoPackage).tracking
        let page = try Self.key(store, "web", [.read])
        let rules = AccessRules(
            privateReads: true, anonymousRate: RateLimiter.Policy(rate: 1, burst: 3), limitLoopback: true,
            pageKeyID: page.id)
        try await Self.withService(store, access: rules) { port, _ in
            var statuses: [Int] = []
            for _ in 0..<4 {
                statuses.append(
                    try await Self.request(port, "GET", "/v1/sector?lat=42.81&lon=-1.64", key: page.text).status)
            }
            #expect(statuses == [200, 200, 200, 429])
        }
    }

    /// A 500's detail may name a file or the store: only an admin reads it.
    @Test func failuresAreDetailedToAdminsOnly() throws {
        let endpoints = GetEndpoints(
            state: ServiceState(FixesRouteTests.data), metrics: RequestMetrics(), limits: ServiceLimits())
        let failing: GetEndpoints.Handler = { _ in
            throw Problem.internalError("cannot open /var/lib/geoq/secret-path.gpkg as geoq@db.internal")
        }
        let admin = Principal(tenant: "ops", scopes: [.admin], keyID: "0123456789ab", rate: nil)
        let reader = Principal(tenant: "ops", scopes: [.read], keyID: "0123456789ac", rate: nil)
        for (principal, shows) in [(admin, true), (reader, false), (nil, false)] {
            let request = EndpointRequest(path: "/v1/incidents", query: "", principal: principal)
            let answer = endpoints.answer(request, by: failing)
            #expect(answer.status == .internalServerError)
            #expect(String(buffer: answer.body).contains("secret-path") == shows)
        }
    }

    @Test(arguments: Backend.available) func retentionPurgesContinuously(_ backend: Backend) async throws {
        let place = try Store(backend)
        let store = place.tracking
        let acme = try Self.key(store, "acme", [.track, .events])
        let clock = TestClock()
        try await Self.withService(store, clock: clock, purgeInterval: .milliseconds(100)) { port, _ in
            let now = clock.read()
            let posted = try await Self.request(port, "POST", "/v1/fixes", key: acme.text, body: Self.fix("car-1", now))
            #expect((posted.json["events"] as? [Any])?.count == 1)
            #expect(try place.select("SELECT count(*) FROM $schema.geoq_events") == ["1"])
            // A month and a day later, the purge removes the event and the track.
            clock.advance(31 * 86_400)
            let purged = try await Self.eventually(within: 5) {
                try place.select(
                    "SELECT (SELECT count(*) FROM $schema.geoq_events) + (SELECT count(*) FROM $schema.geoq_tracks)")
                    == ["0"]
            }
            #expect(purged)
        }
    }

    @Test(arguments: Backend.available) func erasureLeavesNothingOfTheDeviceInTheStore(_ backend: Backend) async throws
    {
        let place = try Store(backend)
        let store = place.tracking
        let acme = try Self.key(store, "acme", [.track, .hooks])
        let acmeAdmin = try Self.key(store, "acme", [.admin])
        let acmeEvents = try Self.key(store, "acme", [.events])
        let other = try Self.key(store, "other", [.track, .admin])
        try await Self.withService(store) { port, _ in
            let hook = try await Self.request(
                port, "POST", "/v1/hooks", key: acme.text, body: #"{"url":"http://127.0.0.1:9/h"}"#)
            #expect(hook.status == 201)
            let now = Date()
            for key in [acme, other] {
                let answer = try await Self.request(
                    port, "POST", "/v1/fixes", key: key.text,
                    body: "[\(Self.fix("car-1", now)),\(Self.fix("car-2", now))]")
                #expect(answer.status == 200)
            }
            // A device id in a path is read percent-decoded, as a fix names it; an empty filter is a 400.
            let spaced = try await Self.request(
                port, "POST", "/v1/fixes", key: acme.text, body: Self.fix("car ᚛ 3", now))
            #expect(spaced.status == 200)
            let encoded = try await Self.request(port, "DELETE", "/v1/devices/car%20%E1%9A%9B%203", key: acmeAdmin.text)
            #expect(encoded.status == 200 && encoded.json["tracks"] as? Int == 1, "\(encoded.body)")
            #expect(try await Self.request(port, "GET", "/v1/events?device=", key: acmeEvents.text).status == 400)
            // Another tenant's admin erases its own car-1 only.
            let theirs = try await Self.request(port, "DELETE", "/v1/devices/car-1", key: other.text)
            #expect(theirs.status == 200 && theirs.json["tracks"] as? Int == 1)
            let erased = try await Self.request(port, "DELETE", "/v1/devices/car-1", key: acmeAdmin.text)
            #expect(erased.status == 200, "\(erased.body)")
            #expect(erased.json["tracks"] as? Int == 1 && erased.json["events"] as? Int == 1)
            #expect(erased.json["deliveries"] as? Int == 1)
            let left = try place.select(
                "SELECT tenant || ' ' || device FROM $schema.geoq_tracks UNION ALL "
                    + "SELECT tenant || ' ' || device FROM $schema.geoq_events ORDER BY 1")
            #expect(left == ["acme car-2", "acme car-2", "other car-2", "other car-2"])
            #expect(try place.select("SELECT count(*) FROM $schema.geoq_outbox") == ["1"])
            #expect(
                try place.select(
                    "SELECT count(*) FROM $schema.geoq_events WHERE body::text LIKE '%car-1%'".replacingOccurrences(
                        of: backend == .geoPackage ? "::text" : "", with: "")) == ["0"])
        }
    }

    /// With private reads, the event loop's answers (over a socket) and the router's (through
    /// Hummingbird's test framework) give each caller the same answer: one gate decides for both.
    @Test func privateReadsAreTheSameOnBothEntrances() async throws {
        let store = try Store(.geoPackage).tracking
        let reader = try Self.key(store, "acme", [.read])
        let tracker = try Self.key(store, "acme", [.track])
        let otherReader = try Self.key(store, "other", [.read])
        let rules = AccessRules(privateReads: true)
        let sector = "/v1/sector?lat=42.81&lon=-1.64"
        let items = "/ogc/collections/pamplona-sectors/items?limit=1"
        let tile = "/ogc/collections/pamplona-sectors/tiles/WebMercatorQuad/14/6031/8117"
        let requests: [(String, String?)] = [
            (sector, nil), (sector, reader.text), (sector, tracker.text), (sector, "gqk_nonsense"),
            ("/v1/layers", nil), ("/v1/layers", reader.text), ("/healthz", nil), ("/readyz", nil),
            ("/v1/nearest?lat=42.81&lon=-1.64&layer=nowhere", reader.text), ("/metrics", reader.text),
            // The map page itself holds no data: it is served, and asks for a key.
            ("/", nil), ("/page/map.js", nil),
            // The OGC API face reads the same city data: a reader of any tenant, nobody else.
            ("/ogc", nil), (items, nil), (items, tracker.text), (items, reader.text), (items, otherReader.text),
            // Its tiles too, answered on the event loop (Sector 2's tile at zoom 14).
            (tile, nil), (tile, tracker.text), (tile, otherReader.text),
        ]
        struct Seen: Equatable {
            var status: Int
            var body: String
            var challenge: String?
        }
        let collected = Mutex<[Seen]>([])
        try await Self.withService(store, access: rules) { port, _ in
            for (path, key) in requests {
                let answer = try await Self.request(port, "GET", path, key: key)
                let seen = Seen(status: answer.status, body: answer.body, challenge: answer.headers["www-authenticate"])
                collected.withLock { $0.append(seen) }
            }
        }
        let live = collected.withLock { $0 }
        let tracking = Tracking(store: store, delivery: HookDelivery(store: store, options: .loopbackReceivers))
        let app = Application(
            router: Routes.router(state: ServiceState(FixesRouteTests.data), tracking: tracking, access: rules))
        let routed = try await app.test(.router) { client in
            var seen: [Seen] = []
            for (path, key) in requests {
                var headers = HTTPFields()
                if let key { headers[.authorization] = "Bearer \(key)" }
                try await client.execute(uri: path, method: .get, headers: headers) { response in
                    seen.append(
                        Seen(
                            status: Int(response.status.code), body: String(buffer: response.body),
                            challenge: response.headers[.wwwAuthenticate]))
                }
            }
            return seen
        }
        #expect(
            live.map(\.status) == [
                401, 200, 403, 401, 401, 200, 200, 200, 404, 403, 200, 200, 401, 401, 403, 200, 200, 401, 403, 200,
            ])
        for ((path, key), (a, var b)) in zip(requests, zip(live, routed)) {
            // Links name the authority asked: the socket's address, or the test client's.
            if let port = a.body.firstRange(of: /http:\/\/127\.0\.0\.1:[0-9]+/) {
                b.body = b.body.replacingOccurrences(of: "http://localhost", with: String(a.body[port]))
            }
            // A page of items says when it was written: the two answers may fall in two seconds.
            if let stamp = a.body.firstMatch(of: /"timeStamp":"[^"]*"/) {
                b.body = b.body.replacing(/"timeStamp":"[^"]*"/, with: String(stamp.output))
            }
            #expect(a == b, "\(path) \(key ?? "-")")
        }
    }

    /// The gate remembers a connection's credential between its requests (checking it again was
    /// most of a key check's cost): on one kept-alive connection, a revoked key still stops within
    /// a second, an expired one at its expiry, and another credential is checked as itself.
    @Test func aKeptAliveConnectionIsCheckedAsOftenAsANewOne() async throws {
        let store = try Store(.geoPackage).tracking
        let reader = try Self.key(store, "acme", [.read])
        let tracker = try Self.key(store, "acme", [.track])
        let expiry = Date() + 2
        let shortLived = try Self.key(store, "acme", [.read], expires: expiry)
        let sector = "/v1/sector?lat=42.81&lon=-1.64"
        try await Self.withService(store, access: AccessRules(privateReads: true)) { port, _ in
            let connection = try RawConnection(port: port)
            var read = 0
            func ask(_ key: String?) async throws -> Int {
                var head = "GET \(sector) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                if let key { head += "Authorization: Bearer \(key)\r\n" }
                connection.send(head + "\r\n")
                let answer = try await Self.nextAnswer(on: connection, after: &read)
                return answer.status
            }
            #expect(try await ask(reader.text) == 200)
            #expect(try await ask(reader.text) == 200)
            // Another credential on the same connection is its own: a key without `read`, a
            // stranger's made-up key, then none.
            #expect(try await ask(tracker.text) == 403)
            #expect(try await ask("gqk_0123456789ab_madeup") == 401)
            #expect(try await ask(nil) == 401)
            #expect(try await ask(reader.text) == 200)
            #expect(try await ask(shortLived.text) == 200)

            #expect(try store.revokeKey(id: reader.id))
            let revokedAt = ContinuousClock.now
            let stopped = try await Self.eventually(within: 3) { try await ask(reader.text) == 401 }
            let took = ContinuousClock.now - revokedAt
            #expect(stopped)
            #expect(took < .milliseconds(1_500), "\(took)")

            // The key's expiry holds on the connection where it was checked while valid.
            #expect(try await Self.eventually(within: 4) { try await ask(shortLived.text) == 401 })
            #expect(Date() >= expiry)
            #expect(!connection.closedByServer)
        }
    }

    /// A remembered credential ends at its key's expiry, not at the next read of the keys: here
    /// the keys are never read again.
    @Test func aRememberedCredentialEndsAtItsExpiry() async throws {
        let key = APIKey.make(tenant: "acme", scopes: [.read], expires: Date() + 1)
        let gate = AccessGate(rules: AccessRules(privateReads: true), keys: KeyRing(keys: [key.record]))
        let request = GateRequest(
            method: "GET", path: "/v1/sector", host: "127.0.0.1", authorization: "Bearer \(key.text)",
            hasBody: false, client: "127.0.0.1", clientIsLoopback: true)
        var memo = AccessGate.Memo()
        guard case .pass(let principal, _, _) = gate.decide(request, mayWait: false, memo: &memo) else {
            Issue.record("a valid key was refused")
            return
        }
        #expect(principal?.tenant == "acme")
        #expect(memo.credential != nil)
        try await Task.sleep(for: .milliseconds(1_100))
        guard case .refuse(let problem, _) = gate.decide(request, mayWait: false, memo: &memo) else {
            Issue.record("an expired key was let through by the connection's memo")
            return
        }
        #expect(problem.status == 401)
    }

    /// The rate limit a connection's memo holds is its key's one bucket: requests through the
    /// memo and through a fresh check (another connection) take from the same tokens, and the
    /// headers written as bytes on the event loop say what the router's fields say.
    @Test func aConnectionsHeldBucketIsItsKeysBucket() throws {
        let key = APIKey.make(tenant: "acme", scopes: [.read], rate: 2)
        let gate = AccessGate(rules: AccessRules(privateReads: true), keys: KeyRing(keys: [key.record]))
        let request = GateRequest(
            method: "GET", path: "/v1/sector", host: "127.0.0.1", authorization: "Bearer \(key.text)",
            hasBody: false, client: "127.0.0.1", clientIsLoopback: true)
        var kept = AccessGate.Memo()
        var remaining: [Int] = []
        for connection in 0..<4 {
            var fresh = AccessGate.Memo()
            let decision =
                connection.isMultiple(of: 2)
                ? gate.decide(request, mayWait: false, memo: &kept) : gate.decide(request, mayWait: false, memo: &fresh)
            switch decision {
            case .pass(_, _, let rateLimit?):
                remaining.append(rateLimit.outcome.remaining)
                var bytes = ByteBuffer()
                rateLimit.write(into: &bytes)
                let lines = rateLimit.fields.map { "\r\n\($0.0): \($0.1)" }.joined()
                #expect(String(buffer: bytes) == lines)
            case .refuse(let problem, let headers):
                #expect(problem.status == 429)
                #expect(headers.contains { $0.0 == "Retry-After" })
                remaining.append(-1)
            default: Issue.record("no rate limit with a key")
            }
        }
        // Burst 4 (twice the rate): 3, 2, 1, 0 left whichever connection asked.
        #expect(remaining == [3, 2, 1, 0])
        #expect(kept.credential?.limit != nil)
    }

    @Test func decimalsAreWrittenAsText() {
        for value in [0, 7, 10, 4_000_000, -12, Int.max, Int.min + 1] {
            var bytes = ByteBuffer()
            bytes.writeDecimal(value)
            #expect(String(buffer: bytes) == String(value))
        }
    }

    /// The next whole answer on a kept-alive `connection`, from byte `offset` of what it
    /// received (moved past the answer).
    static func nextAnswer(on connection: RawConnection, after offset: inout Int) async throws -> Answer {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            connection.poll()
            let text = String(decoding: connection.received[offset...], as: UTF8.self)
            if let split = text.range(of: "\r\n\r\n") {
                let lines = text[..<split.lowerBound].split(separator: "\r\n")
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] =
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                let headBytes = text[..<split.upperBound].utf8.count
                if connection.received.count - offset >= headBytes + length {
                    let body = Array(connection.received[(offset + headBytes)..<(offset + headBytes + length)])
                    offset += headBytes + length
                    let status = try #require(Int(lines[0].split(separator: " ")[1]))
                    return Answer(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
                }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw POSIXError(.ETIMEDOUT)
    }
}
