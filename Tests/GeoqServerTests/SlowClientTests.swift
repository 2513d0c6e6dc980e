import Foundation
import GeoqAPI
import Testing

@testable import GeoqServer

/// The service under silent, slow and idle clients, over real sockets on 127.0.0.1 with short
/// timeouts: connections that send nothing or part of a head are closed (the partial ones with
/// a 408), idle keep-alive ones too, the cap makes room for newcomers, and no request in
/// progress is cut.
@Suite(.serialized) struct SlowClientTests {
    static let partialHead = "GET /v1/sector?lat=42.81&lon=-1.64 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n"
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Runs the service on a free port of 127.0.0.1 for `body`, then stops it.
    func withService(
        _ connections: ConnectionLimits, metrics: RequestMetrics = RequestMetrics(),
        service: ServiceLimits = ServiceLimits(), access: AccessRules = AccessRules(),
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        try await LiveService.run(body) { onListening in
            Routes.application(
                state: ServiceState(try RoutesTests.data()), address: ServerAddress(host: "127.0.0.1", port: 0),
                metrics: metrics, limits: service, connections: connections, logger: LiveService.quietLogger,
                access: access, onListening: onListening)
        }
    }

    /// Polls until `condition` holds or `seconds` have passed.
    func eventually(within seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// The status, headers and body of the one answer in `text`.
    func parseAnswer(_ text: String) -> (status: Int, headers: [String: String], body: String)? {
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ")[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers, String(text[split.upperBound...]))
    }

    /// A chunked body (RFC 9112 7.1) put back together.
    static func dechunked(_ body: String) -> String {
        var rest = Substring(body)
        var text = ""
        while let end = rest.range(of: "\r\n"), let size = Int(rest[..<end.lowerBound], radix: 16), size > 0 {
            let start = end.upperBound
            let stop = rest.utf8.index(start, offsetBy: size)
            text += rest[start..<stop]
            rest = rest[stop...].dropFirst(2)
        }
        return text
    }

    @Test func silentAndHalfOpenConnectionsAreClosedAndTheirDescriptorsFreed() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .milliseconds(500), idleTimeout: .milliseconds(800))
        try await withService(limits, metrics: metrics) { port in
            // A first few connections, closed and gone before counting. Only the descriptors
            // of connections to this port are counted (either end, both are in this process):
            // other suites running at the same time open and close descriptors of their own.
            let firstFew = try (0..<8).map { _ in try RawConnection(port: port) }
            try await RawConnection.waitForClose(of: firstFew, within: 0.5 + 10)
            firstFew.forEach { $0.close() }
            try await eventually(within: 2) { ServerSockets.count(port: port) == 0 }
            let descriptorsBefore = ServerSockets.count(port: port, .eitherEnd)
            #expect(descriptorsBefore == 0)
            let closedBefore = metrics.connections.closed(.noRequest)

            var halfOpen: [RawConnection] = []
            var silent: [RawConnection] = []
            for _ in 0..<200 {
                let connection = try RawConnection(port: port)
                connection.send(Self.partialHead)
                halfOpen.append(connection)
                silent.append(try RawConnection(port: port))
            }

            // Within the header timeout and a margin (10 s: a test machine busy with other suites), every
            // one is closed by the service.
            try await RawConnection.waitForClose(of: halfOpen + silent, within: 0.5 + 10)
            #expect(halfOpen.filter(\.closedByServer).count == 200)
            #expect(silent.filter(\.closedByServer).count == 200)
            // The silent ones without a word, the half-open ones with a 408 problem.
            #expect(silent.allSatisfy { $0.received.isEmpty })
            for connection in halfOpen {
                let answer = try #require(parseAnswer(connection.text), "\(connection.text)")
                #expect(answer.status == 408)
                #expect(answer.headers["connection"] == "close")
                #expect(answer.headers["content-type"] == "application/problem+json")
                #expect(answer.headers["content-length"] == String(answer.body.utf8.count))
                let problem = try JSONDecoder().decode(Problem.self, from: Data(answer.body.utf8))
                #expect(problem.status == 408)
                #expect(problem.type == "/problems/request-timeout")
                #expect(problem.detail.contains("0.5 s"))
            }
            #expect(metrics.connections.closed(.headerTimeout) == 200)
            #expect(metrics.connections.closed(.noRequest) - closedBefore == 200)
            // None before its header timeout (counted from its opening; the client's connect
            // returns before the service accepts).
            #expect((halfOpen + silent).allSatisfy { $0.closedAt! - $0.openedAt >= .milliseconds(450) })

            // The service's descriptors are all released; once the clients close theirs too, the
            // process holds no descriptor of a connection to the port, as before.
            try await eventually(within: 2) { ServerSockets.count(port: port) == 0 }
            #expect(ServerSockets.count(port: port) == 0)
            (halfOpen + silent).forEach { $0.close() }
            try await eventually(within: 2) { ServerSockets.count(port: port, .eitherEnd) == descriptorsBefore }
            #expect(ServerSockets.count(port: port, .eitherEnd) == descriptorsBefore)
            #expect(metrics.connections.openConnections == 0)
        }
    }

    @Test func idleKeepAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .seconds(30), idleTimeout: .milliseconds(500))
        try await withService(limits, metrics: metrics) { port in
            let connection = try RawConnection(port: port)
            let opened = ContinuousClock.now
            // Two requests on the connection, then nothing.
            var lastAnswer = ContinuousClock.now
            for request in 0..<2 {
                if request > 0 { try await Task.sleep(for: .milliseconds(300)) }
                let before = connection.received.count
                connection.send(Self.healthz)
                try await connection.waitForBytes(before + 1, within: 5)
                lastAnswer = ContinuousClock.now
            }
            try await connection.waitForClose(within: 0.5 + 10)
            #expect(connection.closedByServer)
            // Not before the idle timeout after the last answer, and without a word after it.
            #expect(ContinuousClock.now - lastAnswer >= .milliseconds(400))
            #expect(connection.text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(connection.text.hasSuffix(#"{"status":"ok"}"#))
            // The idle timeout runs from the last answer, not from the opening.
            #expect(ContinuousClock.now - opened >= .milliseconds(700))
            #expect(metrics.connections.closed(.idleTimeout) == 1)
            #expect(metrics.connections.closed(.noRequest) == 0)
        }
    }

    @Test func partialSecondHeadOnAKeepAliveConnectionIsAnswered408() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .milliseconds(500), idleTimeout: .seconds(30))
        try await withService(limits, metrics: metrics) { port in
            let connection = try RawConnection(port: port)
            connection.send(Self.healthz)
            try await connection.waitForBytes(1, within: 5)
            try await Task.sleep(for: .milliseconds(100))
            let first = connection.received.count
            connection.send(Self.partialHead)
            try await connection.waitForClose(within: 0.5 + 10)
            #expect(connection.closedByServer)
            let second = String(decoding: connection.received[first...], as: UTF8.self)
            #expect(parseAnswer(second)?.status == 408)
            #expect(metrics.connections.closed(.headerTimeout) == 1)
        }
    }

    @Test func atTheCapTheOldestSilentConnectionsMakeRoomAndHealthzIsAnswered() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .seconds(60), idleTimeout: .seconds(60), maxConnections: 40)
        try await withService(limits, metrics: metrics) { port in
            var oldest: [RawConnection] = []
            for _ in 0..<10 { oldest.append(try RawConnection(port: port)) }
            try await eventually(within: 2) { metrics.connections.openConnections == 10 }
            try await Task.sleep(for: .milliseconds(50))
            var newer: [RawConnection] = []
            for _ in 0..<30 { newer.append(try RawConnection(port: port)) }
            try await eventually(within: 2) { metrics.connections.openConnections == 40 }
            #expect(metrics.connections.openConnections == 40)

            let newcomer = try RawConnection(port: port)
            newcomer.send(Self.healthz)
            try await newcomer.waitForBytes(1, within: 5)
            try await newcomer.waitForBytes(newcomer.text.utf8.count + 1, within: 0.2)
            let health = try #require(parseAnswer(newcomer.text))
            #expect(health.status == 200)
            #expect(health.body == #"{"status":"ok"}"#)

            // Room was made from the oldest: an eighth of the 40 unused ones, all among the
            // first 10; none of the newer 30 was touched.
            try await eventually(within: 2) {
                oldest.forEach { $0.poll() }
                return oldest.filter(\.closedByServer).count == 5
            }
            newer.forEach { $0.poll() }
            #expect(oldest.filter(\.closedByServer).count == 5)
            #expect(newer.allSatisfy { !$0.closedByServer })
            #expect(metrics.connections.closed(.evictedAtCap) == 5)
            #expect(metrics.connections.closed(.refusedAtCap) == 0)
        }
    }

    /// Batches with their bodies still coming: busy connections, which the timeouts do not cut
    /// and the cap does not close; a newcomer is refused. Once the bodies are complete the
    /// batches are answered, as the single-point endpoint answers.
    @Test func requestsInProgressAreNotCutAndANewcomerIsRefusedWhenAllAreBusy() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(
            headerTimeout: .milliseconds(500), idleTimeout: .milliseconds(500), maxConnections: 3)
        let body = "{\"lat\": 42.81, \"lon\": -1.64, \"id\": \"a\"}\n{\"lat\": 42.8, \"lon\": -1.65, \"id\": \"b\"}\n"
        let head =
            "POST /v1/sector:batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n"
        try await withService(limits, metrics: metrics) { port in
            var batches: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: port)
                connection.send(head + body.prefix(10))
                batches.append(connection)
            }
            try await eventually(within: 2) { metrics.connections.openConnections == 3 }
            // Past both timeouts, with the bodies half sent.
            try await Task.sleep(for: .milliseconds(1500))
            let newcomer = try RawConnection(port: port)
            try await newcomer.waitForClose(within: 2)
            #expect(newcomer.closedByServer)
            #expect(newcomer.received.isEmpty)
            #expect(metrics.connections.closed(.refusedAtCap) == 1)

            for connection in batches {
                connection.poll()
                #expect(!connection.closedByServer)
                connection.send(String(body.dropFirst(10)))
            }
            let single = try SectorEndpoint.answer(
                QueryParameters([("lat", "42.81"), ("lon", "-1.64")]), data: try RoutesTests.data()
            ).answer
            for connection in batches {
                try await connection.waitForBytes(1, within: 5)
                try await eventually(within: 2) {
                    connection.poll()
                    return connection.text.hasSuffix("\r\n0\r\n\r\n")
                }
                #expect(connection.text.hasPrefix("HTTP/1.1 200"))
                let answer = try #require(parseAnswer(connection.text))
                #expect(answer.headers["transfer-encoding"] == "chunked")
                let lines = Self.dechunked(answer.body).split(separator: "\n")
                #expect(lines.count == 2)
                let first = try #require(lines.first, "\(connection.text)")
                let line = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
                #expect(line?["id"] as? String == "a")
                let inside = (line?["inside"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                #expect(inside == single.inside.map(\.id))
            }
            #expect(metrics.connections.closed(.headerTimeout) == 0)
            #expect(metrics.connections.closed(.idleTimeout) == 0)
            #expect(metrics.connections.closed(.noRequest) == 0)
            #expect(metrics.connections.closed(.evictedAtCap) == 0)
        }
    }

    /// A body that stops coming: 408 after the request timeout, counted from its head (the
    /// header and idle timeouts, shorter, do not apply to a request in progress).
    @Test func bodyThatStopsComingIsAnswered408AfterTheRequestTimeout() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .milliseconds(200), idleTimeout: .milliseconds(200))
        try await withService(limits, metrics: metrics, service: ServiceLimits(requestTimeout: .milliseconds(800))) {
            port in
            let connection = try RawConnection(port: port)
            connection.send(
                "POST /v1/sector:batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                    + "Content-Length: 100\r\n\r\n42.81,-1.64,a\n")
            try await connection.waitForClose(within: 0.8 + 10)
            #expect(connection.closedByServer)
            #expect(connection.closedAt! - connection.openedAt >= .milliseconds(750))
            let answer = try #require(parseAnswer(connection.text), "\(connection.text)")
            #expect(answer.status == 408)
            #expect(answer.headers["connection"] == "close")
            let problem = try JSONDecoder().decode(Problem.self, from: Data(answer.body.utf8))
            #expect(problem.type == "/problems/request-timeout")
            #expect(problem.detail.contains("0.8 s (geoq serve --request-timeout)"))
            #expect(metrics.connections.closed(.bodyTimeout) == 1)
            #expect(metrics.connections.closed(.headerTimeout) == 0)
            #expect(metrics.connections.closed(.idleTimeout) == 0)
        }
    }

    @Test func metricsListTheClosesByReason() async throws {
        let metrics = RequestMetrics()
        let limits = ConnectionLimits(headerTimeout: .milliseconds(300), idleTimeout: .seconds(30))
        // A scraper on this machine, as `--metrics-host 127.0.0.1` lets it read without a key.
        try await withService(limits, metrics: metrics, access: AccessRules(metricsFromLoopback: true)) { port in
            let silent = try RawConnection(port: port)
            try await silent.waitForClose(within: 0.3 + 10)
            let client = try RawConnection(port: port)
            client.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try await eventually(within: 5) {
                client.poll()
                return client.text.contains("refused_at_cap")
            }
            let text = client.text
            #expect(text.contains("# TYPE geoq_connections_closed_total counter\n"))
            #expect(text.contains("geoq_connections_closed_total{reason=\"no_request\"} 1\n"))
            #expect(text.contains("geoq_connections_closed_total{reason=\"header_timeout\"} 0\n"))
            #expect(text.contains("geoq_connections_closed_total{reason=\"idle_timeout\"} 0\n"))
            #expect(text.contains("geoq_connections_closed_total{reason=\"body_timeout\"} 0\n"))
            #expect(text.contains("geoq_connections_closed_total{reason=\"evicted_at_cap\"} 0\n"))
            #expect(text.contains("geoq_connections_closed_total{reason=\"refused_at_cap\"} 0\n"))
            // The client asking is the one connection open.
            #expect(text.contains("geoq_connections_open 1\n"))
        }
    }
}
