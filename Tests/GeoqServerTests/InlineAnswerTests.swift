import Foundation
import GeoqAPI
import GeoqLayers
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import GeoqServer

/// The GET endpoints answered on the event loop (`InlineAnswerHandler`): what it answers itself,
/// what it passes on to Hummingbird's router, and that the two give the same answers.
@Suite struct InlineAnswerTests {
    static let sector = "/v1/sector?lat=42.81&lon=-1.64"

    /// Keeps the user events that reach the end of the pipeline.
    final class EventRecorder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        var events: [Any] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.fireChannelRead(data) }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) { events.append(event) }
    }

    struct Pipeline {
        let channel: EmbeddedChannel
        let metrics: RequestMetrics
        let recorder: EventRecorder

        init() throws {
            metrics = RequestMetrics()
            let endpoints = GetEndpoints(
                state: ServiceState(RoutesTests.data), metrics: metrics, limits: ServiceLimits())
            recorder = EventRecorder()
            channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(
                InlineAnswerHandler(
                    endpoints: endpoints, metrics: metrics, accessLog: nil, logger: Logger(label: "test"),
                    serverName: "geoq"))
            try channel.pipeline.syncOperations.addHandler(recorder)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        func send(
            _ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:], body: String? = nil
        ) throws {
            try channel.writeInbound(
                HTTPRequestPart.head(
                    HTTPRequest(method: method, scheme: nil, authority: "localhost", path: path, headerFields: headers))
            )
            if let body { try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: body))) }
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }

        /// The whole answer written to the client, if any.
        func answer() throws -> (head: HTTPResponse, body: String)? {
            guard case .head(let head) = try channel.readOutbound(as: HTTPResponsePart.self) else { return nil }
            var body = ""
            while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
                switch part {
                case .body(let buffer): body += String(buffer: buffer)
                case .end: return (head, body)
                case .head: Issue.record("a second head before the end")
                }
            }
            Issue.record("no end part")
            return nil
        }

        /// The paths of the requests passed on to the router, in order.
        func passedOn() throws -> [String] {
            var paths: [String] = []
            while let part = try channel.readInbound(as: HTTPRequestPart.self) {
                if case .head(let head) = part { paths.append(head.path ?? "") }
            }
            return paths
        }
    }

    @Test func aGetEndpointIsAnsweredOnTheEventLoop() throws {
        let pipeline = try Pipeline()
        try pipeline.send(.get, Self.sector)
        let (head, body) = try #require(try pipeline.answer())
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "application/json")
        #expect(head.headerFields[.contentLength] == String(body.utf8.count))
        #expect(head.headerFields[.server] == "geoq")
        let date = try #require(head.headerFields[.date])
        #expect(date.hasSuffix(" GMT") && date.count == 29, "IMF-fixdate: \(date)")
        let answer = try JSONDecoder().decode(SectorAnswer.self, from: Data(body.utf8))
        #expect(answer.inside.map(\.id) == ["2"] && answer.approximate)
        #expect(try pipeline.passedOn().isEmpty)
        #expect(pipeline.metrics.exposition().contains(#"geoq_http_requests_total{route="/v1/sector",status="200"} 1"#))
    }

    @Test func problemsAreAnsweredInTheRequestsLanguage() throws {
        let pipeline = try Pipeline()
        try pipeline.send(.get, "/v1/sector?lat=91&lon=0", headers: [.acceptLanguage: "es"])
        let (head, body) = try #require(try pipeline.answer())
        #expect(head.status == .badRequest && head.headerFields[.contentType] == Problem.mediaType)
        let problem = try JSONDecoder().decode(Problem.self, from: Data(body.utf8))
        #expect(problem.parameter == "lat" && problem.detail.contains("entre -90 y 90"))
    }

    @Test func otherRequestsGoOnToTheRouter() throws {
        let pipeline = try Pipeline()
        try pipeline.send(.get, "/nowhere")
        try pipeline.send(.head, Self.sector)
        try pipeline.send(.post, "/v1/sector", body: "x")
        #expect(try pipeline.passedOn() == ["/nowhere", Self.sector, "/v1/sector"])
        #expect(try pipeline.answer() == nil)
    }

    /// A GET pipelined behind a batch must not overtake it: it is passed on too, until every
    /// answer the router owes has gone out.
    @Test func answersLeaveInRequestOrder() throws {
        let pipeline = try Pipeline()
        try pipeline.send(
            .post, "/v1/sector:batch", headers: [.contentType: "application/x-ndjson"], body: "42.81,-1.64\n")
        try pipeline.send(.get, Self.sector)
        #expect(try pipeline.passedOn() == ["/v1/sector:batch", Self.sector])
        #expect(try pipeline.answer() == nil)
        // The router answers both.
        for _ in 0..<2 {
            try pipeline.channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try pipeline.channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        for _ in 0..<2 { #expect(try pipeline.answer()?.head.status == .ok) }
        try pipeline.send(.get, Self.sector)
        #expect(try pipeline.passedOn().isEmpty)
        #expect(try pipeline.answer()?.head.status == .ok)
    }

    @Test func connectionCloseClosesAfterTheAnswer() throws {
        let pipeline = try Pipeline()
        try pipeline.send(.get, "/healthz", headers: [.connection: "close"])
        #expect(try pipeline.answer()?.body == #"{"status":"ok"}"#)
        #expect(!pipeline.channel.isActive)
    }

    /// Graceful shutdown: an idle connection is left to Hummingbird (which closes it); one whose
    /// request is being read here is answered first, then closed.
    @Test func shutdownWaitsForTheRequestBeingRead() throws {
        let idle = try Pipeline()
        idle.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(idle.recorder.events.contains { $0 is ChannelShouldQuiesceEvent })

        let busy = try Pipeline()
        try busy.channel.writeInbound(
            HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: Self.sector)))
        busy.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(busy.recorder.events.isEmpty)
        #expect(busy.channel.isActive)
        try busy.channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try busy.answer()?.head.status == .ok)
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
        typealias Seen = (status: HTTPResponse.Status, type: String?, body: String)
        func run(_ app: some ApplicationProtocol, _ mode: TestingSetup, live: Bool) async throws -> [Seen] {
            try await app.test(mode) { client in
                var seen: [Seen] = []
                for (uri, headers) in requests {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        seen.append((response.status, response.headers[.contentType], String(buffer: response.body)))
                        if live {
                            #expect(response.headers[.server] == "geoq" && response.headers[.date] != nil)
                        }
                    }
                }
                return seen
            }
        }
        let state = ServiceState(RoutesTests.data)
        let routed = try await run(Application(router: Routes.router(state: state)), .router, live: false)
        let live = try await run(Routes.application(state: state), .live, live: true)
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
