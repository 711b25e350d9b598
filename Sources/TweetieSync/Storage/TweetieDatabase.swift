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

    /// Opens (creating when missing, with owner-only permissions) the database at `path`, with
    /// ``collections`` and any `additionalCollections` (a replicator's own state).
    ///
    /// ```swift
    /// let store = try TweetieDatabase.open(at: "/tmp/tweets")
    /// ```
    public static func open(at path: String, configuration: StoreConfiguration = StoreConfiguration(),
                            additionalCollections: [any Record.Type] = []) throws -> Store {
        try Store.open(at: path, configuration: configuration, collections: collections + additionalCollections)
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
