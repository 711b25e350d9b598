import Foundation
import Testing
import TweetieSync
import TweetieTestSupport
import TweetieDB
@testable import TweetieDBCore

@Suite("tweetie-db store commands")
struct StoreCommandsTests {
    /// A database with `count` synthetic tweets, written by `bench writes --db`.
    static func seeded(_ count: Int = 120) throws -> TemporaryDirectory {
        let db = TemporaryDirectory.database()
        let result = try CLI.run(["bench", "writes", "--db", db.path, "--records", "\(count)", "--batch", "\(min(40, count))", "--durability", "no-sync", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(BenchWritesResult.self, from: result.stdout)
        #expect(report.records == count && report.commits == (count + min(40, count) - 1) / min(40, count))
        return db
    }

    @Test func statsTweetsUsersShowAndDelete() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let stats = try CLI.run(["stats", "--db", db.path, "--format", "json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let decoded = try RecordJSON.decoder().decode(StoreStatistics.self, from: stats.stdout)
        #expect(decoded.collections.first { $0.name == "tweets" }?.records == 120)
        #expect(decoded.collections.first { $0.name == "tweets" }?.indexEntries == ["created": 120, "author": 120])
        #expect(decoded.changeLogLast == 3)
        let table = try CLI.run(["stats", "--format", "table", "--db", db.path])
        #expect(table.output.contains("tweets") && table.output.contains("change log"))

        let newest = try CLI.run(["tweets", "--db", db.path, "--limit", "3", "--format", "ndjson"])
        let ids = newest.output.split(separator: "\n").map { try! RecordJSON.decoder().decode(Tweet.self, from: Data($0.utf8)).id }
        #expect(ids == [120, 119, 118])
        let byAuthor = try CLI.run(["tweets", "--db", db.path, "--author", "author7", "--format", "json"])
        let tweets = try RecordJSON.decoder().decode([Tweet].self, from: byAuthor.stdout)
        #expect(tweets.map(\.id) == [98, 68, 38, 8])
        let since = try CLI.run(["tweets", "--db", db.path, "--since", RecordJSON.string(from: SyntheticTweets().tweet(at: 100).created), "--format", "json"])
        #expect(try RecordJSON.decoder().decode([Tweet].self, from: since.stdout).count == 20)
        let bad = try CLI.run(["tweets", "--db", db.path, "--since", "yesterday"])
        #expect(bad.status != 0 && bad.stderr.contains("--since 'yesterday' is not a date: write YYYY-MM-DD"))

        let show = try CLI.run(["tweets", "show", "5", "--format", "table", "--db", db.path])
        #expect(show.status == 0 && show.output.contains("@author4"))
        let missing = try CLI.run(["tweets", "show", "999", "--db", db.path])
        #expect(missing.status != 0 && missing.stderr.contains("no tweet with id 999"))

        let refused = try CLI.run(["tweets", "delete", "--force", "1", "999", "--db", db.path])
        #expect(refused.status != 0 && refused.stderr.contains("nothing was deleted"))
        let deleted = try CLI.run(["tweets", "delete", "--force", "1", "2", "--db", db.path])
        #expect(deleted.status == 0)
        let after = try CLI.run(["stats", "--db", db.path, "--format", "json"])
        #expect(try RecordJSON.decoder().decode(StoreStatistics.self, from: after.stdout).collections.first { $0.name == "tweets" }?.records == 118)
        let verify = try CLI.run(["verify", "--format", "table", "--db", db.path])
        #expect(verify.status == 0 && verify.output.hasPrefix("ok:"))
        let users = try CLI.run(["users", "--db", db.path, "--format", "json"])
        #expect(users.status == 0 && users.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || users.output.contains("[]") || users.output.contains("[\n\n]"))
    }

    /// A record written through the Swift API may hold any `Double` as a date. Tables show such a
    /// tweet (they used to trap on it); JSON output and export refuse it with a sentence.
    @Test func aTweetWithADateThatHasNoTextIsShownNotACrash() throws {
        let db = try Self.seeded(3)
        defer { db.remove() }
        let store = try TweetieDatabase.open(at: db.path)
        for (id, seconds) in [(900_001, Double.nan), (900_002, -Double.infinity), (900_003, 1e300)] as [(Int64, Double)] {
            let tweet = Tweet(id: id, text: "odd date", name: "Ann", username: "ann", authorId: 7,
                              created: Date(timeIntervalSince1970: seconds), imageURL: "https://example.com/a.png",
                              retweetCount: 0, favoriteCount: 0)
            try store.write { try $0.add(tweet) }
        }
        store.close()

        let list = try CLI.run(["tweets", "list", "--db", db.path, "--format", "table"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.output.contains("no date (nan s from 1970)") && list.output.contains("no date (-inf s from 1970)")
                && list.output.contains("no date (1e+300 s from 1970)"), "\(list.output)")
        let show = try CLI.run(["tweets", "show", "900001", "--db", db.path, "--format", "table"])
        #expect(show.status == 0 && show.output.contains("no date (nan s from 1970)"), "\(show.stderr)\(show.output)")
        for arguments in [["tweets", "show", "900001", "--format", "json"], ["export"]] {
            let refused = try CLI.run(arguments + ["--db", db.path])
            #expect(refused.status != 0 && refused.signal == nil, "\(arguments): \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.contains("Error:") && !refused.stderr.contains("Fatal error"), "\(arguments): \(refused.stderr)")
        }
    }

    @Test func exportImportRoundTripAndBackup() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let first = try CLI.run(["export", "--db", db.path])
        #expect(first.status == 0)
        let copy = TemporaryDirectory.database()
        defer { copy.remove() }
        let imported = try CLI.run(["import", "-", "--db", copy.path], stdin: first.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("imported 120 records"))
        let second = try CLI.run(["export", "--db", copy.path])
        #expect(second.stdout == first.stdout)
        // Export to a file, then a hot backup, which opens and verifies.
        let file = copy.path + "-export.ndjson"
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try CLI.run(["export", "--db", db.path, "--output", file]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == first.stdout)
        let backup = TemporaryDirectory.database()
        defer { backup.remove() }
        #expect(try CLI.run(["backup", backup.path, "--db", db.path]).status == 0)
        #expect(try CLI.run(["export", "--db", backup.path]).stdout == first.stdout)
        #expect(try CLI.run(["verify", "--db", backup.path]).status == 0)
        let again = try CLI.run(["backup", backup.path, "--db", db.path])
        #expect(again.status != 0 && again.stderr.contains("already holds a database"))
    }

    @Test(arguments: [
        ("bad JSON", "{\"collection\":\"tweets\",\"record\":{\n", "line 2"),
        ("wrong type", "{\"collection\":\"users\",\"record\":{\"id\":\"seven\",\"name\":\"n\",\"username\":\"u\",\"about\":\"\",\"url\":\"\",\"imageURL\":\"\"}}\n", "line 2"),
        ("missing field", "{\"collection\":\"users\",\"record\":{\"id\":7,\"username\":\"u\",\"about\":\"\",\"url\":\"\",\"imageURL\":\"\"}}\n", "missing field 'name'"),
        ("unknown collection", "{\"collection\":\"likes\",\"record\":{}}\n", "unknown collection 'likes'"),
        ("duplicate key", "{\"collection\":\"users\",\"record\":{\"id\":7,\"name\":\"n\",\"username\":\"u\",\"about\":\"\",\"url\":\"\",\"imageURL\":\"\"}}\n{\"collection\":\"users\",\"record\":{\"id\":7,\"name\":\"m\",\"username\":\"v\",\"about\":\"\",\"url\":\"\",\"imageURL\":\"\"}}\n", "line 3: duplicate key 7"),
        ("truncated", "{\"collection\":\"users\",\"record\":{\"id\":7,\"name\":\"n\",\"username\":\"u\",\"about\":\"\",\"url\":\"\",\"imageURL\":\"\"}}", "truncated"),
    ])
    func badImportsFailWithTheLineAndLeaveTheDatabaseUnchanged(name: String, body: String, expected: String) throws {
        let db = try Self.seeded(30)
        defer { db.remove() }
        let before = try CLI.run(["export", "--db", db.path]).stdout
        let header = "{\"collections\":[{\"count\":1,\"name\":\"users\",\"schemaVersion\":1}],\"format\":\"tweetie-db-export\",\"version\":1}\n"
        for mode in ["merge", "replace"] {
            let result = try CLI.run(["import", "-", "--db", db.path, "--mode", mode, "--force"], stdin: Data((header + body).utf8))
            #expect(result.status != 0, "\(name)")
            #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
            #expect(result.stderr.contains("the database was not changed"), "\(name)")
            #expect(!result.stderr.contains("Swift/") && result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
            #expect(try CLI.run(["export", "--db", db.path]).stdout == before, "\(name) (\(mode)) changed the database")
        }
        for input in ["", "not json\n"] {
            let result = try CLI.run(["import", "-", "--db", db.path], stdin: Data(input.utf8))
            #expect(result.status != 0)
            #expect(try CLI.run(["export", "--db", db.path]).stdout == before)
        }
    }

    @Test func databaseLocationErrorsAreClearSentences() throws {
        let missing = try CLI.run(["stats", "--db", "/nonexistent/tweetie"])
        #expect(missing.status != 0 && missing.stderr.contains("no database at /nonexistent/tweetie"))
        let dir = TemporaryDirectory.database()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let empty = try CLI.run(["tweets", "--db", dir.path])
        #expect(empty.status != 0 && empty.stderr.contains("is not a TweetieDB database"))
        // A database of a newer format.
        let db = try Self.seeded(5)
        defer { db.remove() }
        do {
            let env = try Environment.open(at: db.path)
            let meta = try env.database(named: "_meta")
            try env.write { tx in try tx.put(Array("format".utf8), [0, 0, 0, 42], in: meta) }
            env.close()
        }
        let newer = try CLI.run(["stats", "--db", db.path])
        #expect(newer.status != 0 && newer.stderr.contains("newer version of TweetieDB"))
        // The default location comes from TWEETIE_DB.
        let viaEnvironment = try CLI.run(["stats"], environment: ["TWEETIE_DB": "/nonexistent/from-env"])
        #expect(viaEnvironment.stderr.contains("/nonexistent/from-env"))
        let viaXDG = try CLI.run(["stats"], environment: ["XDG_DATA_HOME": "/nonexistent/xdg"])
        #expect(viaXDG.stderr.contains("/nonexistent/xdg/tweetie-db"))
    }

    @Test func everySubcommandHasHelp() throws {
        for command in [["stats"], ["tweets", "list"], ["tweets", "show"], ["tweets", "delete"], ["users", "list"], ["users", "show"], ["export"], ["import"], ["backup"], ["verify"], ["bench", "writes"]] {
            let help = try CLI.run(command + ["--help"])
            #expect(help.status == 0, "\(command)")
            #expect(help.output.contains("OVERVIEW:") && help.output.contains("--db"), "\(command)")
        }
        for group in [["tweets"], ["users"], ["bench"]] {
            let help = try CLI.run(group + ["--help"])
            #expect(help.status == 0 && help.output.contains("SUBCOMMANDS:"), "\(group)")
        }
    }
}
