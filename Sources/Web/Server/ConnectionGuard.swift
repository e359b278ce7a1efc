import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Foundation

/// One connection's limits below authentication, carried out on its event loop: its
/// `ConnectionClock` fed by two handlers — `RawBytes` at the front of the pipeline (any byte, before
/// a head is whole) and `RequestParts` after the HTTP decoder (heads, ends, answers) — one timer at
/// the clock's deadline, and its place in the server's `ConnectionTable`. A request the decoder
/// cannot frame before any route runs (a head too large, an unknown transfer coding) is answered
/// here, with a sentence, and the connection closed. An answer that ends before its request's body
/// says `Connection: close`, and the connection lingers (`ConnectionClock.lingering`): its output is
/// shut, so the answer is delivered whole, and what still comes is read and dropped until the client
/// closes or the time is up. Closing at once, with unread bytes, would reset the connection, and a
/// reset can throw away the answer before the client reads it.
final class ConnectionGuard {
    private var clock: ConnectionClock
    private let table: ConnectionTable
    private let logger: Logger
    private var timer: Scheduled<Void>?
    private var timerDeadline: ContinuousClock.Instant?
    private var context: ChannelHandlerContext?

    init(limits: ConnectionClock.Limits, table: ConnectionTable, logger: Logger) {
        clock = ConnectionClock(limits: limits, opened: .now)
        self.table = table
        self.logger = logger
    }

    fileprivate func opened(_ context: ChannelHandlerContext) {
        guard self.context == nil else { return }
        self.context = context
        clock = ConnectionClock(limits: clock.limits, opened: .now)
        if let victim = table.admit(context.channel) {
            logger.debug("too many connections: closing the one quiet longest", metadata: ["connections": "\(table.capacity)"])
            victim.close(promise: nil)
        }
        arm()
    }

    fileprivate func closed(_ channel: any Channel) {
        timer?.cancel()
        timer = nil
        table.remove(channel)
    }

    fileprivate func bytesArrived() {
        clock.bytesArrived(at: .now)
        arm()
    }

    fileprivate func headArrived(_ channel: any Channel) {
        clock.headArrived(at: .now)
        if clock.openRequests == 1 { table.mark(channel, busy: true) }
        arm()
    }

    fileprivate func requestEnded() {
        clock.requestEnded()
        arm()
    }

    fileprivate func responseEnded(_ channel: any Channel) {
        clock.responseEnded(at: .now)
        if clock.isQuiet { table.mark(channel, busy: false) }
        arm()
    }

    fileprivate var isQuiet: Bool { clock.isQuiet }
    fileprivate var isReadingBody: Bool { clock.readingBody }
    fileprivate var isLingering: Bool { clock.lingeringSince != nil }

    /// The answer is written while its request's body still comes: shut the output (the client
    /// reads the answer and the end of it), then read and drop until the client closes or the
    /// lingering time is up.
    fileprivate func answeredBeforeItsBody() {
        clock.answeredBeforeItsBody(at: .now)
        guard let context else { return }
        context.close(mode: .output, promise: nil)
        context.read()
        arm()
    }

    /// Schedules the timer at the clock's deadline when none runs earlier; a timer that fires early
    /// (the deadline moved on) sets itself again.
    private func arm() {
        guard let context, let deadline = clock.deadline else { return }
        if let timerDeadline, timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        let delay = max(.zero, ContinuousClock.now.duration(to: deadline))
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(delay / .nanoseconds(1)))) { [self] in
            timer = nil
            timerDeadline = nil
            guard let deadline = clock.deadline else { return }
            if deadline <= .now {
                logger.debug("connection closed", metadata: ["reason": "\(clock.reason)"])
                context.close(promise: nil)
            } else {
                arm()
            }
        }
    }

    /// The bytes as they come off the socket: the clock of a head not yet whole.
    final class RawBytes: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        private let connection: ConnectionGuard

        init(_ connection: ConnectionGuard) { self.connection = connection }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { connection.opened(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            connection.opened(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            connection.closed(context.channel)
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !connection.isLingering else { return }
            connection.bytesArrived()
            context.fireChannelRead(data)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            // Lingering, the bytes go nowhere, so nothing downstream asks for more: this does.
            guard !connection.isLingering else { return context.read() }
            context.fireChannelReadComplete()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if connection.isLingering, case ChannelEvent.inputClosed = event {
                return context.close(promise: nil)
            }
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The decoded requests and their answers; refuses what no route should see.
    final class RequestParts: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart
        private let connection: ConnectionGuard
        /// Once a request is refused here, nothing more is read.
        private var refused = false

        init(_ connection: ConnectionGuard) { self.connection = connection }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !refused else { return }
            let part = unwrapInboundIn(data)
            switch part {
            case .head(let head):
                if let coding = head.headerFields[.transferEncoding], coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked" {
                    return refuse(context, .notImplemented, "the transfer coding '\(coding.prefix(100))' is not supported: "
                        + "send the body with Content-Length or Transfer-Encoding: chunked.")
                }
                connection.headArrived(context.channel)
            case .end:
                connection.requestEnded()
            case .body:
                break
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .head(var head) where connection.isReadingBody && head.status.kind != .informational:
                // An answer before its request's body is whole (a form or an upload refused
                // midway) ends the connection: reading the rest to go on would let a client send
                // for ever. It says so.
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            case .end:
                let unread = connection.isReadingBody
                connection.responseEnded(context.channel)
                guard unread else { return context.write(data, promise: promise) }
                context.writeAndFlush(data).assumeIsolated().whenComplete { [connection] result in
                    promise?.completeWith(result)
                    connection.answeredBeforeItsBody()
                }
            default:
                context.write(data, promise: promise)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // Inside a request its route answers (ErrorMiddleware); before one, nothing would.
            guard let error = error as? HTTPParserError, connection.isQuiet, !refused else {
                return context.fireErrorCaught(error)
            }
            if error == .headerOverflow {
                refuse(context, .requestHeaderFieldsTooLarge, "the request's head is larger than this server takes "
                    + "(\(WebServer.headLimits.maxHeaderListSize / 1024) KB in all, "
                    + "\(WebServer.headLimits.maxHeaderFieldSize / 1024) KB a field, \(WebServer.headLimits.maxHeaderFieldCount) fields).")
            } else {
                refuse(context, .badRequest, "the request cannot be read as HTTP/1.1 (\(error)).")
            }
        }

        /// Answers `status` with `message` and closes the connection.
        private func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponse.Status, _ message: String) {
            refused = true
            let body = ByteBuffer(string: message + "\n")
            let head = HTTPResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8",
                                                                   .contentLength: String(body.readableBytes), .connection: "close"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
