import Hummingbird
import NIOCore

/// The context of one request: Hummingbird's core context and the connection, so that an event
/// stream whose client went away ends at once instead of at its next write.
struct ServeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    private let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Completes when the connection closes, for whatever reason (the client closed or reset it,
    /// the server is stopping).
    var connectionClosed: EventLoopFuture<Void> { channel.closeFuture }

    /// Marks the connection as carrying an event stream: from now on the client's end of input
    /// closes it (``EventStreamCloser``).
    func startEventStream() {
        channel.triggerUserOutboundEvent(EventStreamCloser.Started(), promise: nil)
    }
}
