import ArgumentParser
import Foundation
import Logging

@main
struct TweetieDBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-db",
        abstract: "Watch, inspect, move and measure a TweetieDB tweet database.",
        discussion: """
            Examples:
              tweetie-db demo
              tweetie-db sync --simulated
              tweetie-db tweets list --author icanzilb --limit 5
              tweetie-db tweets list --format ndjson | jq -r .idStr
              tweetie-db export -o tweets.ndjson
              tweetie-db import tweets.ndjson --db ~/copy
              tweetie-db backup - | zstd > tweets.mdb.zst

            Every subcommand takes --db PATH; the default is $TWEETIE_DB, else \
            $XDG_DATA_HOME/tweetie-db (~/.local/share/tweetie-db). 'tweetie-db help COMMAND' or \
            'tweetie-db COMMAND --help' shows a command's options and examples.

            \(OutputFormat.ruleHelp)

            \(ExitStatus.help)
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self,
            SyncCommand.self,
            FeedCommand.self,
            StatsCommand.self,
            TweetsCommand.self,
            UsersCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            BackupCommand.self,
            VerifyCommand.self,
            SchemaCommand.self,
            BenchCommand.self,
        ]
    )

    /// Sets up logging (warnings and errors to stderr; `TWEETIE_LOG_LEVEL=debug|info|notice|…`
    /// for more), then runs the command.
    static func main() async {
        let level = ProcessInfo.processInfo.environment["TWEETIE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        Out.checkFinalFlush()
        InterruptCleanup.install()
        do {
            try PathCheck.validateArgumentsAreUTF8()
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let unknown = UnknownCommand.find(in: arguments, root: Self.self, afterFailure: false) {
                Out.error(unknown.message)
                exit(withError: ExitCode(ExitStatus.usage))
            }
            let parsed: any ParsableCommand
            do {
                parsed = try parseAsRoot()
            } catch {
                if let unknown = UnknownCommand.find(in: arguments, root: Self.self, afterFailure: true) {
                    Out.error(unknown.message)
                    exit(withError: ExitCode(ExitStatus.usage))
                }
                throw error
            }
            var command = parsed
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            // Its sentence may quote a path or a record's text: shown, not obeyed, by a terminal.
            exit(withError: CLIError(VisibleText.of(error.description), isDamage: error.isDamage))
        } catch {
            exit(withError: error)
        }
    }
}
