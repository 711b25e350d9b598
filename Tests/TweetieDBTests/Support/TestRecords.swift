import Foundation
import TweetieDB
@testable import TweetieDBCore

/// A tweet-shaped record with the two real secondary indexes.
struct Post: Record, Identifiable, Hashable {
    static let collectionName = "posts"
    static let indexes: [Index<Post>] = [
        Index("created", order: .descending) { $0.created },
        Index("author") { $0.author }.then(order: .descending) { $0.created },
    ]
    var id: Int64
    var author: String
    var text: String
    var created: Date
    var likes: Int
}

/// A record with a unique index.
struct Member: Record, Identifiable, Hashable {
    static let collectionName = "members"
    static let indexes: [Index<Member>] = [Index("handle", unique: true) { $0.handle }]
    var id: String
    var handle: String
    var name: String
}
