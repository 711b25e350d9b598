import Foundation
import Testing
import TweetieTestSupport

/// On a terminal, `import` and `verify` show a bar with the total and a rate
/// on stderr; into a pipe they show nothing.
@Suite("tweetie-db: progress bars")
struct ProgressCLITests {
    @Test func importShowsTheHeadersTotalAndARate() throws {
        let db = try StoreCommandsTests.seeded(300)
        defer { db.remove() }
        let file = db.path + "-export.ndjson"
        #expect(try CLI.run(["export", "-o", file, "--db", db.path]).status == 0)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let copy = TemporaryDirectory.database()
        defer { copy.remove() }
        let terminal = try PseudoTerminalRun(["import", file, "--db", copy.path], rows: 24, columns: 120)
        let (status, output) = try terminal.finish()
        #expect(status == 0 && output.contains("importing [##############################] 300/300 records, "), "\(output.debugDescription)")
        #expect(output.range(of: #"records, [0-9]+k?/s"#, options: .regularExpression) != nil, "\(output.debugDescription)")
        let piped = try CLI.run(["import", file, "--db", copy.path])
        #expect(piped.status == 0 && !piped.stderr.contains("importing"), "\(piped.stderr)")
    }

    @Test func verifyShowsTheEntriesItChecked() throws {
        let db = try StoreCommandsTests.seeded(300)
        defer { db.remove() }
        let terminal = try PseudoTerminalRun(["verify", "--db", db.path], rows: 24, columns: 120)
        let (status, output) = try terminal.finish()
        // 300 tweets, each in two indexes.
        #expect(status == 0 && output.contains("verifying [##############################] 900/900 records and index entries, "), "\(output.debugDescription)")
        #expect(output.contains("ok: 300 tweets"))
    }
}
