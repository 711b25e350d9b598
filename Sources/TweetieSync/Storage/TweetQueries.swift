import Foundation

/// Ready-made queries over stored tweets.
///
/// ```swift
/// let page = try store.read { try $0.fetch(TweetQueries.timeline(author: "icanzilb", limit: 50)) }
/// ```
public enum TweetQueries {
    /// Tweets newest first, optionally by one author, within `[since, until)`, containing a text
    /// (case-insensitive), at most `limit`. Served by the `author` or `created` index.
    ///
    /// ```swift
    /// TweetQueries.timeline(since: yesterday, containing: "swift", limit: 20)
    /// ```
    public static func timeline(author: String? = nil, since: Date? = nil, until: Date? = nil,
                                containing text: String? = nil, limit: Int? = nil) -> Query<Tweet> {
        var query: Query<Tweet>
        let bounded = since != nil || until != nil
        if let author {
            let key = author.lowercased()
            query = bounded
                ? Query<Tweet>().filter(index: "author", equals: [key], from: since, to: until, upperInclusive: false)
                : Query<Tweet>().filter(index: "author", equals: key)
            query = query.sorted(byIndex: "author")
        } else {
            query = bounded ? Query<Tweet>().filter(index: "created", from: since, to: until, upperInclusive: false) : Query<Tweet>()
            query = query.sorted(byIndex: "created")
        }
        if let text, !text.isEmpty {
            query = query.filter { $0.text.localizedCaseInsensitiveContains(text) }
        }
        return query.limit(limit)
    }
}
