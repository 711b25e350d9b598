import Foundation
import TweetieDB
import TweetieSync

/// ``MacroTweet`` without `@Interned`: `Tweet`'s 13 stored fields and two indexes under a plain
/// `@Record`, what a user who has not met `@Interned` declares. Suite 7 shows what interning the
/// repeated strings is worth in a scan.
///
/// ```swift
/// let records = tweets.map(UninternedMacroTweet.init)
/// try store.write { tx in try tx.add(contentsOf: records, update: .all) }
/// ```
@Record(collection: "tweets")
struct UninternedMacroTweet: Sendable, Hashable {
    static let indexes: [Index<UninternedMacroTweet>] = [
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

extension UninternedMacroTweet: BenchRecord {
    init(_ t: Tweet) {
        self.init(id: t.id, text: t.text, name: t.name, username: t.username, authorId: t.authorId, created: t.created, imageURL: t.imageURL,
                  retweetCount: t.retweetCount, favoriteCount: t.favoriteCount, inReplyToId: t.inReplyToId, isRetweet: t.isRetweet, lang: t.lang, lists: t.lists)
    }
}
