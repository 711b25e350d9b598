import Foundation
import GRDB
import TweetieSync

/// Suite 7's GRDB `Codable` record: `Tweet`'s 13 stored fields in the peer's table `tweets` (the
/// same table and two indexes as ``GRDBPeer``; `created` as REAL seconds through the date
/// strategies, `lists` as the JSON array GRDB stores for an array property), written with the
/// record's own `upsert` and read with `fetchAll`: what GRDB's users write.
///
/// ```swift
/// try peer.pool.write { db in for record in records { try record.upsert(db) } }
/// let all = try peer.pool.read { db in try GRDBCodableTweet.order(Column("created").desc).fetchAll(db) }
/// ```
struct GRDBCodableTweet: Codable, FetchableRecord, PersistableRecord, Sendable, Hashable {
    static let databaseTableName = "tweets"
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    var id: Int64
    var text: String
    var name: String
    var username: String
    var authorId: Int64
    var created: Date
    var imageURL: String
    var retweetCount: Int
    var favoriteCount: Int
    var inReplyToId: Int64?
    var isRetweet: Bool
    var lang: String?
    var lists: [String] = []
}

extension GRDBCodableTweet: BenchRecord {
    init(_ t: Tweet) {
        self.init(id: t.id, text: t.text, name: t.name, username: t.username, authorId: t.authorId, created: t.created, imageURL: t.imageURL,
                  retweetCount: t.retweetCount, favoriteCount: t.favoriteCount, inReplyToId: t.inReplyToId, isRetweet: t.isRetweet, lang: t.lang, lists: t.lists)
    }
}
