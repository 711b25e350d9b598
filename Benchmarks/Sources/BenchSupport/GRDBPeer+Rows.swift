import Foundation
import GRDB
import TweetieSync

// The peer's own row mapping for TweetieSync's `Tweet` (no GRDB record conformance on a type
// another module owns): `created` is REAL seconds since 1970, `isRetweet` 0/1, `lists` the list
// keys joined by newlines ("" for none; keys are `owner/slug`, which hold no newline).
extension GRDBPeer {
    /// The columns of table `tweets`, in table order (the position is what ``tweet(_:)`` reads).
    ///
    /// ```swift
    /// print(GRDBPeer.columnNames.joined(separator: ", "))
    /// ```
    public static let columnNames = ["id", "text", "name", "username", "authorId", "created", "imageURL", "retweetCount",
                                     "favoriteCount", "inReplyToId", "isRetweet", "lang", "lists"]

    /// The statement arguments of `tweet`, in column order.
    ///
    /// ```swift
    /// try statement.execute(arguments: GRDBPeer.arguments(of: tweet))
    /// ```
    public static func arguments(of tweet: Tweet) -> StatementArguments {
        [tweet.id, tweet.text, tweet.name, tweet.username, tweet.authorId, tweet.created.timeIntervalSince1970, tweet.imageURL,
         tweet.retweetCount, tweet.favoriteCount, tweet.inReplyToId, tweet.isRetweet, tweet.lang, tweet.lists.joined(separator: "\n")]
    }

    /// Decodes a row of `SELECT *` (columns in table order).
    ///
    /// ```swift
    /// let tweet = try GRDBPeer.tweet(row)
    /// ```
    public static func tweet(_ row: Row) throws -> Tweet {
        let lists: String = row[12]
        return Tweet(id: row[0], text: row[1], name: row[2], username: row[3], authorId: row[4],
                     created: Date(timeIntervalSince1970: row[5]), imageURL: row[6], retweetCount: row[7], favoriteCount: row[8],
                     inReplyToId: row[9], isRetweet: row[10], lang: row[11],
                     lists: lists.isEmpty ? [] : lists.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// Runs `sql` (a `SELECT *` of table `tweets`) and decodes every row.
    ///
    /// ```swift
    /// let page = try GRDBPeer.tweets(db, sql: "SELECT * FROM tweets LIMIT 50")
    /// ```
    public static func tweets(_ db: GRDB.Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Tweet] {
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var tweets: [Tweet] = []
        while let row = try cursor.next() { tweets.append(try tweet(row)) }
        return tweets
    }

    /// Calls `body` with each decoded row of `sql` (a `SELECT *` of table `tweets`); returns the count.
    ///
    /// ```swift
    /// let count = try GRDBPeer.forEachTweet(db, sql: "SELECT * FROM tweets") { print($0.id) }
    /// ```
    public static func forEachTweet(_ db: GRDB.Database, sql: String, _ body: (Tweet) throws -> Void) throws -> Int {
        let cursor = try Row.fetchCursor(db, sql: sql)
        var count = 0
        while let row = try cursor.next() {
            try body(try tweet(row))
            count += 1
        }
        return count
    }
}
