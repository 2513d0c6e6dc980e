import Foundation
import GeoqAPI
import GeoqLayers
import GeoqQuery
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import GeoqServer

/// The GET endpoints answered on the event loop (`InlineAnswerHandler`): what it answers itself,
/// what it passes on to Hummingbird's router, and that the two give the same answers.
@Suite struct InlineAnswerTests {
    static let sector = "/v1/sector?lat=42.81&lon=-1.64"

    /// Keeps the user events that reach the end of the pipeline.
    final class EventRecorder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        var events: [Any] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.fireChannelRead(data) }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) { events.append(event) }
    }

    /// One answer as it left on the wire.
    struct WireAnswer {
        var statusLine: String
        var headers: [(name: String, value: String)]
        var body: String

        var status: Int { Int(statusLine.split(separator: " ")[1]) ?? 0 }
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Counts the reads asked of the socket (it sits first, at the socket's end of the pipeline).
    final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = Any
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    /// SwiftNIO's HTTP/1 codec and the handler, as in the service, over bytes.
    struct Pipeline {
        let channel: EmbeddedChannel
        let metrics: RequestMetrics
        let recorder: EventRecorder
        let readCounter = ReadCounter()
        /// Bytes written to the client and not yet read by `answers()`.
        private let wire = Wire()
        final class Wire: @unchecked Sendable { var text = "" }

        /// With `deadlines`, ``ConnectionDeadlines`` first, as in the service; over `state`, else
        /// the default layer alone.
        init(deadlines: ConnectionDeadlines? = nil, state: ServiceState? = nil) throws {
            metrics = RequestMetrics()
            let endpoints = GetEndpoints(
                state: try state ?? ServiceState(try RoutesTests.data()), metrics: metrics, limits: ServiceLimits())
            recorder = EventRecorder()
            channel = EmbeddedChannel()
            if let deadlines { try channel.pipeline.syncOperations.addHandler(deadlines) }
            try channel.pipeline.syncOperations.addHandler(readCounter)
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false)
            try channel.pipeline.syncOperations.addHandler(
                InlineAnswerHandler(
                    endpoints: endpoints, gate: AccessGate(keys: nil), metrics: metrics, accessLog: nil,
                    logger: Logger(label: "test"),
                    serverName: "geoq"))
            try channel.pipeline.syncOperations.addHandler(recorder)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        /// Writes a request as a client would, in HTTP/1.1 unless told.
        func send(
            _ method: String, _ path: String, headers: [String] = [], body: String? = nil,
            version: String = "HTTP/1.1"
        ) throws {
            var lines = ["\(method) \(path) \(version)", "Host: localhost"] + headers
            if let body { lines.append("Content-Length: \(body.utf8.count)") }
            try channel.writeInbound(ByteBuffer(string: lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")))
        }

        /// The whole answers written to the client since the last call, in order.
        func answers() throws -> [WireAnswer] {
            while let data = try channel.readOutbound(as: IOData.self) {
                guard case .byteBuffer(let buffer) = data else { continue }
                wire.text += String(buffer: buffer)
            }
            var answers: [WireAnswer] = []
            var rest = Substring(wire.text)
            while let end = rest.range(of: "\r\n\r\n") {
                let lines = rest[..<end.lowerBound].components(separatedBy: "\r\n")
                let headers = lines.dropFirst().map { line in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
                }
                var answer = WireAnswer(statusLine: lines[0], headers: headers, body: "")
                let length = Int(answer.header("Content-Length") ?? "0") ?? 0
                let body = rest[end.upperBound...].utf8.prefix(length)
                answer.body = String(decoding: body, as: UTF8.self)
                rest = Substring(rest[end.upperBound...].utf8.dropFirst(length))
                answers.append(answer)
            }
            wire.text = String(rest)
            return answers
        }

        /// The paths of the requests passed on to the router, in order.
        func passedOn() throws -> [String] {
            var paths: [String] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
                if case .head(let head) = part { paths.append(head.uri) }
            }
            return paths
        }
    }

    @Test func aGetEndpointIsAnsweredOnTheEventLoop() throws {
        let pipeline = try Pipeline()
        try pipeline.send("GET", Self.sector)
        let answers = try pipeline.answers()
        let answer = try #require(answers.first)
        #expect(answers.count == 1)
        #expect(answer.statusLine == "HTTP/1.1 200 OK")
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Content-Length") == String(answer.body.utf8.count))
        #expect(answer.header("Server") == "geoq")
        #expect(answer.header("Connection") == nil)
        let date = try #require(answer.header("Date"))
        #expect(date.hasSuffix(" GMT") && date.count == 29, "IMF-fixdate: \(date)")
        let sector = try JSONDecoder().decode(SectorAnswer.self, from: Data(answer.body.utf8))
        #expect(sector.inside.map(\.id) == ["2"] && sector.approximate)
        #expect(try pipeline.passedOn().isEmpty)
        #expect(pipeline.channel.isActive)
        #expect(pipeline.metrics.exposition().contains(#"geoq_http_requests_total{route="/v1/sector",status="200"} 1"#))
    }

    @Test func problemsAreAnsweredInTheRequestsLanguage() throws {
        let pipeline = try Pipeline()
        try pipeline.send("GET", "/v1/sector?lat=91&lon=0", headers: ["Accept-Language: es"])
        let answer = try #require(try pipeline.answers().first)
        #expect(answer.statusLine == "HTTP/1.1 400 Bad Request")
        #expect(answer.header("Content-Type") == Problem.mediaType)
        let problem = try JSONDecoder().decode(Problem.self, from: Data(answer.body.utf8))
        #expect(problem.parameter == "lat" && problem.detail.contains("entre -90 y 90"))
    }

    /// A header given on two lines counts as one list, as Hummingbird's router reads it.
    @Test func headersOnSeveralLinesAreReadTogether() throws {
        let pipeline = try Pipeline()
        try pipeline.send("GET", Self.sector, headers: ["Accept: text/html", "Accept: application/geo+json"])
        let answer = try #require(try pipeline.answers().first)
        #expect(answer.header("Content-Type") == "application/geo+json")
    }

    /// The handler reads a request target's path and query as Hummingbird's router does.
    @Test(arguments: [
        Self.sector, "/healthz", "/v1/sector?", "/v1/sector?lat=1?2", "/v1/sector?lat=1#top", "/v1/sector#top",
        "/v1/sector/?lat=1", "/v1//sector?lat=%34", "/", "/v1/sector?&&lat=1&", "/v1/sector#a?b", "/v1/sector?a#b?c#d",
    ])
    func pathAndQueryAsTheRouterReadsThem(target: String) {
        let (path, query) = InlineAnswerHandler.pathAndQuery(of: target)
        let uri = URI(target)
        #expect(path == uri.path && query == (uri.query ?? ""))
    }

    @Test func otherRequestsGoOnToTheRouter() throws {
        let pipeline = try Pipeline()
        try pipeline.send("GET", "/nowhere")
        try pipeline.send("HEAD", "/nowhere")
        try pipeline.send("PUT", Self.sector)
        try pipeline.send("POST", "/v1/sector", body: "x")
        #expect(try pipeline.passedOn() == ["/nowhere", "/nowhere", Self.sector, "/v1/sector"])
        #expect(try pipeline.answers().isEmpty)
    }

    /// HEAD gets the GET's status and headers (its Content-Length too) and no body; the next
    /// answer on the connection follows right after the head.
    @Test func headIsTheGetsAnswerWithoutItsBody() throws {
        let pipeline = try Pipeline()
        try pipeline.send("GET", Self.sector)
        let get = try #require(try pipeline.answers().first)
        try pipeline.send("HEAD", Self.sector)
        try pipeline.send("GET", "/healthz")
        var wire = ""
        while let data = try pipeline.channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { wire += String(buffer: buffer) }
        }
        let parts = wire.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 3 && parts[1].hasPrefix("HTTP/1.1 200 OK\r\n") && parts[2] == #"{"status":"ok"}"#)
        let head = parts[0].components(separatedBy: "\r\n")
        #expect(head.first == "HTTP/1.1 200 OK")
        #expect(
            head.contains("Content-Length: \(get.body.utf8.count)") && head.contains("Content-Type: application/json"))
        #expect(try pipeline.passedOn().isEmpty)
    }

    /// A GET pipelined behind a batch must not overtake it: it is passed on too, until every
    /// answer the router owes has gone out.
    @Test func answersLeaveInRequestOrder() throws {
        let pipeline = try Pipeline()
        try pipeline.send(
            "POST", "/v1/sector:batch", headers: ["Content-Type: application/x-ndjson"], body: "42.81,-1.64\n")
        try pipeline.send("GET", Self.sector)
        #expect(try pipeline.passedOn() == ["/v1/sector:batch", Self.sector])
        #expect(try pipeline.answers().isEmpty)
        // The router answers both, through the handler and SwiftNIO's encoder.
        for status in [HTTPResponseStatus.accepted, .ok] {
            var head = HTTPResponseHead(version: .http1_1, status: status)
            head.headers.add(name: "Content-Length", value: "0")
            try pipeline.channel.writeOutbound(HTTPServerResponsePart.head(head))
            try pipeline.channel.writeOutbound(HTTPServerResponsePart.end(nil))
        }
        #expect(try pipeline.answers().map(\.status) == [202, 200])
        try pipeline.send("GET", Self.sector)
        #expect(try pipeline.passedOn().isEmpty)
        #expect(try pipeline.answers().map(\.status) == [200])
    }

    /// Pipelined GETs read in one go are answered in order, and flushed together.
    @Test func pipelinedGetsAreAnsweredInOrder() throws {
        let pipeline = try Pipeline()
        try pipeline.channel.writeInbound(
            ByteBuffer(
                string:
                    "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/sector?lat=91&lon=0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET \(Self.sector) HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try pipeline.answers().map(\.status) == [200, 400, 200])
    }

    /// A client that does not read its answers: while the connection cannot take more writes,
    /// nothing more is read from it; once it can, reading resumes.
    @Test func noReadingWhileAnswersCannotBeWritten() throws {
        let pipeline = try Pipeline()
        let before = pipeline.readCounter.reads
        pipeline.channel.read()
        #expect(pipeline.readCounter.reads == before + 1)
        pipeline.channel.isWritable = false
        pipeline.channel.pipeline.fireChannelWritabilityChanged()
        pipeline.channel.read()
        pipeline.channel.read()
        #expect(pipeline.readCounter.reads == before + 1)
        pipeline.channel.isWritable = true
        pipeline.channel.pipeline.fireChannelWritabilityChanged()
        #expect(pipeline.readCounter.reads == before + 2)
        pipeline.channel.read()
        #expect(pipeline.readCounter.reads == before + 3)
    }

    @Test func connectionCloseClosesAfterTheAnswer() throws {
        let pipeline = try Pipeline()
        try pipeline.send("GET", "/healthz", headers: ["Connection: close"])
        let answer = try #require(try pipeline.answers().first)
        #expect(answer.body == #"{"status":"ok"}"# && answer.header("Connection") == "close")
        #expect(!pipeline.channel.isActive)
    }

    /// HTTP/1.0: closed after the answer unless the client asks to keep it, and then said so.
    @Test func http10KeepsTheConnectionOnlyWhenAsked() throws {
        let plain = try Pipeline()
        try plain.send("GET", "/healthz", version: "HTTP/1.0")
        #expect(try plain.answers().first?.header("Connection") == "close")
        #expect(!plain.channel.isActive)

        let keepAlive = try Pipeline()
        try keepAlive.send("GET", "/healthz", headers: ["Connection: keep-alive"], version: "HTTP/1.0")
        #expect(try keepAlive.answers().first?.header("Connection") == "keep-alive")
        #expect(keepAlive.channel.isActive)
    }

    /// Graceful shutdown: an idle connection is left to Hummingbird (which closes it); one whose
    /// request is being read here is answered first, then closed.
    @Test func shutdownWaitsForTheRequestBeingRead() throws {
        let idle = try Pipeline()
        idle.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(idle.recorder.events.contains { $0 is ChannelShouldQuiesceEvent })

        let busy = try Pipeline()
        // The head is read; the body is still on its way.
        try busy.channel.writeInbound(
            ByteBuffer(string: "GET \(Self.sector) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n"))
        busy.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(busy.recorder.events.isEmpty)
        #expect(busy.channel.isActive)
        try busy.channel.writeInbound(ByteBuffer(string: "{}"))
        let answer = try #require(try busy.answers().first)
        #expect(answer.status == 200 && answer.header("Connection") == "close")
        #expect(!busy.channel.isActive)
    }

    /// Over a real socket, the service (with the handler in Hummingbird's pipeline) gives every
    /// GET endpoint the same status, media type and body as the router alone.
    @Test func liveAnswersEqualTheRoutersAnswers() async throws {
        let requests: [(String, HTTPFields)] = [
            (Self.sector, [:]),
            (Self.sector, [.accept: "application/geo+json"]),
            ("/v1/sector?lat=-1.64&lon=42.81", [:]),
            ("/v1/sector?lat=42.81", [.acceptLanguage: "eu"]),
            ("/v1/sector?lat=42.81&lon=-1.64&layer=nowhere", [:]),
            ("/v1/sector?lat=42.81&lon=-1.64&lat=1", [:]),
            ("/v1/sector?lat=4%32.81&lon=-1.64", [:]),
            ("/v1/nearest?lat=42.81&lon=-1.64&layer=pamplona-sectors", [:]),
            ("/v1/layers", [:]),
            ("/healthz", [:]),
            ("/readyz", [:]),
            ("/openapi.json", [:]),
            ("/v1/tariff?zone=blue&minutes=30&start=2026-11-23T13:50", [.acceptLanguage: "en"]),
            ("/v1/incidents", [:]),
            ("/nowhere", [:]),
            ("/v1/sector/?lat=42.81&lon=-1.64", [:]),
            ("/v1//sector?lat=42.81&lon=-1.64", [:]),
        ]
        struct Seen {
            var status: HTTPResponse.Status
            var type, length: String?
            var body: String
        }
        func run(_ app: some ApplicationProtocol, live: Bool, _ method: HTTPRequest.Method) async throws
            -> [Seen]
        {
            try await app.test(live ? .live : .router) { client in
                var seen: [Seen] = []
                for (uri, headers) in requests {
                    try await client.execute(uri: uri, method: method, headers: headers) { response in
                        let fields = response.headers
                        seen.append(
                            Seen(
                                status: response.status, type: fields[.contentType], length: fields[.contentLength],
                                body: String(buffer: response.body)))
                        if live {
                            #expect(fields[.server] == "geoq" && fields[.date] != nil)
                        }
                    }
                }
                return seen
            }
        }
        let state = ServiceState(try RoutesTests.data())
        let routed = try await run(Application(router: Routes.router(state: state)), live: false, .get)
        let live = try await run(Routes.application(state: state), live: true, .get)
        // HEAD: the same status and headers from both.
        let routedHeads = try await run(Application(router: Routes.router(state: state)), live: false, .head)
        let liveHeads = try await run(Routes.application(state: state), live: true, .head)
        for ((uri, _), (a, b)) in zip(requests, zip(routedHeads, liveHeads)) {
            #expect(a.status == b.status && a.type == b.type && a.length == b.length, "HEAD \(uri)")
            // On the wire no HEAD answer has a body (the router test mode, without HTTP, keeps a
            // problem's).
            #expect(b.body.isEmpty, "HEAD \(uri)")
        }
        for ((uri, _), (get, head)) in zip(requests, zip(live, liveHeads)) {
            #expect(get.status == head.status && get.type == head.type, "HEAD \(uri)")
            #expect(head.length == nil || head.length == String(get.body.utf8.count), "HEAD \(uri)")
        }
        #expect(routed.count == requests.count && live.count == requests.count)
        for ((uri, _), (a, b)) in zip(requests, zip(routed, live)) {
            #expect(a.status == b.status && a.type == b.type && a.body == b.body, "\(uri)")
        }
        // Answers and problems both (this snapshot has one polygon layer, no point layers, no tariffs);
        // the router also takes a path with a trailing or doubled slash, and so answers it.
        #expect(
            routed.map(\.status.code) == [
                200, 200, 200, 400, 404, 400, 200, 404, 200, 200, 200, 200, 404, 200, 404, 200, 200,
            ])
    }
}
