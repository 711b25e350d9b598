import Foundation
import TweetieDB
import TweetieSync

extension Suites {
    /// A store of suite 7's `@Record` type (`MacroTweet`: `Tweet`'s fields, declared as a user
    /// declares a record) in a new temporary directory, filled with `count` generated records:
    /// TransferLoop's `--type macro`, an export and import of a user's record type.
    ///
    /// ```swift
    /// let (store, path) = try Suites.macroTweetStore(durability: .noSync, count: 200_000)
    /// ```
    public static func macroTweetStore(durability: StoreConfiguration.Durability, count: Int = 0,
                                       seed: UInt64 = 0x5EED) throws -> (store: Store, path: String) {
        let path = TemporaryPath.make("tweetie-macro")
        let store = try Store.open(at: path, configuration: TweetieFixture.configuration(durability: durability),
                                   collections: [MacroTweet.self])
        let generator = TweetGenerator(seed: seed)
        var next: Int64 = 1
        while next <= Int64(count) {
            let end = min(Int64(count) + 1, next + 10_000)
            let records = generator.tweets(next..<end).map(MacroTweet.init)
            try store.write { tx in try tx.add(contentsOf: records, update: .all) }
            next = end
        }
        return (store, path)
    }
}
