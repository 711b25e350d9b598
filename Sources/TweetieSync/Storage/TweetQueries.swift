import Foundation

/// Ready-made queries over stored tweets.
///
/// ```swift
/// let page = try store.read { try $0.fetch(TweetQueries.timeline(author: "icanzilb", limit: 50)) }
/// ```
public enum TweetQueries {
    /// Tweets newest first, optionally by one author, within `[since, until)`, containing a text
    /// (case-insensitive), after the tweet `last` of the same listing, at most `limit`. Served by
    /// the `author` or `created` index.
    ///
    /// `last` pages through a timeline without holding a read transaction between pages: the
    /// `created` and `author` indexes order tweets of one instant by ascending id, so the tweets
    /// after `last` are those created before it, or at the same instant with a larger id.
    ///
    /// ```swift
    /// TweetQueries.timeline(since: yesterday, containing: "swift", limit: 20)
    ///
    /// // Every tweet, 500 per short read transaction:
    /// var last: Tweet?
    /// while true {
    ///     let page = try store.read { try $0.fetch(TweetQueries.timeline(after: last, limit: 500)) }
    ///     if page.isEmpty { break }
    ///     render(page)
    ///     last = page.last
    /// }
    /// ```
    public static func timeline(author: String? = nil, since: Date? = nil, until: Date? = nil,
                                containing text: String? = nil, after last: Tweet? = nil, limit: Int? = nil) -> Query<Tweet> {
        // The newest end: `until` (excluded) or, after `last`, its instant (included: ties go on by id).
        var upper = until, upperInclusive = false
        if let last, until.map({ last.created < $0 }) ?? true { (upper, upperInclusive) = (last.created, true) }
        var query: Query<Tweet>
        let bounded = since != nil || upper != nil
        if let author {
            let key = author.lowercased()
            query = bounded
                ? Query<Tweet>().filter(Tweet.byAuthor, equals: key, from: since, to: upper, upperInclusive: upperInclusive)
                : Query<Tweet>().filter(Tweet.byAuthor, equals: key)
            query = query.sorted(by: Tweet.byAuthor)
        } else {
            query = bounded ? Query<Tweet>().filter(Tweet.byCreated, from: since, to: upper, upperInclusive: upperInclusive) : Query<Tweet>()
            query = query.sorted(by: Tweet.byCreated)
        }
        if let last {
            let created = last.created, id = last.id
            query = query.filter { $0.created != created || $0.id > id }
        }
        if let text, !text.isEmpty {
            query = query.filter { $0.text.localizedCaseInsensitiveContains(text) }
        }
        return query.limit(limit)
    }
}
