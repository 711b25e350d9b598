import Foundation
import Testing
import TweetieTestSupport
import TweetieSync

/// `import --mode replace` and `tweets delete` ask on a terminal, need
/// `--force` elsewhere, and say what they would do with `--dry-run`.
@Suite("tweetie-db: destructive commands ask, or need --force")
struct DestructiveCommandsTests {
    static let headerOnly = #"{"collections":[],"format":"tweetie-db-export","version":1}"# + "\n"

    static func tweetCount(_ db: TemporaryDirectory) throws -> Int {
        let stats = try CLI.run(["stats", "--db", db.path, "--format", "json"])
        return try RecordJSON.decoder().decode(StoreStatistics.self, from: stats.stdout).collections.first { $0.name == "tweets" }?.records ?? -1
    }

    @Test func withoutATerminalTheyNeedForce() throws {
        let db = try StoreCommandsTests.seeded(30)
        defer { db.remove() }
        let delete = try CLI.run(["tweets", "delete", "1", "2", "--db", db.path])
        #expect(delete.status == 64 && delete.stderr.contains("--force") && delete.stderr.contains("delete 2 tweets"), "\(delete.stderr)")
        let replace = try CLI.run(["import", "-", "--mode", "replace", "--db", db.path], stdin: Data(Self.headerOnly.utf8))
        #expect(replace.status == 64 && replace.stderr.contains("--force") && replace.stderr.contains("30 tweets"), "\(replace.stderr)")
        #expect(try Self.tweetCount(db) == 30)
        // A merge loses nothing: no question.
        let merge = try CLI.run(["import", "-", "--db", db.path], stdin: Data(Self.headerOnly.utf8))
        #expect(merge.status == 0, "\(merge.stderr)")
        let forced = try CLI.run(["import", "-", "--mode", "replace", "--force", "--db", db.path], stdin: Data(Self.headerOnly.utf8))
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Self.tweetCount(db) == 0)
    }

    @Test func dryRunSaysWhatWouldChangeAndChangesNothing() throws {
        let db = try StoreCommandsTests.seeded(30)
        defer { db.remove() }
        let export = try CLI.run(["export", "--db", db.path]).stdout
        // The file: the header announcing 10 tweets, tweets 21…30 (stored), and 5 new ones.
        var lines = String(decoding: export, as: UTF8.self).split(separator: "\n").map(String.init)
        let records = Array(lines.dropFirst().suffix(10))
        let new = (31...35).map { id in records[0].replacingOccurrences(of: "\"id\":21,", with: "\"id\":\(id),").replacingOccurrences(of: "\"idStr\":\"21\"", with: "\"idStr\":\"\(id)\"") }
        lines = [lines[0].replacingOccurrences(of: "\"count\":30", with: "\"count\":15")] + records + new
        let file = Data((lines.joined(separator: "\n") + "\n").utf8)
        let replace = try CLI.run(["import", "-", "--mode", "replace", "--dry-run", "--db", db.path], stdin: file)
        #expect(replace.status == 0, "\(replace.stderr)")
        #expect(replace.output == "tweets: 5 added, 10 replaced, 20 deleted\n", "\(replace.output)")
        let merge = try CLI.run(["import", "-", "--dry-run", "--db", db.path], stdin: file)
        #expect(merge.output == "tweets: 5 added, 10 replaced, 0 deleted\n", "\(merge.output)")
        let delete = try CLI.run(["tweets", "delete", "3", "1", "--dry-run", "--db", db.path])
        #expect(delete.status == 0 && delete.output.contains("would delete 2 tweets") && delete.output.contains("ids 1, 3"), "\(delete.output)")
        #expect(try CLI.run(["export", "--db", db.path]).stdout == export)
        // Into a path with no database: everything is new, and nothing is created.
        let fresh = TemporaryDirectory.database()
        let intoNothing = try CLI.run(["import", "-", "--dry-run", "--db", fresh.path], stdin: file)
        #expect(intoNothing.output == "tweets: 15 added, 0 replaced, 0 deleted\n", "\(intoNothing.output) \(intoNothing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
    }

    @Test func onATerminalTheyAsk() throws {
        let db = try StoreCommandsTests.seeded(30)
        defer { db.remove() }
        let declined = try PseudoTerminalRun(["tweets", "delete", "1", "2", "--db", db.path], rows: 24, columns: 100)
        try declined.wait(for: "[y/N]")
        try declined.type("n\r")
        let (status, output) = try declined.finish()
        #expect(status == 1 && output.contains("This will delete 2 tweets from") && output.contains("nothing was changed"), "\(output)")
        #expect(try Self.tweetCount(db) == 30)
        let accepted = try PseudoTerminalRun(["tweets", "delete", "1", "2", "--db", db.path], rows: 24, columns: 100)
        try accepted.wait(for: "[y/N]")
        try accepted.type("y\r")
        #expect(try accepted.finish().status == 0)
        #expect(try Self.tweetCount(db) == 28)
        // The header-only file of the issue: on a terminal, replace asks before emptying the database.
        let file = db.path + "-header-only.ndjson"
        try Data(Self.headerOnly.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let replace = try PseudoTerminalRun(["import", file, "--mode", "replace", "--db", db.path], rows: 24, columns: 200)
        try replace.wait(for: "[y/N]")
        #expect(replace.output.contains("delete the 28 tweets stored in"))
        try replace.type("\r")
        #expect(try replace.finish().status == 1)
        #expect(try Self.tweetCount(db) == 28)
    }
}
