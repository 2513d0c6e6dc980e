import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 connection with the service's GET endpoints answered inside it.
///
/// The same pipeline as Hummingbird's own `HTTP1Channel` (SwiftNIO's HTTP/1 codec, the
/// conversion to Swift HTTP Types, Hummingbird's connection state handler, then its async
/// request loop), with ``InlineAnswerHandler`` placed right after the codec. Hummingbird's public
/// hook for extra handlers puts them after the conversion; answering before it spares each
/// answered request the conversion of its head and of the answer's (measured: about a fifth of
/// the CPU of a `GET /v1/sector`). ``ConnectionDeadlines`` comes first, before the codec: it
/// closes connections that wait too long for a request and keeps the connection cap.
struct ServiceHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: Responder
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
            // First, at the socket's end: it must see a head's bytes before the codec holds them.
            try pipeline.addHandler(deadlines())
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // the inline handler and Hummingbird keep the order
                withErrorHandling: false,  // Hummingbird answers malformed requests
                withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(inlineAnswers())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
