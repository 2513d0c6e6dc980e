import Foundation
import NIOCore
import NIOPosix

/// Appends one delivery to a Redis stream (`XADD`) at one address and reads back only whether
/// Redis took it.
///
/// Its own few lines of RESP rather than a client library, for the reasons of ``WebhookClient``:
/// the connection goes to the very address ``DestinationRules`` checked, and nothing Redis says
/// comes back but the entry's id or the error's code (`WRONGTYPE`, `NOAUTH`, `OOM`), never its
/// text. One connection per delivery, closed at the answer.
public final class RedisStreamClient: Sendable {
    /// A delivery as it goes on the wire: `XADD stream [MAXLEN ~ n] * field value ...`.
    public struct Append: Sendable {
        public var stream: String
        /// The stream is trimmed to about this many entries (Redis's `~`: whole nodes), if set.
        public var maxLength: Int?
        public var fields: [(String, Data)]
        public var port: Int

        public init(stream: String, maxLength: Int?, fields: [(String, Data)], port: Int) {
            self.stream = stream
            self.maxLength = maxLength
            self.fields = fields
            self.port = port
        }

        /// The command in RESP: an array of bulk strings.
        var command: ByteBuffer {
            var words = [Data("XADD".utf8), Data(stream.utf8)]
            if let maxLength { words += [Data("MAXLEN".utf8), Data("~".utf8), Data(String(maxLength).utf8)] }
            words.append(Data("*".utf8))
            for (name, value) in fields { words += [Data(name.utf8), value] }
            var buffer = ByteBuffer()
            buffer.writeString("*\(words.count)\r\n")
            for word in words {
                buffer.writeString("$\(word.count)\r\n")
                buffer.writeBytes(word)
                buffer.writeString("\r\n")
            }
            return buffer
        }
    }

    /// Why an append did not land: Redis's error code, or what went wrong with the connection.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private let group: any EventLoopGroup

    public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) { self.group = group }

    /// The id Redis gave the new entry, within `timeout`.
    public func send(_ append: Append, to address: IPAddress, timeout: Duration) async throws(Failure) -> String {
        let socket: SocketAddress
        do { socket = try SocketAddress(ipAddress: address.description, port: append.port) } catch {
            throw Failure(description: "\(address) is not an address to connect to")
        }
        let nanoseconds = Int64(timeout.seconds * 1e9)
        let reply = group.next().makePromise(of: RESPReply.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.nanoseconds(nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ReplyReader(answered: reply))
                }
            }
        do {
            let channel: any Channel
            do { channel = try await bootstrap.connect(to: socket).get() } catch {
                reply.fail(error)
                throw error
            }
            let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                reply.fail(Failure(description: "no answer within \(timeout.seconds) s"))
                channel.close(promise: nil)
            }
            channel.closeFuture.whenComplete { _ in
                reply.fail(Failure(description: "Redis closed the connection before answering"))
            }
            channel.writeAndFlush(append.command, promise: nil)
            defer {
                timer.cancel()
                channel.close(promise: nil)
            }
            switch try await reply.futureResult.get() {
            case .text(let id): return id
            case .error(let code): throw Failure(description: "Redis refused the entry: \(code)")
            }
        } catch let failure as Failure {
            throw failure
        } catch let error as IOError {
            throw Failure(description: "cannot connect: \(String(cString: strerror(error.errnoCode)))")
        } catch let error as NIOConnectionError {
            let codes = error.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
            throw Failure(
                description: "cannot connect: \(codes.first.map { String(cString: strerror($0)) } ?? "no connection")")
        } catch ChannelError.connectTimeout {
            throw Failure(description: "no connection within \(timeout.seconds) s")
        } catch {
            throw Failure(description: "the connection failed")
        }
    }
}

/// The first reply of a RESP stream, as much of it as an append needs.
enum RESPReply: Equatable {
    /// A simple or bulk string (the new entry's id), or an integer's digits.
    case text(String)
    /// An error reply's code: its first word only (`ERR`, `WRONGTYPE`, `NOAUTH`).
    case error(String)

    /// The reply at the start of `bytes`, nil while it is incomplete.
    static func parse(_ bytes: ByteBufferView) throws(RedisStreamClient.Failure) -> RESPReply? {
        guard let first = bytes.first else { return nil }
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\r")), bytes.index(after: end) < bytes.endIndex else {
            return nil
        }
        let line = String(decoding: bytes[bytes.index(after: bytes.startIndex)..<end], as: UTF8.self)
        switch first {
        case UInt8(ascii: "+"), UInt8(ascii: ":"): return .text(line)
        case UInt8(ascii: "-"): return .error(String(line.prefix { $0 != " " }.prefix(32)))
        case UInt8(ascii: "$"):
            guard let count = Int(line), count >= -1 else { break }
            if count == -1 { return .text("") }
            let start = bytes.index(end, offsetBy: 2)
            guard bytes.distance(from: start, to: bytes.endIndex) >= count + 2 else { return nil }
            return .text(String(decoding: bytes[start..<bytes.index(start, offsetBy: count)], as: UTF8.self))
        default: break
        }
        throw RedisStreamClient.Failure(description: "the server does not speak RESP")
    }
}

/// Reads the first reply and closes the connection.
private final class ReplyReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private var answered: EventLoopPromise<RESPReply>?
    private var received = ByteBuffer()

    init(answered: EventLoopPromise<RESPReply>) { self.answered = answered }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        do {
            guard let reply = try RESPReply.parse(received.readableBytesView) else {
                // A reply that never ends is not waited for past a few kilobytes.
                if received.readableBytes > 4096 { fail(context, "the answer is too long") }
                return
            }
            answered?.succeed(reply)
            answered = nil
            context.close(promise: nil)
        } catch {
            fail(context, error.description)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { fail(context, "the connection failed") }

    private func fail(_ context: ChannelHandlerContext, _ text: String) {
        answered?.fail(RedisStreamClient.Failure(description: text))
        answered = nil
        context.close(promise: nil)
    }
}
