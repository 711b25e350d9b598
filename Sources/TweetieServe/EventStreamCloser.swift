import NIOCore

/// Closes a connection whose client closed its side while an event stream is being written to it.
///
/// Hummingbird keeps a connection open when the client half-closes it (so that a request sent
/// before the close still gets its answer), and reads nothing more while a response is streamed:
/// without this handler a gone SSE client would hold its slot toward `--max-clients` until the
/// next write failed (a message or a keep-alive, up to `--keep-alive` seconds later). An event
/// stream has nothing more to read from its client, so its end of input means the client is gone.
/// The responder marks the connection as streaming with ``Started``.
final class EventStreamCloser: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias OutboundIn = Any

    /// The user outbound event that marks the connection as carrying an event stream.
    struct Started: Sendable {}

    private var streaming = false
    private var inputClosed = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            if streaming { context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is Started else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        streaming = true
        if inputClosed { context.close(promise: nil) }
        promise?.succeed()
    }
}
