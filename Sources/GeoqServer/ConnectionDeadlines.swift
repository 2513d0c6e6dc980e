import Foundation
import GeoqAPI
import NIOCore

/// What the HTTP side of a connection tells ``ConnectionDeadlines`` (from
/// ``InlineAnswerHandler``, which sees every request and every answer, by a direct call on the
/// connection's event loop: a pipeline event per request cost about 5 % of a `GET /v1/sector`).
enum RequestActivity {
    /// A request head has been read: the connection is busy until its answer is written.
    case headRead
    /// The whole request has been read (its body, if any, included).
    case requestRead
    /// An answer has been written in full.
    case answerWritten
}

/// Closes a connection that waits too long for a request, and registers it with the
/// service's connection cap. It sits at the socket's end of the pipeline (right after TLS, when
/// the service speaks it), where it sees the bytes as they arrive, before SwiftNIO's HTTP/1 codec
/// has made a head of them.
///
/// Deadlines, as nginx's:
/// - waiting for the first request: the header timeout from the connection's opening;
/// - between requests (keep-alive): the idle timeout from the last answer, then, as soon as a
///   byte of the next head arrives, the header timeout from that byte;
/// - a request in progress (its head read, its answer not written yet): its body must have
///   arrived in full within the body timeout (`--request-timeout`) from the read that brought
///   its head; once it has,
///   none, so that no answer is cut (a streaming batch stops itself at `--request-timeout`).
///
/// A connection that sent part of a head, or part of a body, when its deadline passes is
/// answered 408 (a problem+json body, `Connection: close`) and closed; one that sent nothing is
/// closed without a word, as no request was made. (A body that times out behind a pipelined
/// request still unanswered is closed without a 408, which would overtake that answer.)
///
/// One timer per connection, moved lazily: a request only stores its time, and the timer, when
/// it fires early, is set again for the deadline then current. Confined to the connection's
/// event loop, and timed by its clock (`EventLoop.now`), which a test's event loop can move.
///
/// Inbound only, so that a connection's writes, flushes and reads pass it by.
final class ConnectionDeadlines: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limits: ConnectionLimits
    private let bodyTimeout: Duration
    private let registry: ConnectionRegistry
    private let serverName: String
    private var record: ConnectionRecord?
    /// Requests whose head has been read and whose answer has not been written.
    private var requestsInProgress = 0
    /// Bytes of a request head have arrived while no request was in progress.
    private var headStarted = false
    /// The head begun between requests has its header deadline.
    private var headTimed = false
    /// At least one request has been answered: the wait is for the next one (idle).
    private var answeredOne = false
    /// A request head has been read, not yet its end.
    private var readingRequest = false
    private var deadline = NIODeadline.distantFuture
    private var timer: Scheduled<Void>?
    private var timerDeadline = NIODeadline.distantFuture
    private var closing = false
    private var context: ChannelHandlerContext?

    init(limits: ConnectionLimits, bodyTimeout: Duration, registry: ConnectionRegistry, serverName: String) {
        self.limits = limits
        self.bodyTimeout = bodyTimeout
        self.registry = registry
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if requestsInProgress == 0 { headStarted = true }
        context.fireChannelRead(data)
    }

    /// The codec has passed on all it made of this read. A head begun and not finished, or a
    /// request whose body is still to come, gets its deadline now: a request read whole in one
    /// go, as GETs are, costs no clock and no timer.
    func channelReadComplete(context: ChannelHandlerContext) {
        if requestsInProgress == 0 {
            // Between requests, the next head has the header timeout from the read that began it.
            if headStarted, answeredOne, !headTimed {
                headTimed = true
                setDeadline(context.eventLoop.now + limits.headerTimeout.timeAmount, context: context)
            }
        } else if readingRequest, deadline == .distantFuture {
            setDeadline(context.eventLoop.now + bodyTimeout.timeAmount, context: context)
        }
        context.fireChannelReadComplete()
    }

    /// Notes a step of a request; called on the connection's event loop.
    func note(_ activity: RequestActivity) {
        guard let context else { return }
        switch activity {
        case .headRead:
            requestsInProgress += 1
            headStarted = false
            headTimed = false
            readingRequest = true
            deadline = .distantFuture
            if requestsInProgress == 1 { record?.markBusy() }
        case .requestRead:
            readingRequest = false
            if requestsInProgress > 0 { deadline = .distantFuture }
        case .answerWritten:
            guard requestsInProgress > 0 else { return }
            requestsInProgress -= 1
            answeredOne = true
            if requestsInProgress == 0 {
                let now = context.eventLoop.now
                record?.markUnused(at: now.uptimeNanoseconds)
                setDeadline(now + limits.idleTimeout.timeAmount, context: context)
            }
        }
    }

    /// Registers the connection (it may be refused at the cap) and starts the header timeout.
    private func start(context: ChannelHandlerContext) {
        guard record == nil, !closing else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let contextBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let record = ConnectionRecord {
            loopBound.eventLoop.execute { loopBound.value.evict(context: contextBound.value) }
        }
        let now = context.eventLoop.now
        record.markUnused(at: now.uptimeNanoseconds)
        guard registry.admit(record) else {
            closing = true
            context.close(promise: nil)
            return
        }
        self.record = record
        setDeadline(now + limits.headerTimeout.timeAmount, context: context)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if let record {
            registry.remove(record)
            self.record = nil
        }
    }

    /// Closes the connection to make room at the cap, unless a request began meanwhile.
    private func evict(context: ChannelHandlerContext) {
        guard requestsInProgress == 0, !closing, record != nil else { return }
        close(.evictedAtCap, context: context)
    }

    private func setDeadline(_ deadline: NIODeadline, context: ChannelHandlerContext) {
        self.deadline = deadline
        // A pending timer that fires no later than the new deadline will set itself again.
        if deadline == .distantFuture || (timer != nil && timerDeadline <= deadline) { return }
        timer?.cancel()
        timerDeadline = deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            timerDeadline = .distantFuture
            deadlinePassed(context: context)
        }
    }

    private func deadlinePassed(context: ChannelHandlerContext) {
        guard !closing, record != nil else { return }
        guard context.eventLoop.now >= deadline else {
            setDeadline(deadline, context: context)
            return
        }
        if requestsInProgress > 0 {
            guard readingRequest else { return }
            if requestsInProgress == 1 {
                answerTimeout(
                    .bodyTimeout,
                    detail:
                        "the request body did not arrive within \(bodyTimeout.secondsText) s (geoq serve --request-timeout)",
                    context: context)
            } else {
                close(.bodyTimeout, context: context)
            }
        } else if headStarted {
            answerTimeout(
                .headerTimeout,
                detail:
                    "the request head did not arrive within \(limits.headerTimeout.secondsText) s (geoq serve --header-timeout)",
                context: context)
        } else {
            close(answeredOne ? .idleTimeout : .noRequest, context: context)
        }
    }

    private func close(_ reason: ConnectionCounters.Reason, context: ChannelHandlerContext) {
        closing = true
        registry.counters.close(reason)
        context.close(promise: nil)
    }

    /// A 408 problem saying `detail`, then the connection closed once it has been written.
    private func answerTimeout(_ reason: ConnectionCounters.Reason, detail: String, context: ChannelHandlerContext) {
        closing = true
        registry.counters.close(reason)
        let problem = Problem.requestTimeout(detail)
        let body = Responses.encode(problem) ?? Data()
        var date = HTTPDate()
        var head = "HTTP/1.1 408 Request Timeout\r\nContent-Type: \(Problem.mediaType)\r\n"
        head += "Content-Length: \(body.count)\r\nConnection: close\r\nDate: \(date.now())\r\n"
        head += "Server: \(serverName)"
        var buffer = context.channel.allocator.buffer(
            capacity: head.utf8.count + SecurityHeaders.headLines.count + 4 + body.count)
        buffer.writeString(head)
        buffer.writeBytes(SecurityHeaders.headLines)
        buffer.writeStaticString("\r\n\r\n")
        buffer.writeBytes(body)
        context.writeAndFlush(NIOAny(IOData.byteBuffer(buffer))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

extension Duration {
    /// The span in seconds as a person writes it: `60`, `0.5`.
    fileprivate var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// The same span as SwiftNIO's `TimeAmount` (nanoseconds).
    fileprivate var timeAmount: TimeAmount {
        .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
