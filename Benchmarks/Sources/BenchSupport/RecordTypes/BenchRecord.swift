import TweetieSync

/// A suite 7 record type: `Tweet`'s fields declared one way or another, made from a `Tweet`.
///
/// ```swift
/// let records = tweets.map(CodableTweet.init)
/// ```
protocol BenchRecord: Sendable {
    /// The fields of `tweet`.
    init(_ tweet: Tweet)
    /// The primary key (the tweet's id).
    var id: Int64 { get }
}
