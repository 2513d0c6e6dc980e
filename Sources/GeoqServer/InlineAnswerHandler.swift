import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// Answers the service's GET endpoints on the connection's event loop, as soon as a request
/// has been read; everything else goes on to Hummingbird's router.
///
/// Why: every GET endpoint is a synchronous lookup of a few microseconds, while Hummingbird's
/// request path hands each request from the event loop to a Swift task and the answer back
/// (measured on the 2-core test machine: about 70 µs of CPU per request, against 27 µs for a
/// plain SwiftNIO handler). Answering here is that plain handler, with the same endpoints,
/// problems, metrics and access log as the router (``GetEndpoints``).
///
/// It sits in Hummingbird's HTTP/1 pipeline (`HTTP1Channel.Configuration.additionalChannelHandlers`),
/// after the HTTP codec and before Hummingbird's connection state handler, so Hummingbird still
/// owns the listening socket, graceful shutdown and the async routes.
///
/// Invariant: answers leave in request order. While a request passed on to the router is
/// unanswered (`passedOn > 0`), later requests on the connection are passed on too, so that a
/// pipelined GET never overtakes a batch before it.
final class InlineAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        case idle
        /// A GET to answer here once its end has been read (a body, if any, is ignored).
        case reading(HTTPRequest, URI, started: ContinuousClock.Instant)
        /// The request being read goes to the router, part by part.
        case passingOn
    }

    private let endpoints: GetEndpoints
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
    private var date = HTTPDate()

    init(endpoints: GetEndpoints, metrics: RequestMetrics, accessLog: AccessLog?, logger: Logger, serverName: String) {
        self.endpoints = endpoints
        self.metrics = metrics
        self.accessLog = accessLog
        self.logger = logger
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            if passedOn == 0, head.method == .get, let path = head.path, case let uri = URI(path),
                endpoints.answers(path: uri.path)
            {
                state = .reading(head, uri, started: .now)
            } else {
                state = .passingOn
                passedOn += 1
                context.fireChannelRead(data)
            }
        case (.body, .reading):
            break
        case (.end, .reading(let head, let uri, let started)):
            state = .idle
            answer(head, uri: uri, started: started, context: context)
        case (.end, _):
            state = .idle
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

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn -= 1 }
        context.write(data, promise: promise)
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

    private func answer(
        _ head: HTTPRequest, uri: URI, started: ContinuousClock.Instant, context: ChannelHandlerContext
    ) {
        // Only known paths are read here, so the not-found fallback never leaves a request unanswered.
        let request = EndpointRequest(uri: uri, headers: head.headerFields)
        let answer =
            endpoints.answer(request) ?? Responses.problem(.notFound(path: uri.path), for: head.headerFields)
        var fields = answer.headers
        fields[.contentLength] = String(answer.body.readableBytes)
        fields[.date] = date.now()
        fields[.server] = serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        needsFlush = true
        metrics.record(path: uri.path, status: answer.status.code, since: started)
        if let accessLog {
            var logger = logger
            logger[metadataKey: "hb.request.id"] = "\(RequestID())"
            accessLog.record(
                method: head.method.rawValue, path: uri.path, status: answer.status.code, since: started,
                logger: logger)
        }
        if closeAfterAnswer || head.headerFields[.connection] == "close" {
            needsFlush = false
            context.flush()
            context.close(promise: nil)
        }
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
