import ArgumentParser
import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a hot, compacted copy of the database to a new directory.",
        discussion: "Examples:\n  tweetie-db backup /backups/2026-11-25\n  tweetie-db backup - | zstd > tweets.mdb.zst\n\nOther processes may keep reading and writing meanwhile; the copy is one consistent snapshot with free pages left out. It is written to a temporary file, flushed to disk and renamed to data.mdb only when complete, owner-only (0600 file, 0700 directory) whatever the umask: a backup that fails or is interrupted leaves no data.mdb.")

    @OptionGroup var database: ReadDatabaseOptions

    @Argument(help: ArgumentHelp(
        "The destination directory (it must not already hold a database), or - for standard output.",
        discussion: "With -, the compacted data.mdb itself goes to standard output (which must not be a terminal), for a pipe such as '| zstd > tweets.mdb.zst'; a directory holding those bytes as data.mdb is a database."))
    var destination: String

    /// Whether the copy goes to standard output.
    var toStandardOutput: Bool { destination == "-" }

    func validate() throws {
        if toStandardOutput {
            if Terminal.isTerminal(STDOUT_FILENO) {
                throw ValidationError("backup - writes the binary data.mdb to standard output, which is a terminal; redirect it to a file or a pipe (tweetie-db backup - > data.mdb), or name a directory.")
            }
            return
        }
        try PathCheck.validate(destination, role: "the backup destination")
        if FileManager.default.fileExists(atPath: destination + "/data.mdb") {
            throw ValidationError("'\(destination)' already holds a database (data.mdb); choose an empty or new directory.")
        }
    }

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            if toStandardOutput {
                do {
                    try store.backup(toFileDescriptor: STDOUT_FILENO)
                } catch {
                    throw CLIError("backup to standard output failed: \(error); what was written is not a complete database")
                }
                Out.error("backed up \(store.path) to standard output")
                return
            }
            // What a signal must not leave behind: the temporary copy, and the directory if new.
            let temporary = destination + "/" + Store.backupTemporaryName
            let newDirectory = !FileManager.default.fileExists(atPath: destination)
            InterruptCleanup.register(file: temporary)
            if newDirectory { InterruptCleanup.register(directory: destination) }
            defer {
                InterruptCleanup.unregister(temporary)
                InterruptCleanup.unregister(destination)
            }
            do {
                try store.backup(to: destination, compact: true)
            } catch {
                throw CLIError("backup to \(destination) failed: \(error); no data.mdb was left there")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: destination + "/data.mdb")[.size] as? Int) ?? 0
            Out.error("backed up \(store.path) to \(destination) (\(formatBytes(size)))")
        }
    }
}
