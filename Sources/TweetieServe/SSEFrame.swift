import NIOCore

/// One feed message framed as a Server-Sent Event, encoded once and shared by every client.
struct SSEFrame: Sendable {
    /// `event: …\nid: …\ndata: …\n\n`, or a keep-alive comment.
    var bytes: ByteBuffer
    /// When the message arrived from the store (`nil` for keep-alives and snapshots made for one client).
    var arrived: ContinuousClock.Instant?

    /// The frame of `event`.
    init(_ event: FeedEvent, arrived: ContinuousClock.Instant?) {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(event.json.count + 64)
        buffer.writeString("event: \(event.name)\nid: \(event.position)\ndata: ")
        buffer.writeBytes(event.json)
        buffer.writeString("\n\n")
        bytes = buffer
        self.arrived = arrived
    }

    private init(comment: String) {
        bytes = ByteBuffer(string: ": \(comment)\n\n")
        arrived = nil
    }

    /// The comment sent to an idle client every ``TweetieServer/Configuration/keepAliveInterval``.
    static let keepAlive = SSEFrame(comment: "keep-alive")
}
