import ArgumentParser

@main
struct TweetieDBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-db",
        abstract: "Watch, inspect, move and measure a TweetieDB tweet database.",
        discussion: "Every subcommand takes --db PATH; the default is $TWEETIE_DB, else $XDG_DATA_HOME/tweetie-db (~/.local/share/tweetie-db).",
        version: "0.1.0",
        subcommands: [
            StatsCommand.self,
            TweetsCommand.self,
            UsersCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            BackupCommand.self,
            VerifyCommand.self,
            BenchCommand.self,
        ]
    )
}
