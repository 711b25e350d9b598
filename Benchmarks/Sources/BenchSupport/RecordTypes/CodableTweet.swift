import Foundation
import TweetieDB
import TweetieSync

/// Suite 7's plain `Record, Codable` type: `Tweet`'s 13 stored fields and two indexes, declared
/// the way the README's `Record, Codable` struct is, so that it is stored through `Codable`
/// (`RecordEncoder`/`RecordDecoder`), in the same bytes as ``MacroTweet``.
///
/// ```swift
/// let records = tweets.map(CodableTweet.init)
/// try store.write { tx in try tx.add(contentsOf: records, update: .all) }
/// ```
struct CodableTweet: Record, Codable, Identifiable, Sendable, Hashable {
    static let collectionName = "tweets"
    static let indexes: [Index<CodableTweet>] = [
        Index("created", order: .descending) { $0.created },
        Index("author") { $0.username.lowercased() }.then(order: .descending) { $0.created },
    ]

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

extension CodableTweet: BenchRecord {
    init(_ t: Tweet) {
        self.init(id: t.id, text: t.text, name: t.name, username: t.username, authorId: t.authorId, created: t.created, imageURL: t.imageURL,
                  retweetCount: t.retweetCount, favoriteCount: t.favoriteCount, inReplyToId: t.inReplyToId, isRetweet: t.isRetweet, lang: t.lang, lists: t.lists)
    }
}
