import Foundation
import TweetieSync

/// Checksums of tweets and of ordered tweet lists.
enum Digest {
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The checksum of every stored field of `tweet`.
    static func checksum(_ tweet: Tweet) -> UInt64 {
        var h = FNV1a()
        h.add(tweet.id)
        h.add(tweet.text)
        h.add(tweet.name)
        h.add(tweet.username)
        h.add(tweet.authorId)
        h.add(Int64(bitPattern: tweet.created.timeIntervalSince1970.bitPattern))
        h.add(tweet.imageURL)
        h.add(Int64(tweet.retweetCount))
        h.add(Int64(tweet.favoriteCount))
        h.add(tweet.inReplyToId ?? -1)
        h.add(tweet.isRetweet ? 1 : 0)
        h.add(tweet.lang ?? "\u{0}")
        for list in tweet.lists { h.add(list) }
        return h.value
    }

    /// The checksum of an ordered list of (id, checksum) pairs: a copy's identity.
    static func ofRows(_ rows: [(id: Int64, checksum: UInt64)]) -> UInt64 {
        var h = FNV1a()
        for row in rows {
            h.add(row.id)
            h.add(Int64(bitPattern: row.checksum))
        }
        return h.value
    }
}
