/// What a feed message is: its `type` on the wire.
///
/// ```swift
/// if message.type == .snapshot { … }
/// ```
public enum FeedMessageKind: String, Codable, Sendable, Hashable {
    /// Every section, complete: a renderer replaces its copy.
    case snapshot
    /// A changeset to apply to the renderer's copy.
    case change
}
