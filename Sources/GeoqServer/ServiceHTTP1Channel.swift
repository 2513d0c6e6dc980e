import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOSSL

/// Hummingbird's HTTP/1 connection with the service's GET endpoints answered inside it.
///
/// The same pipeline as Hummingbird's own `HTTP1Channel` (SwiftNIO's HTTP/1 codec, the
/// conversion to Swift HTTP Types, Hummingbird's connection state handler, then its async
/// request loop), with ``InlineAnswerHandler`` placed right after the codec. Hummingbird's public
/// hook for extra handlers puts them after the conversion; answering before it spares each
/// answered request the conversion of its head and of the answer's (measured: about a fifth of
/// the CPU of a `GET /v1/sector`). ``ConnectionDeadlines`` comes before the codec: it closes
/// connections that wait too long for a request and keeps the connection cap.
///
/// With TLS, SwiftNIO's TLS handler comes first, at the socket's end, with the context current
/// when the connection is set up (``ServiceTLS``). The deadlines come after it: they must see a
/// request head's bytes, not the handshake's (a client that completes the handshake and sends no
/// request is a silent one), and their 408 must be encrypted like any answer. A client that sends
/// nothing, or stops partway through the handshake, is closed at the header timeout all the same.
struct ServiceHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: Responder
    /// The TLS context's owner when the service speaks HTTPS.
    let tls: ServiceTLS?
    /// A new deadline keeper, one per connection.
    let deadlines: @Sendable () -> ConnectionDeadlines
    /// A new inline handler, one per connection.
    let inlineAnswers: @Sendable () -> InlineAnswerHandler

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Hummingbird's HTTP1Channel limits, so that both read requests alike.
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = 80 * 1024
            limits.maxHeaderListSize = 80 * 1024
            limits.maxHeaderFieldCount = 1000
            let pipeline = channel.pipeline.syncOperations
            if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls.context)) }
            // Next to the socket's end (or to TLS): it must see a head's bytes before the codec holds them.
            try pipeline.addHandler(deadlines())
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // the inline handler and Hummingbird keep the order
                withErrorHandling: false,  // Hummingbird answers malformed requests
                withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(inlineAnswers())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: tls != nil))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
