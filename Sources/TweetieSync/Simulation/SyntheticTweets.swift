import Foundation

/// Deterministic tweet-shaped records for benchmarks and load tests: realistic text lengths
/// (40–280 characters), 30 authors, creation times spread one minute apart.
///
/// ```swift
/// let tweets = SyntheticTweets(seed: 7).make(count: 100_000)
/// ```
public struct SyntheticTweets: Sendable {
    private let seed: UInt64
    private let origin: Date

    /// A generator; the same seed gives the same tweets in every process.
    ///
    /// ```swift
    /// let generator = SyntheticTweets(seed: 1)
    /// ```
    public init(seed: UInt64 = 1, origin: Date = Date(timeIntervalSince1970: 1_544_259_600)) {
        self.seed = seed
        self.origin = origin
    }

    private static let words = ["swift", "reactive", "observable", "table", "view", "model", "LMDB", "linux", "today",
                                "release", "async", "sequence", "changeset", "tweet", "timeline", "index", "query",
                                "the", "a", "with", "on", "and", "new", "fast", "store", "realm", "book", "chapter"]

    /// The tweet with sequence number `index` (ids are `index + 1`).
    ///
    /// ```swift
    /// let tweet = SyntheticTweets().tweet(at: 41)
    /// ```
    public func tweet(at index: Int) -> Tweet {
        var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let author = index % 30
        let length = rng.int(in: 40...280)
        // The words are ASCII, so UTF-8 length is the character count.
        var text = ""
        text.reserveCapacity(length + 16)
        while text.utf8.count < length {
            if !text.isEmpty { text += " " }
            text += rng.pick(SyntheticTweets.words)
        }
        text = String(text.utf8.prefix(length))!
        return Tweet(id: Int64(index + 1), text: text, name: "Author \(author)", username: "author\(author)",
                     authorId: Int64(1000 + author), created: origin.addingTimeInterval(Double(index) * 60),
                     imageURL: "https://pbs.twimg.com/profile_images/\(1000 + author)/avatar_normal.jpg",
                     retweetCount: rng.int(in: 0...500), favoriteCount: rng.int(in: 0...2000))
    }

    /// Tweets `start ..< start + count`.
    ///
    /// ```swift
    /// let batch = SyntheticTweets().make(count: 1000, from: 5000)
    /// ```
    public func make(count: Int, from start: Int = 0) -> [Tweet] {
        (start..<(start + count)).map(tweet(at:))
    }
}
