/// Which part of a timeline to request, with Twitter's `since_id` / `max_id` semantics.
///
/// `sinceId` asks for statuses with `id > sinceId` (newer than what you have); `maxId` for
/// statuses with `id <= maxId` (older pages; pass the oldest id you have minus one). Both may
/// be set; then both bounds apply. An empty cursor asks for the newest page.
///
/// ```swift
/// let newest = TimelineCursor()
/// let refresh = TimelineCursor(sinceId: newestStoredId)
/// let older = TimelineCursor(maxId: oldestStoredId - 1)
/// ```
public struct TimelineCursor: Hashable, Sendable, Codable {
    /// Upper bound, inclusive: only statuses with `id <= maxId`.
    ///
    /// ```swift
    /// let older = TimelineCursor(maxId: 1071325319259414527)
    /// ```
    public var maxId: Int64?
    /// Lower bound, exclusive: only statuses with `id > sinceId`.
    ///
    /// ```swift
    /// let refresh = TimelineCursor(sinceId: 1071325319259414528)
    /// ```
    public var sinceId: Int64?

    /// Creates a cursor; both bounds default to none.
    ///
    /// ```swift
    /// let cursor = TimelineCursor(maxId: nil, sinceId: 42)
    /// ```
    public init(maxId: Int64? = nil, sinceId: Int64? = nil) {
        self.maxId = maxId
        self.sinceId = sinceId
    }

    /// Whether a status id lies inside this cursor's bounds.
    ///
    /// ```swift
    /// TimelineCursor(sinceId: 10).contains(11)   // true
    /// TimelineCursor(maxId: 10).contains(11)     // false
    /// ```
    public func contains(_ id: Int64) -> Bool {
        if let sinceId, id <= sinceId { return false }
        if let maxId, id > maxId { return false }
        return true
    }
}
