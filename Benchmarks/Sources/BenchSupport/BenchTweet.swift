import Foundation
import TweetieDB

/// A tweet as the Tweetie app stores it, with the app's two real secondary indexes: the timeline
/// (`created`, newest first) and an author's timeline (`username`, then `created` newest first).
///
/// ```swift
/// let tweet = TweetGenerator(seed: 1).tweet(id: 42)
/// try store.write { tx in try tx.add(tweet, update: .all) }
/// ```
public struct BenchTweet: Record, Identifiable, Hashable {
    /// The collection: `"tweets"`.
    ///
    /// ```swift
    /// print(BenchTweet.collectionName)
    /// ```
    public static let collectionName = "tweets"
    /// `created` (descending) and `author` (`username`, then `created` descending).
    ///
    /// ```swift
    /// Query<BenchTweet>().sorted(byIndex: "created").limit(50)
    /// ```
    public static let indexes: [Index<BenchTweet>] = [
        Index("created", order: .descending) { $0.created },
        Index("author") { $0.username }.then(order: .descending) { $0.created },
    ]

    /// The tweet id (primary key).
    ///
    /// ```swift
    /// print(tweet.id)
    /// ```
    public var id: Int64
    /// The text, 40–280 characters.
    ///
    /// ```swift
    /// print(tweet.text)
    /// ```
    public var text: String
    /// The author's display name.
    ///
    /// ```swift
    /// print(tweet.name)
    /// ```
    public var name: String
    /// The author's handle (one of about 30).
    ///
    /// ```swift
    /// print(tweet.username)
    /// ```
    public var username: String
    /// The author's id.
    ///
    /// ```swift
    /// print(tweet.authorId)
    /// ```
    public var authorId: Int64
    /// When the tweet was posted (whole milliseconds, so every store round-trips it exactly).
    ///
    /// ```swift
    /// print(tweet.created)
    /// ```
    public var created: Date
    /// The author's avatar URL.
    ///
    /// ```swift
    /// print(tweet.imageURL)
    /// ```
    public var imageURL: String
    /// Retweets.
    ///
    /// ```swift
    /// print(tweet.retweetCount)
    /// ```
    public var retweetCount: Int
    /// Likes (the cross-process suite stores a CLOCK_REALTIME stamp here).
    ///
    /// ```swift
    /// print(tweet.favoriteCount)
    /// ```
    public var favoriteCount: Int

    /// Creates a tweet from every field.
    ///
    /// ```swift
    /// BenchTweet(id: 1, text: "hi", name: "Ann", username: "ann", authorId: 7, created: .now,
    ///            imageURL: "https://example.com/a.jpg", retweetCount: 0, favoriteCount: 0)
    /// ```
    public init(id: Int64, text: String, name: String, username: String, authorId: Int64, created: Date,
                imageURL: String, retweetCount: Int, favoriteCount: Int) {
        self.id = id
        self.text = text
        self.name = name
        self.username = username
        self.authorId = authorId
        self.created = created
        self.imageURL = imageURL
        self.retweetCount = retweetCount
        self.favoriteCount = favoriteCount
    }
}
