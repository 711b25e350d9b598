import ArgumentParser
import Foundation
import TweetieSync

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a hot, compacted copy of the database to a new directory.",
        discussion: "Other processes may keep reading and writing meanwhile; the copy is one consistent snapshot with free pages left out.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The destination directory; it must not already hold a database.")
    var destination: String

    func validate() throws {
        if FileManager.default.fileExists(atPath: destination + "/data.mdb") {
            throw ValidationError("'\(destination)' already holds a database (data.mdb); choose an empty or new directory.")
        }
    }

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            try store.environment.copy(to: destination, compact: true)
            let size = (try? FileManager.default.attributesOfItem(atPath: destination + "/data.mdb")[.size] as? Int) ?? 0
            Out.error("backed up \(store.path) to \(destination) (\(formatBytes(size)))")
        }
    }
}
