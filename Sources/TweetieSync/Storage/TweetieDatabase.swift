import Foundation

/// The Tweetie app's database: a `Store` with the `tweets` and `users` collections.
///
/// ```swift
/// let store = try TweetieDatabase.open(at: TweetieDatabase.defaultPath())
/// let newest = try store.read { try $0.fetch(TweetQueries.timeline(limit: 20)) }
/// ```
public enum TweetieDatabase {
    /// The record types stored.
    ///
    /// ```swift
    /// print(TweetieDatabase.collections.map { $0.collectionName })
    /// ```
    public static let collections: [any Record.Type] = [Tweet.self, User.self]

    /// Opens (creating when missing, with owner-only permissions) the database at `path`.
    ///
    /// ```swift
    /// let store = try TweetieDatabase.open(at: "/tmp/tweets")
    /// ```
    public static func open(at path: String, configuration: StoreConfiguration = StoreConfiguration()) throws -> Store {
        try Store.open(at: path, configuration: configuration, collections: collections)
    }

    /// A fresh database in a temporary directory, removed when closed (tests and previews).
    ///
    /// ```swift
    /// let store = try TweetieDatabase.temporary()
    /// defer { store.close() }
    /// ```
    public static func temporary() throws -> Store {
        try Store.temporary(collections: collections)
    }

    /// The default location: `$TWEETIE_DB`, else `$XDG_DATA_HOME/tweetie-db`, else
    /// `~/.local/share/tweetie-db`.
    ///
    /// ```swift
    /// print(TweetieDatabase.defaultPath())
    /// ```
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["TWEETIE_DB"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/tweetie-db" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/tweetie-db"
    }
}

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
