/// Which timeline a ``TimelineFetcher`` keeps up to date.
///
/// ```swift
/// let target = TimelineTarget.list(ListIdentifier(username: "icanzilb", slug: "RxSwift"))
/// print(target.description) // "list icanzilb/RxSwift"
/// ```
public enum TimelineTarget: Sendable, Hashable, CustomStringConvertible {
    /// A list's timeline (`lists/statuses.json`); fetched tweets get the list's key in `lists`.
    ///
    /// ```swift
    /// let target = TimelineTarget.list(list)
    /// ```
    case list(ListIdentifier)
    /// One user's timeline (`statuses/user_timeline.json`); fetched tweets keep their stored `lists`.
    ///
    /// ```swift
    /// let target = TimelineTarget.user("icanzilb")
    /// ```
    case user(String)

    /// "list owner/slug" or "user @name".
    ///
    /// ```swift
    /// print(TimelineTarget.user("fpillet").description) // "user @fpillet"
    /// ```
    public var description: String {
        switch self {
        case .list(let list): "list \(list.key)"
        case .user(let username): "user @\(username)"
        }
    }

    /// The stored tweets that belong to this timeline: the list's tweets (by membership), or the
    /// user's tweets (by the `author` index), newest first.
    ///
    /// ```swift
    /// let stored = try store.read { try $0.fetch(TimelineTarget.user("icanzilb").storedTweets) }
    /// ```
    public var storedTweets: Query<Tweet> {
        switch self {
        case .list(let list):
            let key = list.key
            return Query<Tweet>().sorted(by: Tweet.byCreated).filter { $0.lists.contains(key) }
        case .user(let username):
            return Query<Tweet>().filter(Tweet.byAuthor, equals: username.lowercased()).sorted(by: Tweet.byAuthor)
        }
    }

    func fetch(_ api: any TwitterAPI, cursor: TimelineCursor) async throws -> TimelinePage {
        switch self {
        case .list(let list): try await api.timeline(of: list, cursor: cursor)
        case .user(let username): try await api.timeline(of: username, cursor: cursor)
        }
    }

    func ingest(_ page: TimelinePage, into store: Store) async throws -> IngestReport {
        switch self {
        case .list(let list): try await TimelineIngest.ingest(page, list: list, into: store)
        case .user: try await TimelineIngest.ingest(page, list: nil, into: store)
        }
    }
}

extension TimelineTarget {
    /// The highest and lowest tweet ids stored for this timeline, or `nil` when none is stored.
    func storedIdBounds(in store: Store) async throws -> (newest: Int64, oldest: Int64)? {
        let base: Query<Tweet>
        switch self {
        case .list(let list):
            let key = list.key
            base = Query<Tweet>().filter { $0.lists.contains(key) }
        case .user(let username):
            base = Query<Tweet>().filter(Tweet.byAuthor, equals: username.lowercased())
        }
        let newestQuery = base.sorted(byPrimaryKey: .descending).limit(1)
        let oldestQuery = base.sorted(byPrimaryKey: .ascending).limit(1)
        return try await store.read { tx in
            guard let newest = try tx.fetch(newestQuery).first, let oldest = try tx.fetch(oldestQuery).first else { return nil }
            return (newest.id, oldest.id)
        }
    }
}
