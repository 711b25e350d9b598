import TweetieSync

/// One planned write transaction: what to do, and the digest the writer acknowledges.
struct WritePlan: Sendable {
    enum Action: Sendable {
        case insert(Tweet)
        case overwrite(Tweet)
        case delete(Int64)
    }

    var op: String
    var actions: [Action] = []
    var items: [WrittenItem] = []

    mutating func insert(_ tweet: Tweet) {
        actions.append(.insert(tweet))
        items.append(WrittenItem(id: tweet.id, checksum: Digest.checksum(tweet)))
    }

    mutating func overwrite(_ tweet: Tweet) {
        actions.append(.overwrite(tweet))
        items.append(WrittenItem(id: tweet.id, checksum: Digest.checksum(tweet)))
    }

    mutating func delete(_ id: Int64) {
        actions.append(.delete(id))
        items.append(WrittenItem(id: id, checksum: nil))
    }
}
