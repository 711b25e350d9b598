import Foundation
import TweetieSync

/// FNV-1a, 64 bits: a stable checksum (unlike `Hasher`, identical in every process).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    mutating func add(_ text: String) {
        add(text.utf8)
        add([0xFF])  // a separator no UTF-8 text contains
    }

    mutating func add(_ number: Int64) { withUnsafeBytes(of: number.littleEndian) { add($0) } }

    /// The checksum as 16 lowercase hex digits.
    var hex: String { Digest.hex(value) }
}

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

/// The tweets the torture workload writes: synthetic tweets with known ids, whose content is a
/// function of (id, version, tag), in the list that `tweetie-db feed list` shows.
enum WorkloadTweets {
    static let list = "icanzilb/RxSwift"
    private static let synthetic = SyntheticTweets(seed: 11)

    /// Version `version` of tweet `id`, written by `tag` (e.g. `w2`). Versions change the text, the
    /// counters and the creation time (so observers see modifications, moves and section moves).
    static func tweet(id: Int64, version: Int, tag: String) -> Tweet {
        var tweet = synthetic.tweet(at: Int(id % 1_000_003))
        tweet.id = id
        tweet.text = String(tweet.text.prefix(200)) + " [\(tag) v\(version)]"
        tweet.favoriteCount = version
        tweet.created = Date(timeIntervalSince1970: 1_544_259_600 + Double(id % 10_000) * 60 + Double(version % 7) * 9_000)
        tweet.lists = [list]
        return tweet
    }
}
