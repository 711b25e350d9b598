import ArgumentParser

/// `tweetie-torture`: reliability harnesses for TweetieDB — crash safety and multi-process stress.
@main
struct TortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-torture",
        abstract: "Crash-safety and multi-process stress harnesses for TweetieDB.",
        discussion: "'crash', 'stress', 'backup-kill' and 'full-disk' run the checks; 'writer', 'reader' and 'observer' are the processes they start.",
        subcommands: [CrashCommand.self, StressCommand.self, BackupKillCommand.self, FullDiskCommand.self, WriterCommand.self, ReaderCommand.self, ObserverCommand.self])
}
