import Foundation
import GeoqAPI
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import GeoqServer

/// ``ConnectionDeadlines`` on the event loop's clock, moved by hand: each deadline falls exactly
/// where nginx's defaults put it (client_header_timeout 60 s, keepalive_timeout 75 s), with the
/// batch's request timeout (30 s) for a body, and not a moment before.
@Suite struct ConnectionDeadlinesTests {
    /// A connection as the service has it (deadlines, SwiftNIO's codec, the inline handler),
    /// registered with `registry`.
    struct Connection {
        let pipeline: InlineAnswerTests.Pipeline
        var channel: EmbeddedChannel { pipeline.channel }
        var loop: EmbeddedEventLoop { pipeline.channel.embeddedEventLoop }

        init(registry: ConnectionRegistry, limits: ConnectionLimits = ConnectionLimits()) throws {
            pipeline = try InlineAnswerTests.Pipeline(
                deadlines: ConnectionDeadlines(
                    limits: limits, bodyTimeout: .seconds(30), registry: registry, serverName: "geoq"))
        }

        func advance(_ seconds: Double) {
            loop.advanceTime(by: .nanoseconds(Int64(seconds * 1e9)))
        }

        func sendBytes(_ text: String) throws {
            try channel.writeInbound(ByteBuffer(string: text))
        }

    }

    static func registry(max: Int = 100) -> ConnectionRegistry {
        ConnectionRegistry(maxConnections: max, counters: ConnectionCounters())
    }

    static let partialHead = "GET /v1/sector?lat=42.81&lon=-1.64 HTTP/1.1\r\nHost: localhost\r\n"

    @Test func aSilentConnectionIsClosedWithoutAWordAtTheHeaderTimeout() throws {
        let registry = Self.registry()
        let connection = try Connection(registry: registry)
        #expect(registry.counters.openConnections == 1)
        connection.advance(59.999)
        #expect(connection.channel.isActive)
        connection.advance(0.002)
        #expect(!connection.channel.isActive)
        #expect(try connection.pipeline.answers().isEmpty)
        #expect(registry.counters.closed(.noRequest) == 1)
        #expect(registry.counters.openConnections == 0)
    }

    /// A head sent a line at a time does not move its deadline (slowloris).
    @Test func aHeadStillIncompleteAtTheHeaderTimeoutIsAnswered408() throws {
        let registry = Self.registry()
        let connection = try Connection(registry: registry)
        try connection.sendBytes(Self.partialHead)
        for _ in 0..<5 {
            connection.advance(11.9)
            try connection.sendBytes("X-Slow: 1\r\n")
        }
        connection.advance(0.4)  // 59.9 s
        #expect(connection.channel.isActive)
        connection.advance(0.2)
        #expect(!connection.channel.isActive)
        let answer = try #require(try connection.pipeline.answers().first)
        #expect(answer.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(answer.header("Connection") == "close")
        #expect(answer.header("Content-Type") == "application/problem+json")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(answer.body.utf8))
        #expect(problem.status == 408)
        #expect(problem.detail == "the request head did not arrive within 60 s (geoq serve --header-timeout)")
        #expect(registry.counters.closed(.headerTimeout) == 1)
    }

    @Test func anIdleKeepAliveConnectionIsClosedAtTheIdleTimeoutAfterItsLastAnswer() throws {
        let registry = Self.registry()
        let connection = try Connection(registry: registry)
        try connection.pipeline.send("GET", "/healthz")
        connection.advance(50)
        try connection.pipeline.send("GET", "/healthz")
        #expect(try connection.pipeline.answers().map(\.status) == [200, 200])
        connection.advance(74.9)  // 124.9 s after opening, well past both timeouts from then
        #expect(connection.channel.isActive)
        connection.advance(0.2)
        #expect(!connection.channel.isActive)
        #expect(try connection.pipeline.answers().isEmpty)
        #expect(registry.counters.closed(.idleTimeout) == 1)
    }

    /// Between requests, the next head has the header timeout from its first byte.
    @Test func theNextHeadHasTheHeaderTimeoutFromItsFirstByte() throws {
        let registry = Self.registry()
        let connection = try Connection(registry: registry)
        try connection.pipeline.send("GET", "/healthz")
        #expect(try connection.pipeline.answers().count == 1)
        connection.advance(70)
        try connection.sendBytes(Self.partialHead)
        connection.advance(59.9)  // 129.9 s: past the idle timeout of the first answer
        #expect(connection.channel.isActive)
        connection.advance(0.2)
        #expect(!connection.channel.isActive)
        #expect(try connection.pipeline.answers().map(\.status) == [408])
    }

    /// A request handed to the router and not answered yet (a batch being computed or
    /// streamed) is never cut; once answered, the idle timeout runs from its answer.
    @Test func aRequestInProgressIsNotCut() throws {
        let registry = Self.registry()
        let connection = try Connection(registry: registry)
        try connection.pipeline.send(
            "POST", "/v1/sector:batch", headers: ["Content-Type: text/csv"], body: "42.81,-1.64\n")
        connection.advance(1000)
        #expect(connection.channel.isActive)
        try WireFuzzTests.answerAsTheRouter(connection.channel)
        connection.advance(74.9)
        #expect(connection.channel.isActive)
        connection.advance(0.2)
        #expect(!connection.channel.isActive)
        #expect(registry.counters.closed(.idleTimeout) == 1)
        #expect(registry.counters.closed(.bodyTimeout) == 0)
    }

    /// A body that stops coming: 408 at the request timeout from its head, though its bytes
    /// keep the header and idle timeouts away.
    @Test func aBodyStillIncompleteAtTheRequestTimeoutIsAnswered408() throws {
        let registry = Self.registry()
        let connection = try Connection(registry: registry)
        try connection.sendBytes(
            "POST /v1/sector:batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\nContent-Length: 100\r\n\r\n42.81,"
        )
        connection.advance(29.9)
        #expect(connection.channel.isActive)
        try connection.sendBytes("-1.64\n")
        connection.advance(0.2)
        #expect(!connection.channel.isActive)
        let answer = try #require(try connection.pipeline.answers().first)
        #expect(answer.status == 408)
        let problem = try JSONDecoder().decode(Problem.self, from: Data(answer.body.utf8))
        #expect(problem.detail == "the request body did not arrive within 30 s (geoq serve --request-timeout)")
        #expect(registry.counters.closed(.bodyTimeout) == 1)
    }

    /// At the cap the connection unused the longest makes room, a busy one never; with every
    /// connection busy, the newcomer is refused.
    @Test func theCapClosesTheLongestUnusedAndRefusesOnlyWhenAllAreBusy() throws {
        let registry = Self.registry(max: 2)
        let silent = try Connection(registry: registry)
        let busy = try Connection(registry: registry)
        try busy.pipeline.send("POST", "/v1/sector:batch", headers: ["Content-Type: text/csv"], body: "42.81,-1.64\n")
        let newcomer = try Connection(registry: registry)
        silent.loop.run()
        #expect(!silent.channel.isActive)
        #expect(busy.channel.isActive && newcomer.channel.isActive)
        #expect(registry.counters.closed(.evictedAtCap) == 1)

        // The newcomer, silent, makes room for the next; then both open ones are busy.
        let next = try Connection(registry: registry)
        newcomer.loop.run()
        #expect(!newcomer.channel.isActive)
        try next.pipeline.send("POST", "/v1/sector:batch", headers: ["Content-Type: text/csv"], body: "42.81,-1.64\n")
        let refused = try Connection(registry: registry)
        #expect(!refused.channel.isActive)
        #expect(busy.channel.isActive && next.channel.isActive)
        #expect(registry.counters.closed(.refusedAtCap) == 1)
        #expect(registry.counters.closed(.evictedAtCap) == 2)
        #expect(registry.counters.openConnections == 2)
    }
}
