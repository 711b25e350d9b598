import Glibc
import Logging
import NIOCore

/// Decides when the listening socket accepts: at most ``limit`` connections at once (every kind:
/// streams, snapshots, the page, idle keep-alives), and, when accepting fails for want of
/// descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`), not at all for ``pause``.
///
/// Past the limit the server does not accept: new connections wait in the kernel's listen backlog
/// (and, when it is full, their SYNs go unanswered and are retried) until a connection closes.
/// Hummingbird's listener has NIO's `AcceptBackoffHandler`, but that handler cannot stop a failed
/// accept from spinning: the server channel's read stays pending after an accept error, so NIO
/// keeps it registered for readability and epoll reports the waiting connection again at once (a
/// core at 100 %, thousands of failing `accept4` a second, no request answered). Turning `autoRead`
/// off is what unregisters it; this handler does that for the pause and turns it back on after.
/// The first pause is logged (a warning); ``ServeMetrics/acceptPauses`` counts them all.
///
/// It also ends a graceful shutdown that its connections would hold up: on ``CloseAll`` it closes,
/// after a grace period, every connection still open. A response (an event stream's end, a large
/// snapshot) to a client that reads nothing never finishes, and Hummingbird waits for it.
///
/// It sits first in the listener's pipeline, so that every read request passes it and every accept
/// error reaches it before the backoff handler. It sets `maxMessagesPerRead` to 1, so that each
/// accepted connection passes the gate. Connections accepted before it is added (between the bind
/// and the listening line, a few at most: the listener buffers ten) are not counted.
final class ConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel
    typealias OutboundIn = Never

    /// The user outbound event that closes, after `grace`, every connection open then.
    struct CloseAll: Sendable {
        var grace: TimeAmount
    }

    /// The most connections at once.
    let limit: Int
    /// How long accepting stops after it failed.
    let pause: TimeAmount
    private let metrics: ServeMetrics
    private let logger: Logger
    private var open: [ObjectIdentifier: any Channel] = [:]
    private var pauseEnd: Scheduled<Void>?
    /// A read was asked for while the gate was shut; it is made when the gate opens.
    private var readHeld = false
    private var logged = false

    init(limit: Int, pause: TimeAmount = .milliseconds(250), metrics: ServeMetrics, logger: Logger) {
        self.limit = limit
        self.pause = pause
        self.metrics = metrics
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        _ = try? context.channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        open[ObjectIdentifier(connection)] = connection
        metrics.connections.increment()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        connection.closeFuture.hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
            let (gate, context) = bound.value
            gate.open[ObjectIdentifier(connection)] = nil
            gate.metrics.connections.decrement()
            gate.openIfPossible(context: context)
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        guard pauseEnd == nil, open.count < limit else {
            readHeld = true
            return
        }
        context.read()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        metrics.acceptPauses.increment()
        if !logged {
            logged = true
            logger.warning("""
                cannot accept a connection: \(String(cString: strerror(error.errnoCode))) (\(open.count) connections open, \
                at most \(limit)); accepting stops for \(pause.nanoseconds / 1_000_000) ms each time this happens \
                (logged once; tweetie_serve_accept_pauses_total counts them)
                """)
        }
        guard pauseEnd == nil else { return }
        _ = try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        readHeld = true
        pauseEnd = context.eventLoop.assumeIsolated().scheduleTask(in: pause) { [self] in
            pauseEnd = nil
            openIfPossible(context: context)
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let closeAll = event as? CloseAll else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: closeAll.grace) { [self] in
            for connection in open.values { connection.close(promise: nil) }
        }
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pauseEnd?.cancel()
        pauseEnd = nil
        context.fireChannelInactive()
    }

    /// Makes the held read when the gate is open.
    private func openIfPossible(context: ChannelHandlerContext) {
        guard readHeld, pauseEnd == nil, open.count < limit, context.channel.isActive else { return }
        readHeld = false
        if let options = context.channel.syncOptions, (try? options.getOption(ChannelOptions.autoRead)) == false {
            // After a pause: registers the listener for reading again, and reads.
            _ = try? options.setOption(ChannelOptions.autoRead, value: true)
        } else {
            context.read()
        }
    }
}
