import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// A client connection over TLS (SwiftNIO's own client, trusting one CA), for tests that need
/// what an HTTP client never does over TLS: finish the handshake and then send nothing, or part
/// of a request head, and see when the server closes.
final class TLSConnection: Sendable {
    /// What the connection has seen, written on its event loop and read by the test.
    struct Seen {
        var received: [UInt8] = []
        var closedAt: ContinuousClock.Instant?
    }

    private let channel: any Channel
    private let recorder: Recorder
    /// When the TCP connection was made (before the handshake).
    let openedAt: ContinuousClock.Instant

    private init(channel: any Channel, recorder: Recorder, openedAt: ContinuousClock.Instant) {
        self.channel = channel
        self.recorder = recorder
        self.openedAt = openedAt
    }

    /// Connects to 127.0.0.1:`port` and completes the TLS handshake, trusting `ca` only and
    /// checking the certificate is made out to `localhost`.
    static func open(port: Int, trusting ca: URL) async throws -> TLSConnection {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .file(ca.path)
        let context = try NIOSSLContext(configuration: configuration)
        let recorder = Recorder()
        let openedAt = ContinuousClock.now
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                    try channel.pipeline.syncOperations.addHandler(recorder)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await recorder.handshake.futureResult.get()
        return TLSConnection(channel: channel, recorder: recorder, openedAt: openedAt)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text))
    }

    var received: [UInt8] { recorder.seen.withLock { $0.received } }
    var text: String { String(decoding: received, as: UTF8.self) }
    var closedAt: ContinuousClock.Instant? { recorder.seen.withLock { $0.closedAt } }
    var closedByServer: Bool { closedAt != nil }

    /// Waits until the server has closed the connection or `seconds` have passed.
    func waitForClose(within seconds: Double) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !closedByServer, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// Waits until `count` bytes or more have arrived (or the connection closed), `seconds` at most.
    func waitForBytes(_ count: Int, within seconds: Double) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while received.count < count, !closedByServer, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func close() async {
        try? await channel.close()
    }

    /// Notes the handshake, the plaintext received and the close, on the connection's event loop.
    private final class Recorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        let seen = Mutex(Seen())
        let handshake = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event { handshake.succeed() }
            context.fireUserInboundEventTriggered(event)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            seen.withLock { $0.received += bytes.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            seen.withLock { $0.closedAt = .now }
            handshake.fail(ChannelError.ioOnClosedChannel)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            handshake.fail(error)
            context.close(promise: nil)
        }
    }
}
