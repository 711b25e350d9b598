/// Why a snapshot was sent: its `reason` on the wire.
///
/// ```swift
/// if message.reason == .reset { print("started over") }
/// ```
public enum FeedSnapshotReason: String, Codable, Sendable, Hashable {
    /// The feed's first message.
    case initial
    /// The feed fell behind the change log, or resumed from a position it cannot continue from,
    /// and starts over.
    case reset
}
