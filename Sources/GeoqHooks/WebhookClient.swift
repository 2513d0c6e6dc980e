import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// POSTs one delivery to one address and reads back only the status code.
///
/// Its own small HTTP/1.1 client, not URLSession: the connection must go to the very address
/// ``DestinationRules`` checked (a second lookup is what DNS rebinding turns), redirects must
/// never be followed, and nothing of the receiver's answer but its status may come back (it
/// would show in failures, and a hook could read what sits behind the service). The connection
/// is closed as soon as the status line and headers have arrived.
public final class WebhookClient: Sendable {
    /// A delivery as it goes on the wire.
    public struct Post: Sendable {
        public var host: String
        public var port: Int
        public var tls: Bool
        /// The path and query of the URL (`/` when it has none).
        public var target: String
        public var headers: [(String, String)]
        public var body: Data
    }

    private let group: any EventLoopGroup
    private let tlsContext: NIOSSLContext?

    public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.group = group
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        tlsContext = try? NIOSSLContext(configuration: configuration)
    }

    /// What a receiver answered: its status, and the seconds its Retry-After asked for (a number
    /// of seconds or an HTTP date), if any.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var retryAfter: Double?
    }

    /// Why a POST did not get a status.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The receiver's answer to `post` sent to `address`, within `timeout`.
    public func send(_ post: Post, to address: IPAddress, timeout: Duration) async throws(Failure) -> Answer {
        let socket: SocketAddress
        do { socket = try SocketAddress(ipAddress: address.description, port: post.port) } catch {
            throw Failure(description: "\(address) is not an address to connect to")
        }
        let tlsContext = self.tlsContext
        if post.tls, tlsContext == nil { throw Failure(description: "TLS could not be set up") }
        let nanoseconds = Int64(timeout.seconds * 1e9)
        // Completed once: by the status, a failure, the timer or the close, whichever comes first.
        let status = group.next().makePromise(of: Answer.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.nanoseconds(nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if post.tls, let tlsContext {
                        // SNI and the certificate's name check need a name; an address literal has none.
                        let name = IPAddress(post.host) == nil ? post.host : nil
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tlsContext, serverHostname: name))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(StatusReader(answered: status))
                }
            }
        do {
            let channel: any Channel
            do { channel = try await bootstrap.connect(to: socket).get() } catch {
                status.fail(error)
                throw error
            }
            let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                status.fail(Failure(description: "no answer within \(timeout.seconds) s"))
                channel.close(promise: nil)
            }
            channel.closeFuture.whenComplete { _ in
                status.fail(Failure(description: "the receiver closed the connection before answering"))
            }
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: post.target)
            let hostHeader = IPAddress(post.host).map { $0.isIPv4 ? "\($0)" : "[\($0)]" } ?? post.host
            let defaultPort = post.tls ? 443 : 80
            head.headers.add(name: "Host", value: post.port == defaultPort ? hostHeader : "\(hostHeader):\(post.port)")
            head.headers.add(name: "Content-Length", value: String(post.body.count))
            head.headers.add(name: "Connection", value: "close")
            head.headers.add(name: "User-Agent", value: "geoq-webhooks")
            for (name, value) in post.headers { head.headers.add(name: name, value: value) }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: post.body))), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            defer {
                timer.cancel()
                channel.close(promise: nil)
            }
            return try await status.futureResult.get()
        } catch let failure as Failure {
            throw failure
        } catch let error as NIOSSLError {
            throw Failure(description: "TLS failed: \(error)")
        } catch let error as ChannelError {
            throw Failure(description: Self.describe(error, timeout: timeout))
        } catch let error as IOError {
            throw Failure(description: "cannot connect: \(Self.reason(error.errnoCode))")
        } catch let error as NIOConnectionError {
            let codes = error.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
            throw Failure(description: "cannot connect: \(codes.first.map(Self.reason) ?? "no connection")")
        } catch {
            throw Failure(description: "cannot connect: \(type(of: error))")
        }
    }

    /// The answer of the first of `addresses` that takes a connection: a host may resolve to
    /// several, and only a connection never made is worth the next one (any other failure
    /// ends the tries).
    public func send(_ post: Post, toFirstOf addresses: [IPAddress], timeout: Duration) async -> Result<Answer, Failure>
    {
        var failure = Failure(description: "no address")
        for address in addresses {
            do { return .success(try await send(post, to: address, timeout: timeout)) } catch {
                failure = error
                if !error.description.hasPrefix("cannot connect") { break }
            }
        }
        return .failure(failure)
    }

    private static func describe(_ error: ChannelError, timeout: Duration) -> String {
        switch error {
        case .connectTimeout: "no connection within \(timeout.seconds) s"
        default: "the connection failed (\(error))"
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Seconds from now that a Retry-After value asks for: delay-seconds, or an HTTP date.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return Double(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// Reads the status of the answer and closes the connection: the body is never read.
private final class StatusReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    private var answered: EventLoopPromise<WebhookClient.Answer>?

    init(answered: EventLoopPromise<WebhookClient.Answer>) { self.answered = answered }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            answered?.succeed(
                WebhookClient.Answer(
                    status: Int(head.status.code),
                    retryAfter: WebhookClient.retryAfter(head.headers.first(name: "retry-after"))))
            answered = nil
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let text = error is NIOSSLError ? "TLS failed: \(error)" : "the connection failed"
        answered?.fail(WebhookClient.Failure(description: text))
        answered = nil
        context.close(promise: nil)
    }
}
