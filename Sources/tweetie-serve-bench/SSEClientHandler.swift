import NIOCore

/// One SSE client of the bench: sends the request, then scans the stream for `id:` lines and tells
/// the tracker the newest id of each read.
final class SSEClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let index: Int
    let tracker: DeliveryTracker
    let port: Int
    private var carry = [UInt8]()
    private var readBytes = 0
    private static let idPrefix = Array("id: ".utf8)

    init(index: Int, tracker: DeliveryTracker, port: Int) {
        self.index = index
        self.tracker = tracker
        self.port = port
    }

    func channelActive(context: ChannelHandlerContext) {
        let request = "GET /feeds/list HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        // Lines may be split across reads (and chunk-size lines interleave): keep the last partial line.
        carry.append(contentsOf: buffer.readableBytesView)
        readBytes += buffer.readableBytes
        var start = 0
        var newest: UInt64 = 0
        for index in carry.indices where carry[index] == 0x0A {
            let line = carry[start..<index]
            // An id is a position, SEQUENCE.COMMITID: its sequence is what the bench counts.
            if line.starts(with: Self.idPrefix),
               let id = UInt64(String(decoding: line.dropFirst(4).prefix { $0 != UInt8(ascii: ".") }, as: UTF8.self)) {
                newest = max(newest, id)
            }
            start = index + 1
        }
        carry.removeFirst(start)
        if newest > 0 {
            tracker.received(id: newest, client: self.index, bytes: readBytes)
            readBytes = 0
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
