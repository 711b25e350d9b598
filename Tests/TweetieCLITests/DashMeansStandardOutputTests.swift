import Foundation
import Testing
import TweetieTestSupport

/// `-` names standard output wherever a command writes a file.
@Suite("tweetie-db: - is standard output")
struct DashMeansStandardOutputTests {
    /// Runs `tweetie-db arguments…` in `directory`, so that a file named `-` would land there.
    static func run(_ arguments: [String], in directory: String) throws -> CLI.Result {
        try HostileEnvironmentCLITests.shell("cd '\(directory)' && exec \"$0\" " + arguments.map { "'\($0)'" }.joined(separator: " "))
    }

    /// Runs `body` with a seeded database and an empty working directory, removed afterwards.
    static func withDatabaseAndDirectory(_ body: (TemporaryDirectory, String) throws -> Void) throws {
        let db = try StoreCommandsTests.seeded(50)
        defer { db.remove() }
        let directory = db.path + "-cwd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(db, directory)
    }

    @Test func exportDashWritesStandardOutputAndNoFileNamedDash() throws {
        try Self.withDatabaseAndDirectory { db, directory in
            let plain = try Self.run(["export", "--db", db.path], in: directory)
            let dash = try Self.run(["export", "-o", "-", "--db", db.path], in: directory)
            #expect(dash.status == 0, "\(dash.stderr)")
            #expect(!plain.stdout.isEmpty && dash.stdout == plain.stdout)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "export -o - left a file in the working directory")
        }
    }

    @Test func backupDashWritesADatabaseFileToStandardOutput() throws {
        try Self.withDatabaseAndDirectory { db, directory in
            let backup = try Self.run(["backup", "--db", db.path, "-"], in: directory)
            #expect(backup.status == 0, "\(backup.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "backup - created something in the working directory")
            // The bytes are a data.mdb: a directory holding them is the same database.
            let restored = directory + "/restored"
            try FileManager.default.createDirectory(atPath: restored, withIntermediateDirectories: true)
            try backup.stdout.write(to: URL(fileURLWithPath: restored + "/data.mdb"))
            #expect(try CLI.run(["verify", "--db", restored]).status == 0)
            #expect(try CLI.run(["export", "--db", restored]).stdout == CLI.run(["export", "--db", db.path]).stdout)
        }
    }

    @Test func backupDashRefusesATerminal() throws {
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        let terminal = try PseudoTerminalRun(["backup", "--db", db.path, "-"], rows: 24, columns: 80)
        let (status, output) = try terminal.finish()
        #expect(status == 64 && output.contains("redirect it"), "\(output)")
    }
}
