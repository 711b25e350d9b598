import ArgumentParser
import Foundation
import TweetieSync

struct TweetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweets",
        abstract: "Inspect and delete stored tweets.",
        discussion: """
            Examples:
              tweetie-db tweets --author icanzilb --limit 5
              tweetie-db tweets show 1071510262772662339
              tweetie-db tweets delete --dry-run 1071510262772662339
            """,
        subcommands: [List.self, Show.self, Delete.self],
        defaultSubcommand: List.self)
}
