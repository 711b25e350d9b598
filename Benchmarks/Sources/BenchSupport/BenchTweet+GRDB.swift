import Foundation
import GRDB

/// The GRDB peer stores the same fields in table `tweets`, `created` as REAL seconds since 1970,
/// and reads rows by column position (GRDB's fastest hand-written record decoding).
extension BenchTweet: FetchableRecord, PersistableRecord {
    /// The table: `"tweets"`.
    ///
    /// ```swift
    /// try BenchTweet.fetchCount(db)
    /// ```
    public static var databaseTableName: String { "tweets" }

    /// The columns, in table order (the position is what ``init(row:)`` reads).
    ///
    /// ```swift
    /// print(BenchTweet.columnNames.joined(separator: ", "))
    /// ```
    public static let columnNames = ["id", "text", "name", "username", "authorId", "created", "imageURL", "retweetCount", "favoriteCount"]

    /// Decodes a row of `SELECT *` (columns in table order).
    ///
    /// ```swift
    /// let tweets = try BenchTweet.fetchAll(db, sql: "SELECT * FROM tweets")
    /// ```
    public init(row: Row) throws {
        self.init(id: row[0], text: row[1], name: row[2], username: row[3], authorId: row[4],
                  created: Date(timeIntervalSince1970: row[5]), imageURL: row[6], retweetCount: row[7], favoriteCount: row[8])
    }

    /// Encodes every column.
    ///
    /// ```swift
    /// try tweet.upsert(db)
    /// ```
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["text"] = text
        container["name"] = name
        container["username"] = username
        container["authorId"] = authorId
        container["created"] = created.timeIntervalSince1970
        container["imageURL"] = imageURL
        container["retweetCount"] = retweetCount
        container["favoriteCount"] = favoriteCount
    }

    /// The statement arguments, in column order.
    ///
    /// ```swift
    /// try statement.execute(arguments: tweet.statementArguments)
    /// ```
    public var statementArguments: StatementArguments {
        [id, text, name, username, authorId, created.timeIntervalSince1970, imageURL, retweetCount, favoriteCount]
    }
}
