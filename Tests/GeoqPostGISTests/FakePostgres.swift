import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A stand-in for a PostgreSQL server's first answers, for what the test cluster cannot show: a
/// server with TLS off (it answers an SSLRequest with `N`, as PostgreSQL does with `ssl = off`)
/// and one whose certificate is signed by another CA or made out to another name. It notes what
/// the client sends (over TLS once agreed), and closes at the startup message.
final class FakePostgres: Sendable {
    enum Offer: Sendable {
        case noTLS
        case tls(NIOSSLContext)
    }

    /// A client's message as the server reads it.
    enum Heard: Sendable, Equatable {
        case sslRequest
        case startup
        case other
    }

    let port: Int
    private let channel: any Channel
    private let log: Log

    private init(channel: any Channel, log: Log) {
        self.channel = channel
        self.log = log
        port = channel.localAddress?.port ?? 0
    }

    /// A server on a free port of 127.0.0.1 offering `offer` to each connection.
    static func start(offering offer: Offer) async throws -> FakePostgres {
        let log = Log()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(FirstMoves(offer: offer, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return FakePostgres(channel: channel, log: log)
    }

    /// What the clients sent, in order.
    var heard: [Heard] { log.heard.withLock { $0 } }

    func stop() async { try? await channel.close() }

    private final class Log: Sendable {
        let heard = Mutex<[Heard]>([])
    }

    /// Reads the client's length-prefixed messages: an SSLRequest is answered as `offer` says
    /// (with TLS, SwiftNIO's server handler goes in front for the rest), a startup message ends
    /// the connection.
    private final class FirstMoves: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        /// PostgreSQL's SSLRequest code and protocol 3.0 (its frontend/backend protocol).
        static let sslRequestCode: UInt32 = 80_877_103
        static let protocol3: UInt32 = 196_608

        let offer: Offer
        let log: Log
        var pending = ByteBuffer()

        init(offer: Offer, log: Log) {
            self.offer = offer
            self.log = log
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            pending.writeBuffer(&bytes)
            while let length = pending.getInteger(at: pending.readerIndex, as: UInt32.self),
                pending.readableBytes >= Int(length), length >= 8,
                let code = pending.getInteger(at: pending.readerIndex + 4, as: UInt32.self)
            {
                pending.moveReaderIndex(forwardBy: Int(length))
                switch code {
                case Self.sslRequestCode:
                    log.heard.withLock { $0.append(.sslRequest) }
                    switch offer {
                    case .noTLS:
                        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "N")), promise: nil)
                    case .tls(let tls):
                        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "S")), promise: nil)
                        try? context.pipeline.syncOperations.addHandler(
                            NIOSSLServerHandler(context: tls), position: .first)
                    }
                case Self.protocol3:
                    log.heard.withLock { $0.append(.startup) }
                    context.close(promise: nil)
                    return
                default:
                    log.heard.withLock { $0.append(.other) }
                    context.close(promise: nil)
                    return
                }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
