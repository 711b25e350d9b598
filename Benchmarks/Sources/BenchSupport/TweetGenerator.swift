import Foundation

/// Deterministic tweet-shaped data: the same seed and id always give the same tweet.
///
/// Texts are 40–280 characters of words; about 30 authors; `created` grows with the id (about
/// 7 s apart) with jitter, so the timeline order is close to, but not exactly, the id order.
///
/// ```swift
/// let generator = TweetGenerator(seed: 7)
/// let tweets = generator.tweets(0..<1000)
/// ```
public struct TweetGenerator: Sendable {
    /// The timestamp of tweet 0: 2018-12-05.
    ///
    /// ```swift
    /// print(TweetGenerator.epoch)
    /// ```
    public static let epoch: Double = 1_544_000_000

    /// The authors: `(name, username, authorId)`.
    ///
    /// ```swift
    /// print(TweetGenerator.authors.count) // 30
    /// ```
    public static let authors: [(name: String, username: String, id: Int64)] = {
        let first = ["Marin", "Ash", "Scott", "Florent", "Junior", "Krzysztof", "Shai", "Ellen", "Kyle", "Mia"]
        let last = ["Todorov", "Furrow", "Gardner", "Pillet", "Bontognali", "Zablocki", "Mishali", "Shapiro", "Lee", "Okafor"]
        return (0..<30).map { i in
            let name = "\(first[i % 10]) \(last[(i * 7 + i / 10) % 10])"
            let username = name.lowercased().replacingOccurrences(of: " ", with: "_")
            return (name, String(username.prefix(15)), Int64(10_000_000 + i * 7919))
        }
    }()

    private static let words: [String] = """
        swift rxswift observable subscribe timeline realm lmdb database query tweet retweet like follow \
        list user async await actor sendable value type protocol extension closure generic map filter \
        reduce flatmap combine scheduler thread main queue dispatch network request response json decode \
        encode cache index sorted page scroll table view cell image avatar profile link hashtag mention \
        today tomorrow great release update build test bug fix crash fast slow memory disk commit change \
        the a an of to in for on with at by from is are was be have it this that we you they new
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

    /// The seed.
    ///
    /// ```swift
    /// print(generator.seed)
    /// ```
    public let seed: UInt64

    /// A generator for `seed`.
    ///
    /// ```swift
    /// let generator = TweetGenerator(seed: 1)
    /// ```
    public init(seed: UInt64 = 0x5EED) { self.seed = seed }

    /// The tweet with `id`, at its default place on the timeline.
    ///
    /// ```swift
    /// let tweet = generator.tweet(id: 3)
    /// ```
    public func tweet(id: Int64) -> BenchTweet {
        var rng = SplitMix64(seed: seed ^ (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15))
        let author = Self.authors[Int(rng.next() % UInt64(Self.authors.count))]
        let length = 40 + Int(rng.next() % 241)
        var text = ""
        text.reserveCapacity(length + 12)
        while text.utf8.count < length {
            if !text.isEmpty { text.append(" ") }
            text.append(Self.words[Int(rng.next() % UInt64(Self.words.count))])
        }
        text = String(text.prefix(length))
        let jitterMs = Int64(rng.next() % 20_000) - 10_000
        let created = Self.date(milliseconds: Int64(Self.epoch * 1000) + id * 7000 + jitterMs)
        return BenchTweet(id: id, text: text, name: author.name, username: author.username, authorId: author.id,
                          created: created, imageURL: "https://pbs.twimg.com/profile_images/\(author.id)/avatar_normal.jpg",
                          retweetCount: Int(rng.next() % 500), favoriteCount: Int(rng.next() % 5000))
    }

    /// The tweets with the ids in `ids`.
    ///
    /// ```swift
    /// let first = generator.tweets(0..<100)
    /// ```
    public func tweets(_ ids: Range<Int64>) -> [BenchTweet] { ids.map { tweet(id: $0) } }

    /// A date from milliseconds since 1970 (exactly representable in every store).
    ///
    /// ```swift
    /// TweetGenerator.date(milliseconds: 1_544_000_000_000)
    /// ```
    public static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

/// SplitMix64: a tiny deterministic generator.
///
/// ```swift
/// var rng = SplitMix64(seed: 1); print(rng.next())
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator for `seed`.
    ///
    /// ```swift
    /// var rng = SplitMix64(seed: 42)
    /// ```
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    ///
    /// ```swift
    /// let bits = rng.next()
    /// ```
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
