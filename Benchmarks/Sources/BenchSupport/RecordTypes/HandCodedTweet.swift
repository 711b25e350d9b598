import Foundation
import TweetieDB
import TweetieSync

/// Suite 7's control for `Tweet` itself: `Tweet`'s 13 stored fields and two indexes with the
/// hand-written `RecordCodable` conformance `Tweet` had before it became `@Record` (commit
/// `a705380` deleted it from TweetieSync; this is that code, under another name). Measured in the
/// same run as `Tweet`, it says whether `Tweet` kept its figures on whatever machine runs the
/// suite, which absolute records/s cannot.
///
/// ```swift
/// let records = tweets.map(HandCodedTweet.init)
/// try store.write { tx in try tx.add(contentsOf: records, update: .all) }
/// ```
struct HandCodedTweet: Record, Codable, Identifiable, Sendable, Hashable {
    static let collectionName = "tweets"
    static let indexes: [Index<HandCodedTweet>] = [
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

extension HandCodedTweet: RecordCodable {
    func encode(to writer: inout RecordWriter) {
        writer.write(id, forKey: "id")
        writer.write(text, forKey: "text")
        writer.write(name, forKey: "name")
        writer.write(username, forKey: "username")
        writer.write(authorId, forKey: "authorId")
        writer.write(created, forKey: "created")
        writer.write(imageURL, forKey: "imageURL")
        writer.write(retweetCount, forKey: "retweetCount")
        writer.write(favoriteCount, forKey: "favoriteCount")
        writer.write(inReplyToId, forKey: "inReplyToId")
        writer.write(isRetweet, forKey: "isRetweet")
        writer.write(lang, forKey: "lang")
        writer.write(lists, forKey: "lists")
    }

    init(from reader: inout RecordFieldReader) throws {
        var id: Int64?, text: String?, name: String?, username: String?, authorId: Int64?, created: Date?
        var imageURL: String?, retweetCount: Int?, favoriteCount: Int?, isRetweet: Bool?
        var inReplyToId: Int64?, lang: String?, lists: [String]?
        while let field = try reader.nextField() {
            switch field.name {
            case "id": id = try field.decode(Int64.self)
            case "text": text = try field.decode(String.self)
            case "name": name = try field.decodeShared(String.self)
            case "username": username = try field.decodeShared(String.self)
            case "authorId": authorId = try field.decode(Int64.self)
            case "created": created = try field.decode(Date.self)
            case "imageURL": imageURL = try field.decodeShared(String.self)
            case "retweetCount": retweetCount = try field.decode(Int.self)
            case "favoriteCount": favoriteCount = try field.decode(Int.self)
            case "inReplyToId": inReplyToId = try field.decodeIfPresent(Int64.self)
            case "isRetweet": isRetweet = try field.decode(Bool.self)
            case "lang": lang = try field.decodeSharedIfPresent(String.self)
            case "lists": lists = try field.decodeSharedIfPresent([String].self)
            default: break
            }
        }
        self.id = try reader.require(id, forKey: "id")
        self.text = try reader.require(text, forKey: "text")
        self.name = try reader.require(name, forKey: "name")
        self.username = try reader.require(username, forKey: "username")
        self.authorId = try reader.require(authorId, forKey: "authorId")
        self.created = try reader.require(created, forKey: "created")
        self.imageURL = try reader.require(imageURL, forKey: "imageURL")
        self.retweetCount = try reader.require(retweetCount, forKey: "retweetCount")
        self.favoriteCount = try reader.require(favoriteCount, forKey: "favoriteCount")
        self.inReplyToId = inReplyToId
        self.isRetweet = try reader.require(isRetweet, forKey: "isRetweet")
        self.lang = lang
        self.lists = lists ?? []
    }
}

extension HandCodedTweet: BenchRecord {
    init(_ t: Tweet) {
        self.init(id: t.id, text: t.text, name: t.name, username: t.username, authorId: t.authorId, created: t.created, imageURL: t.imageURL,
                  retweetCount: t.retweetCount, favoriteCount: t.favoriteCount, inReplyToId: t.inReplyToId, isRetweet: t.isRetweet, lang: t.lang, lists: t.lists)
    }
}
