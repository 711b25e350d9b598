import NIOCore
import NIOHTTP1

/// Frames the answers to HTTP/1.0 requests so that an HTTP/1.0 client can read them.
///
/// Hummingbird answers every request as HTTP/1.1, and NIO frames a body of unknown length (an event
/// stream) with `Transfer-Encoding: chunked`, which an HTTP/1.0 client cannot read (RFC 9112 §6.1:
/// a server must not send it to one). For an HTTP/1.0 request this handler makes such a body
/// close-delimited instead: the status line says `HTTP/1.0` (so NIO adds no chunked framing), the
/// head says `Connection: close`, and the connection is closed when the body ends. It also closes
/// the connection after any answer to an HTTP/1.0 request that did not ask for keep-alive, as
/// HTTP/1.0 expects. Answers with a `Content-Length` keep their `HTTP/1.1` status line.
///
/// It sits between NIO's HTTP/1 decoder and Hummingbird's HTTP types codec, the last place that
/// knows the request's version (``Installer`` puts it there).
final class HTTP10Framing: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The heads of the requests not answered yet, oldest first.
    private var requests = CircularBuffer<HTTPRequestHead>()
    private var closeAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { requests.append(head) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200:
            guard let request = requests.popFirst(), request.version.major == 1, request.version.minor == 0 else {
                context.write(data, promise: promise)
                return
            }
            let closeDelimited = !head.headers.contains(name: "content-length")
            closeAfterResponse = closeDelimited || !request.isKeepAlive
            if closeDelimited { head.version = .http1_0 }
            if closeAfterResponse { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closeAfterResponse:
            closeAfterResponse = false
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
            context.write(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Added among Hummingbird's extra handlers (after its codec, where the version is gone): puts
    /// an ``HTTP10Framing`` right after NIO's HTTP/1 request decoder; then only passes messages on.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            do {
                let pipeline = context.pipeline.syncOperations
                let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                try pipeline.addHandler(HTTP10Framing(), position: .after(decoder))
            } catch {
                context.fireErrorCaught(error)
            }
        }
    }
}
