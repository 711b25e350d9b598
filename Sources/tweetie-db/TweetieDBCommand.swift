import ArgumentParser

@main
struct TweetieDBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-db",
        abstract: "Inspect, move and watch a TweetieDB tweet database.",
        version: "0.1.0",
        subcommands: []
    )
}
