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

        @Option(help: "The output format: table, json, or ndjson (json on one line).")
        var format: OutputFormat = .table

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                guard let tweet = try store.read({ try $0.get(Tweet.self, key: id) }) else {
                    throw CLIError("no tweet with id \(id) in \(store.path)")
                }
                if format != .table {
                    Out.line(String(decoding: try RecordJSON.encoder().encode(tweet), as: UTF8.self))
                    return
                }
                Out.line("id          \(tweet.id)")
                Out.line("author      \(tweet.name) (@\(tweet.username), id \(tweet.authorId))")
                Out.line("created     \(RecordJSON.string(from: tweet.created))")
                Out.line("retweets    \(tweet.retweetCount)")
                Out.line("favorites   \(tweet.favoriteCount)")
                Out.line("image       \(tweet.imageURL)")
                Out.line("text        \(tweet.text)")
            }
        }
    }
}
