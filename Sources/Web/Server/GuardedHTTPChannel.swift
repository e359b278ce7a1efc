import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with `ConnectionGuard` in its pipeline: the same handlers
/// `HTTP1Channel` installs (the decoder with this server's head limits, the HTTPTypes codec, the
/// connection-state handler that quiesces on shutdown) plus the guard's two handlers and
/// `ContinueHandler`. `HTTP1Channel` takes extra handlers only after the decoder, and made once for
/// all connections, where the guard needs one per connection and the raw bytes before the decoder.
struct GuardedHTTPChannel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionClock.Limits
    let table: ConnectionTable

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let connection = ConnectionGuard(limits: limits, table: table, logger: logger)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionGuard.RawBytes(connection))
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                     withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
                                                     withDecoderLimitConfiguration: WebServer.headLimits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(ConnectionGuard.RequestParts(connection))
            try pipeline.addHandler(ContinueHandler())
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
