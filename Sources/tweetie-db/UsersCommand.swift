import ArgumentParser
import Foundation
import TweetieSync

struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List stored users; 'users show NAME' prints one.",
        discussion: """
            Examples:
              tweetie-db users
              tweetie-db users --format ndjson | jq -r .username
              tweetie-db users show icanzilb
            """,
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self)
}
