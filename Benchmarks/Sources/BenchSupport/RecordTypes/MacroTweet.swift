import Foundation
import TweetieDB
import TweetieSync

/// Suite 7's user-defined `@Record` type: `Tweet`'s 13 stored fields, its two indexes and its
/// `@Interned` marks, declared the way a user of the library declares a record, with no `Codable`
/// of its own (the macro writes it). ``UninternedMacroTweet`` is the same without `@Interned`.
///
/// ```swift
/// let records = tweets.map(MacroTweet.init)
/// try store.write { tx in try tx.add(contentsOf: records, update: .all) }
/// ```
@Record(collection: "tweets")
struct MacroTweet: Sendable, Hashable {
    static let indexes: [Index<MacroTweet>] = [
        Index("created", order: .descending) { $0.created },
        Index("author") { $0.username.lowercased() }.then(order: .descending) { $0.created },
    ]

    var id: Int64
    var text: String
    @Interned var name: String
    @Interned var username: String
    var authorId: Int64
    var created: Date
    @Interned var imageURL: String
    var retweetCount: Int
    var favoriteCount: Int
    var inReplyToId: Int64?
    var isRetweet: Bool
    @Interned var lang: String?
    @Interned var lists: [String] = []
}

extension MacroTweet: BenchRecord {
    init(_ t: Tweet) {
        self.init(id: t.id, text: t.text, name: t.name, username: t.username, authorId: t.authorId, created: t.created, imageURL: t.imageURL,
                  retweetCount: t.retweetCount, favoriteCount: t.favoriteCount, inReplyToId: t.inReplyToId, isRetweet: t.isRetweet, lang: t.lang, lists: t.lists)
    }
}
