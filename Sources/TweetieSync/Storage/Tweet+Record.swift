import Foundation

extension Tweet: Record {
    /// Tweets live in the `tweets` collection.
    ///
    /// ```swift
    /// print(Tweet.collectionName) // "tweets"
    /// ```
    public static let collectionName = "tweets"

    /// Two indexes: `created` (newest first) for timelines, and `author` (username, then newest
    /// first) for a person's timeline.
    ///
    /// ```swift
    /// Query<Tweet>().sorted(byIndex: "created").limit(50)
    /// Query<Tweet>().filter(index: "author", equals: "icanzilb").sorted(byIndex: "author")
    /// ```
    public static let indexes: [Index<Tweet>] = [
        Index("created", order: .descending) { $0.created },
        Index("author") { $0.username.lowercased() }.then(order: .descending) { $0.created },
    ]
}

extension User: Record {
    /// Users live in the `users` collection.
    ///
    /// ```swift
    /// print(User.collectionName) // "users"
    /// ```
    public static let collectionName = "users"

    /// One index: `username`, case-insensitive. Not unique: a screen name can pass from one
    /// account to another over time.
    ///
    /// ```swift
    /// Query<User>().filter(index: "username", equals: "icanzilb")
    /// ```
    public static let indexes: [Index<User>] = [
        Index("username") { $0.username.lowercased() },
    ]
}
