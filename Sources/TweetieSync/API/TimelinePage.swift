/// One response of a timeline request.
///
/// ```swift
/// let page = try await api.timeline(of: list, cursor: TimelineCursor(sinceId: newest))
/// let report = try await TimelineIngest.ingest(page, list: list, into: store)  // upserts and deletes
/// ```
public struct TimelinePage: Sendable, Hashable {
    /// The statuses returned, newest first (a source may append edited older statuses after the new ones).
    ///
    /// ```swift
    /// let ids = page.tweets.map(\.id)
    /// ```
    public var tweets: [Tweet]
    /// Ids of statuses the source reports as deleted (REST sources return none).
    ///
    /// ```swift
    /// for id in page.deletedIds { remove(id) }
    /// ```
    public var deletedIds: [Int64]
    /// Elements of the response that could not be decoded and were left out.
    ///
    /// ```swift
    /// if !page.dropped.isEmpty { logger.warning("\(page.dropped.count) statuses dropped") }
    /// ```
    public var dropped: [DroppedElement]

    /// Creates a page.
    ///
    /// ```swift
    /// let empty = TimelinePage(tweets: [], deletedIds: [], dropped: [])
    /// ```
    public init(tweets: [Tweet], deletedIds: [Int64] = [], dropped: [DroppedElement] = []) {
        self.tweets = tweets
        self.deletedIds = deletedIds
        self.dropped = dropped
    }
}
