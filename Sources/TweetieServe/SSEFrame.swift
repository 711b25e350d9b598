import NIOCore

/// One feed message framed as a Server-Sent Event, encoded once and shared by every client.
///
/// A frame is a value, but its bytes are one buffer: every copy of a frame (in each client's
/// queue, in NIO's pending writes of each connection) refers to the same storage, and the storage
/// is freed when the last one goes.
struct SSEFrame: Sendable {
    /// `event: …\nid: …\ndata: …\n\n`, or a keep-alive comment.
    var bytes: ByteBuffer
    /// When the message arrived from the store (`nil` for keep-alives and snapshots).
    var arrived: ContinuousClock.Instant?
    /// Where the message JSON is in ``bytes``, from its reader index.
    private var dataRange: Range<Int>

    /// The frame of `event`.
    init(_ event: FeedEvent, arrived: ContinuousClock.Instant?) {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(event.json.count + 64)
        buffer.writeString("event: \(event.name)\nid: \(event.position)\ndata: ")
        let start = buffer.readableBytes
        buffer.writeBytes(event.json)
        dataRange = start..<buffer.readableBytes
        buffer.writeString("\n\n")
        bytes = buffer
        self.arrived = arrived
    }

    private init(comment: String) {
        bytes = ByteBuffer(string: ": \(comment)\n\n")
        arrived = nil
        dataRange = 0..<0
    }

    /// The message JSON alone (a snapshot's answer to a plain `GET`): a view of the frame's
    /// storage, not a copy.
    var data: ByteBuffer {
        bytes.getSlice(at: bytes.readerIndex + dataRange.lowerBound, length: dataRange.count)!
    }

    /// The comment sent to an idle client every ``TweetieServer/Configuration/keepAliveInterval``.
    static let keepAlive = SSEFrame(comment: "keep-alive")
}
