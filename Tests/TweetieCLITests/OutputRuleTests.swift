import Foundation
import Testing
import TweetieTestSupport
import TweetieDB
@testable import TweetieDBCore

/// One output rule for every command — a table on a terminal, the command's
/// machine format when piped (NDJSON for lists, JSON for reports), `--format` to choose, never cut
/// when piped, and `verify` in JSON with its exit statuses kept.
@Suite("tweetie-db: one output rule")
struct OutputRuleTests {
    static func object(_ data: Data, _ context: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(context): \(String(decoding: data, as: UTF8.self))")
    }

    @Test func reportsArePrintedAsJSONWhenPiped() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        for command in [["stats"], ["verify"], ["tweets", "show", "5"], ["bench", "reads", "--rounds", "1"]] {
            let result = try CLI.run(command + ["--db", db.path])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let object = try Self.object(result.stdout, "\(command)")
            #expect(!object.isEmpty && result.output.contains("\n  \""), "\(command) is not pretty-printed JSON: \(result.output)")
        }
        let show = try Self.object(try CLI.run(["tweets", "show", "5", "--db", db.path]).stdout, "tweets show")
        #expect(show["idStr"] as? String == "5" && show["username"] as? String == "author4", "\(show)")
        let sync = try CLI.run(["sync", "--simulated", "--ticks", "1", "--db", db.path + "-sync"])
        defer { try? FileManager.default.removeItem(atPath: db.path + "-sync") }
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try Self.object(sync.stdout, "sync")["steps"] != nil, "\(sync.output)")
    }

    @Test func listsArePrintedAsNDJSONWhenPiped() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        for (command, count) in [(["tweets", "list"], 20), (["tweets"], 20), (["schema"], 2)] {
            let result = try CLI.run(command + ["--db", db.path])
            let lines = result.output.split(separator: "\n")
            #expect(result.status == 0 && lines.count == count, "\(command): \(result.output) \(result.stderr)")
            for line in lines { _ = try Self.object(Data(line.utf8), "\(command)") }
        }
    }

    @Test func everyFormatOfAReport() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        let ndjson = try CLI.run(["stats", "--format", "ndjson", "--db", db.path])
        #expect(ndjson.output.split(separator: "\n").count == 1, "\(ndjson.output)")
        #expect(try Self.object(ndjson.stdout, "stats")["freeList"] != nil, "\(ndjson.output)")
        let table = try CLI.run(["stats", "--format", "table", "--db", db.path])
        #expect(table.output.hasPrefix("collection") && table.output.contains("\nchange log "), "\(table.output)")
        let show = try CLI.run(["tweets", "show", "5", "--format", "ndjson", "--db", db.path])
        #expect(show.output.split(separator: "\n").count == 1, "\(show.output)")
        #expect(try Self.object(show.stdout, "show")["idStr"] as? String == "5")
        let bad = try CLI.run(["stats", "--format", "yaml", "--db", db.path])
        #expect(bad.status == 64 && bad.stderr.contains("yaml"), "\(bad.stderr)")
    }

    @Test func aTerminalGetsTables() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        let expected: [([String], String)] = [
            (["stats"], "collection  schema  records"), (["tweets", "show", "5"], "author      Author 4 (@author4"),
            (["tweets", "list"], "id  created"), (["schema"], "collection tweets: Tweet records"),
            (["bench", "reads", "--rounds", "1"], "full scan    20 tweets"),
        ]
        for (command, text) in expected {
            let terminal = try PseudoTerminalRun(command + ["--db", db.path], rows: 24, columns: 200)
            let (status, output) = try terminal.finish()
            #expect(status == 0 && output.contains(text), "\(command): \(output)")
        }
    }

    @Test func aPipedTableIsNeverCutButCOLUMNSIs() throws {
        let db = try TableWidthTests.database()
        defer { db.remove() }
        let piped = try ChildProcess.run(CLI.executable, ["users", "--format", "table", "--db", db.path], environment: ["COLUMNS": nil, "TWEETIE_DB": nil])
        #expect(piped.output.contains("Swift ab👨‍💻 and more\n"), "\(piped.output)")
        let narrow = try CLI.run(["users", "--format", "table", "--db", db.path], environment: ["COLUMNS": "40"])
        #expect(narrow.output.contains("Swift ab…\n"), "\(narrow.output)")
    }

    @Test func verifyPrintsJSONWithItsExitStatuses() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        let clean = try CLI.run(["verify", "--db", db.path])
        let report = try Self.object(clean.stdout, "verify")
        #expect(clean.status == 0 && report["ok"] as? Bool == true && (report["problems"] as? [String])?.isEmpty == true, "\(clean.output)")
        #expect((report["records"] as? [String: Int])?["tweets"] == 20 && report["path"] as? String != nil && (report["pagesChecked"] as? Int ?? 0) > 0, "\(report)")
        // An index entry whose record does not exist.
        do {
            let env = try Environment.open(at: db.path)
            let index = try env.database(named: "tweets#author")
            try env.write { tx in try tx.put(Array("zz-no-such-author".utf8) + [0, 0, 0, 0, 0, 0, 3, 231], [0, 0, 0, 0, 0, 0, 3, 231], in: index) }
            env.close()
        }
        let damaged = try CLI.run(["verify", "--format", "json", "--db", db.path])
        let problems = try Self.object(damaged.stdout, "verify damaged")
        #expect(damaged.status == 3 && problems["ok"] as? Bool == false && (problems["problems"] as? [String])?.isEmpty == false, "\(damaged.output)")
        #expect(damaged.stderr.contains("verify found"), "\(damaged.stderr)")
        let missing = try CLI.run(["verify", "--format", "json", "--db", "/nonexistent/tweetie"])
        #expect(missing.status == 1 && missing.output.isEmpty && missing.stderr.contains("no database"), "\(missing.output) \(missing.stderr)")
    }
}
