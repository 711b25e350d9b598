import ArgumentParser
import Foundation
import TweetieSync

extension TweetsCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print one stored tweet in full.",
            discussion: """
                Examples:
                  tweetie-db tweets show 1071510262772662339
                  tweetie-db tweets show 1071510262772662339 --format json | jq .text
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @Argument(help: "The tweet's id.")
        var id: Int64

        @Option(help: OutputFormat.help(for: .report))
        var format: OutputFormat?

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                guard let tweet = try store.read({ try $0.get(Tweet.self, key: id) }) else {
                    throw CLIError("no tweet with id \(id) in \(store.path)")
                }
                try printRecord(tweet, format: OutputFormat.resolve(format, for: .report)) {
                    fieldTable([
                        ("id", "\(tweet.id)"),
                        ("author", "\(tweet.name) (@\(tweet.username), id \(tweet.authorId))"),
                        ("created", displayDate(tweet.created)),
                        ("retweets", "\(tweet.retweetCount)"),
                        ("favorites", "\(tweet.favoriteCount)"),
                        ("image", tweet.imageURL),
                        ("text", tweet.text),
                    ])
                }
            }
        }
    }
}
