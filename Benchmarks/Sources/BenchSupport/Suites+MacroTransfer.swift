import Foundation
import TweetieDB
import TweetieSync

extension Suites {
    /// A store of suite 7's `@Record` type (`MacroTweet`: `Tweet`'s fields, declared as a user
    /// declares a record) in a new temporary directory, filled with `count` generated records:
    /// TransferLoop's `--type macro`, an export and import of a user's record type.
    ///
    /// ```swift
    /// let fixture = try Suites.macroTweetFixture(durability: .noSync, count: 200_000)
    /// ```
    public static func macroTweetFixture(durability: StoreConfiguration.Durability, count: Int = 0) throws -> TweetieFixture {
        let fixture = try TweetieFixture(durability: durability, collections: [MacroTweet.self])
        try fixture.fill(count: count) { $0.map(MacroTweet.init) }
        return fixture
    }
}
