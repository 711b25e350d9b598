import Foundation
import TweetieSync

/// The tweets the torture workload writes: synthetic tweets with known ids, whose content is a
/// function of (id, version, tag), in the list that `tweetie-db feed list` shows.
enum WorkloadTweets {
    static let list = ListIdentifier.rxSwift.key
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
