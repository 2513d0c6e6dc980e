import Foundation
import GeoqAPI
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Answers the service's GET endpoints (and HEAD of them) on the connection's event loop, as soon
/// as a request has been read; everything else goes on to Hummingbird's router.
///
/// Why: every GET endpoint is a synchronous lookup of a few microseconds, while Hummingbird's
/// request path hands each request from the event loop to a Swift task and the answer back
/// (measured on the 2-core test machine: about 70 µs of CPU per request, against 27 µs for a
/// plain SwiftNIO handler). Answering here is that plain handler, with the same endpoints,
/// problems, metrics and access log as the router (``GetEndpoints``).
///
/// It sits right after SwiftNIO's HTTP/1 codec (see ``ServiceHTTP1Channel``), before the
/// conversion to Swift HTTP Types that Hummingbird's router needs: the requests answered here
/// skip that conversion. Its answers are written already encoded, head and body in one buffer,
/// from the place of SwiftNIO's response encoder (`HTTPResponseEncoder`) in the pipeline, so
/// they skip the encoder too; the router's answers pass through this handler and the encoder as
/// usual. Hummingbird still owns the listening socket, graceful shutdown and the async routes.
///
/// Backpressure: while the connection cannot take more writes (a client that sends requests and
/// does not read its answers), no more is read from it, so that answers cannot pile up in memory.
///
/// It tells ``ConnectionDeadlines`` (first in the pipeline) when a request head has been read,
/// when the whole request has, and when an answer has been written, so that only the body's
/// deadline runs while a request is in progress.
///
/// Invariant: answers leave in request order. While a request passed on to the router is
/// unanswered (`passedOn > 0`), later requests on the connection are passed on too, so that a
/// pipelined GET never overtakes a batch before it.
final class InlineAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        /// A GET to answer here once its end has been read (a body, if any, is ignored).
        case reading(
            HTTPRequestHead, GetEndpoints.Handler, path: String, query: String, started: ContinuousClock.Instant,
            decision: GateDecision)
        /// The request being read goes to the router, part by part.
        case passingOn
    }

    private let endpoints: GetEndpoints
    private let gate: AccessGate
    /// What the gate found of this connection's earlier requests (its Host, its credential).
    private var gateMemo = AccessGate.Memo()
    /// The client's address, read once per connection, and whether it is a loopback one.
    private var client: String?
    private var clientIsLoopback = false
    private let metrics: RequestMetrics
    private let accessLog: AccessLog?
    private let logger: Logger
    private let serverName: String
    private var state = State.idle
    /// Requests passed on whose answer has not gone out yet.
    private var passedOn = 0
    /// Graceful shutdown was asked for while a request was being read here.
    private var closeAfterAnswer = false
    private var needsFlush = false
    /// A read was asked for while the connection could not take more writes.
    private var readHeldBack = false
    private var date = HTTPDate()
    /// Where each answer's head is written before it joins the body (kept: one per connection).
    private var head = ByteBuffer()
    /// Where encoded answers are written: the response encoder's context, found when this
    /// handler is added. Without an encoder before this handler, every request goes on to the
    /// router.
    private var encoded: ChannelHandlerContext?
    /// The connection's deadlines (first in the pipeline), told of each request's steps.
    private var deadlines: ConnectionDeadlines?

    init(
        endpoints: GetEndpoints, gate: AccessGate, metrics: RequestMetrics, accessLog: AccessLog?, logger: Logger,
        serverName: String
    ) {
        self.endpoints = endpoints
        self.gate = gate
        self.metrics = metrics
        self.accessLog = accessLog
        self.logger = logger
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        encoded = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        deadlines = try? context.pipeline.syncOperations.handler(type: ConnectionDeadlines.self)
        client = context.channel.remoteAddress?.ipAddress
        clientIsLoopback = GateRequest.isLoopback(client)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        encoded = nil
        deadlines = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            deadlines?.note(.headRead)
            let (path, query) = Self.pathAndQuery(of: head.uri)
            if passedOn == 0, encoded != nil, head.method == .GET || head.method == .HEAD,
                let endpoint = endpoints.inlineEndpoint(at: path),
                case let decision = gate.decide(gateRequest(head, path: path), mayWait: false, memo: &gateMemo),
                !decision.needsRouter
            {
                state = .reading(head, endpoint, path: path, query: query, started: .now, decision: decision)
            } else {
                state = .passingOn
                passedOn += 1
                context.fireChannelRead(data)
            }
        case (.body, .reading):
            break
        case (.end, .reading(let head, let endpoint, let path, let query, let started, let decision)):
            state = .idle
            deadlines?.note(.requestRead)
            answer(head, by: endpoint, path: path, query: query, started: started, decision: decision, context: context)
        case (.end, _):
            state = .idle
            deadlines?.note(.requestRead)
            context.fireChannelRead(data)
        case (.body, _):
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            readHeldBack = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, readHeldBack {
            readHeldBack = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        passedOn -= 1
        context.write(data, promise: promise)
        deadlines?.note(.answerWritten)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird's state handler closes an idle connection on shutdown; a request still
        // being read here is not one it knows of, so it is answered first.
        if event is ChannelShouldQuiesceEvent, case .reading = state {
            closeAfterAnswer = true
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// What the access gate reads of a GET or HEAD request's head: not its body's type, which
    /// matters only for writes (the router reads those).
    private func gateRequest(_ head: HTTPRequestHead, path: String) -> GateRequest {
        GateRequest(
            method: head.method.rawValue, path: path, host: head.headers.first(name: "host"),
            origin: head.headers.first(name: "origin"), authorization: head.headers.first(name: "authorization"),
            contentType: nil, hasBody: false,
            // Not whether a proxy forwarded it: only /metrics asks, and the router answers /metrics.
            client: client, clientIsLoopback: clientIsLoopback)
    }

    private func answer(
        _ head: HTTPRequestHead, by endpoint: GetEndpoints.Handler, path: String, query: String,
        started: ContinuousClock.Instant, decision: GateDecision, context: ChannelHandlerContext
    ) {
        let acceptLanguage = head.headers.combined("accept-language")
        var answer: Answer
        var rateLimit: RateLimitHeaders?
        switch decision {
        case .pass(let principal, let headers, let limit):
            rateLimit = limit
            let request = EndpointRequest(
                path: path, query: query, accept: head.headers.combined("accept"), acceptLanguage: acceptLanguage,
                principal: principal, acceptEncoding: head.headers.combined("accept-encoding"),
                ifNoneMatch: head.headers.combined("if-none-match"))
            answer = endpoints.answer(request, by: endpoint)
            if !headers.isEmpty { answer.headers += headers }
        case .refuse(let problem, let headers):
            answer = Responses.problem(problem, acceptLanguage: acceptLanguage)
            answer.headers = headers
        case .preflight, .askRouter:
            // Not decided for a GET here (see channelRead).
            answer = Responses.problem(.internalError("the access gate could not decide"))
        }
        let keepAlive = head.isKeepAlive && !closeAfterAnswer
        let bytes = encode(
            &answer, rateLimit: rateLimit, keepAlive: keepAlive, version: head.version, withBody: head.method != .HEAD,
            context: context)
        encoded?.write(NIOAny(IOData.byteBuffer(bytes)), promise: nil)
        needsFlush = true
        deadlines?.note(.answerWritten)
        // A tile is counted under its route's template, as the router counts it.
        let route = TileResponse.tilePath(path) != nil ? EndpointDescription.ogcTile.path : path
        metrics.record(path: route, status: answer.status.code, since: started)
        if let accessLog {
            var logger = logger
            logger[metadataKey: "hb.request.id"] = "\(RequestID())"
            accessLog.record(
                method: head.method.rawValue, path: path, status: answer.status.code, since: started,
                logger: logger)
        }
        if !keepAlive {
            needsFlush = false
            context.flush()
            context.close(promise: nil)
        }
    }

    /// The path and the query of a request target in origin form (`/v1/sector?lat=42.81&lon=-1.64`),
    /// read as Hummingbird's `URI` reads them (a fragment ends the query; clients do not send one).
    /// Any other form (`http://host/v1/sector`, `*`) gives a path no endpoint has, and so goes on
    /// to the router.
    static func pathAndQuery(of target: String) -> (path: String, query: String) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
        let query = target[target.index(after: mark)...]
        let end = query.utf8.firstIndex(of: UInt8(ascii: "#")) ?? query.endIndex
        return (String(target[..<mark]), String(query[..<end]))
    }

    /// The answer as HTTP/1.1 bytes: status line, headers, and the body unless the request was a
    /// HEAD (whose answer has the GET's headers, Content-Length included, and no body). The
    /// answer's body is taken: when it has room before its text (``Answer/headroom``), the head
    /// is written there, and the body's buffer goes out as it is.
    private func encode(
        _ answer: inout Answer, rateLimit: RateLimitHeaders?, keepAlive: Bool, version: HTTPVersion, withBody: Bool,
        context: ChannelHandlerContext
    ) -> ByteBuffer {
        var body = answer.body
        // The answer lets go of its body, so that writing in front of the text copies nothing.
        answer.body = ByteBuffer()
        head.clear()
        // SwiftNIO's reason phrases: a problem's status is made from its code alone, without one.
        let status = HTTPResponseStatus(statusCode: answer.status.code)
        head.writeStaticString("HTTP/1.1 ")
        head.writeString(String(status.code))
        head.writeStaticString(" ")
        head.writeString(status.reasonPhrase)
        if answer.hasContent {
            head.writeStaticString("\r\nContent-Type: ")
            head.writeString(answer.contentType)
            head.writeStaticString("\r\nContent-Length: ")
            head.writeString(String(body.readableBytes))
        }
        head.writeStaticString("\r\nDate: ")
        head.writeString(date.now())
        head.writeStaticString("\r\nServer: ")
        head.writeString(serverName)
        head.writeBytes(SecurityHeaders.headLines)
        for (name, value) in answer.headers {
            head.writeStaticString("\r\n")
            head.writeString(name)
            head.writeStaticString(": ")
            head.writeString(value)
        }
        rateLimit?.write(into: &head)
        if !keepAlive {
            head.writeStaticString("\r\nConnection: close")
        } else if version == .http1_0 {
            head.writeStaticString("\r\nConnection: keep-alive")
        }
        head.writeStaticString("\r\n\r\n")
        if withBody, body.readerIndex >= head.readableBytes {
            body.moveReaderIndex(to: body.readerIndex - head.readableBytes)
            body.setBuffer(head, at: body.readerIndex)
            return body
        }
        var buffer = context.channel.allocator.buffer(capacity: head.readableBytes + body.readableBytes)
        buffer.writeBuffer(&head)
        if withBody { buffer.writeBuffer(&body) }
        return buffer
    }
}

extension HTTPHeaders {
    /// Every value of the header `name`, joined as one (as Swift HTTP Types reads a header
    /// given on several lines), or nil when absent.
    fileprivate func combined(_ name: String) -> String? {
        // Most requests have neither header, or one line of it: no array made then.
        guard let first = first(name: name) else { return nil }
        let values = self[name]
        return values.count == 1 ? first : values.joined(separator: ", ")
    }
}

/// The `Date` header value (RFC 9110's IMF-fixdate), formatted once per second.
struct HTTPDate {
    private var second = -1
    private var text = ""

    mutating func now() -> String {
        var seconds = time(nil)
        guard seconds != second else { return text }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        text =
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        second = seconds
        return text
    }
}
