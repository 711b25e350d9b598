import Foundation
import TweetieSync

/// The benchmarks' tweets: TweetieSync's `SyntheticTweets`, addressed by tweet id.
///
/// Tweet `id` (from 1) is `SyntheticTweets(seed:origin:).tweet(at: id - 1)`: 40–280 characters of
/// text, 30 authors, `created` one minute apart in id order. The same seed and id always give the
/// same tweet, in every process.
///
/// ```swift
/// let generator = TweetGenerator()
/// let tweets = generator.tweets(1..<1001)
/// ```
public struct TweetGenerator: Sendable {
    /// `created` of tweet 1: 2018-12-08 09:00 UTC.
    ///
    /// ```swift
    /// print(TweetGenerator.origin)
    /// ```
    public static let origin = Date(timeIntervalSince1970: 1_544_259_600)
    /// Seconds between the `created` of consecutive ids.
    ///
    /// ```swift
    /// print(TweetGenerator.spacing) // 60
    /// ```
    public static let spacing: Int64 = 60

    private let synthetic: SyntheticTweets

    /// A generator for `seed`.
    ///
    /// ```swift
    /// let generator = TweetGenerator(seed: 1)
    /// ```
    public init(seed: UInt64 = 0x5EED) {
        synthetic = SyntheticTweets(seed: seed, origin: Self.origin)
    }

    /// The tweet with `id` (1 or more), at its default place on the timeline.
    ///
    /// ```swift
    /// let tweet = generator.tweet(id: 3)
    /// ```
    public func tweet(id: Int64) -> Tweet {
        precondition(id >= 1, "tweet ids start at 1 (SyntheticTweets numbers them index + 1), got \(id)")
        return synthetic.tweet(at: Int(id - 1))
    }

    /// The tweets with the ids in `ids`.
    ///
    /// ```swift
    /// let first = generator.tweets(1..<101)
    /// ```
    public func tweets(_ ids: Range<Int64>) -> [Tweet] {
        guard let first = ids.first else { return [] }
        precondition(first >= 1, "tweet ids start at 1, got \(first)")
        return synthetic.make(count: ids.count, from: Int(first - 1))
    }

    /// The date `seconds` whole seconds after ``origin`` (exactly representable in every store).
    ///
    /// ```swift
    /// let created = TweetGenerator.date(seconds: 3600)
    /// ```
    public static func date(seconds: Int64) -> Date { origin.addingTimeInterval(Double(seconds)) }
}
