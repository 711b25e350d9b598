import Foundation
import TweetieDB
@testable import TweetieDBCore

/// A tweet-shaped record with the two real secondary indexes.
struct Post: Record, Identifiable, Hashable {
    static let collectionName = "posts"
    static let byCreated = Index<Post>.on("created", order: .descending, \.created)
    static let byAuthor = Index<Post>.on("author", \.author).then(order: .descending, \.created)
    static let indexes = [byCreated.index, byAuthor.index]
    var id: Int64
    var author: String
    var text: String
    var created: Date
    var likes: Int
}

/// A record with a unique index.
struct Member: Record, Identifiable, Hashable {
    static let collectionName = "members"
    static let byHandle = Index<Member>.on("handle", unique: true, \.handle)
    static let indexes = [byHandle.index]
    var id: String
    var handle: String
    var name: String
}
