import Foundation
import Testing
import TweetieTestSupport
import TweetieSync

/// What sqlite3 and the mdb tools have — `users show`, `export --collection`,
/// `schema`, the free list in `stats` — and two failures made clean: a failed import into a new
/// path leaves nothing behind, and a filtered export's stale header gets a fix.
@Suite("tweetie-db: users show, export --collection, schema, stats, failed imports")
struct DatabaseToolsCLITests {
    @Test func usersShowFindsAUserByName() throws {
        let db = try TableWidthTests.database()
        defer { db.remove() }
        let table = try CLI.run(["users", "show", "JONAS", "--format", "table", "--db", db.path])
        #expect(table.status == 0 && table.output.contains("username    @jonas") && table.output.contains("name        Jonas 👨‍💻 Becker"), "\(table.output) \(table.stderr)")
        let json = try CLI.run(["users", "show", "@watanabe", "--format", "ndjson", "--db", db.path])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["idStr"] as? String == "12345" && object["name"] as? String == "渡辺健二")
        let missing = try CLI.run(["users", "show", "nobody", "--db", db.path])
        #expect(missing.status == 1 && missing.stderr.contains("no user @nobody"), "\(missing.stderr)")
        #expect(try CLI.run(["users", "--format", "ndjson", "--db", db.path]).output.split(separator: "\n").count == 3)
    }

    @Test func exportOneCollection() throws {
        let db = try StringIDTwinsCLITests.database()
        defer { db.remove() }
        let users = try CLI.run(["export", "--collection", "users", "--db", db.path])
        let lines = users.output.split(separator: "\n")
        #expect(users.status == 0 && lines.count == 2, "\(users.output) \(users.stderr)")
        #expect(lines.first == #"{"collections":[{"count":1,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#)
        #expect(lines.last?.hasPrefix(#"{"collection":"users","record":"#) == true)
        let copy = TemporaryDirectory.database()
        defer { copy.remove() }
        #expect(try CLI.run(["import", "-", "--db", copy.path], stdin: users.stdout).status == 0)
        #expect(try CLI.run(["export", "--db", copy.path, "--collection", "users"]).stdout == users.stdout)
        let unknown = try CLI.run(["export", "--collection", "nosuch", "--db", db.path])
        #expect(unknown.status == 64 && unknown.stderr.contains("tweets, users"), "\(unknown.stderr)")
    }

    @Test func schemaListsFieldsIndexesAndVersions() throws {
        let db = try StringIDTwinsCLITests.database()
        defer { db.remove() }
        let json = try CLI.run(["schema", "--format", "json", "--db", db.path])
        let collections = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]], "\(json.output) \(json.stderr)")
        #expect(collections.map { $0["name"] as? String } == ["tweets", "users"])
        let tweets = collections[0]
        #expect(tweets["schemaVersion"] as? Int == 1 && tweets["records"] as? Int == 1 && tweets["recordType"] as? String == "Tweet")
        let fields = (tweets["fields"] as? [[String: Any]] ?? []).map { "\($0["name"]!) \($0["type"]!) \($0["primaryKey"]!)" }
        #expect(fields.contains("id Int64 1") && fields.contains("inReplyToId Int64? 0") && fields.contains("lists [String] 0"), "\(fields)")
        let indexes = (tweets["indexes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(indexes == ["created", "author"])
        let table = try CLI.run(["schema", "--format", "table", "--db", db.path]).output
        #expect(table.contains("collection tweets: Tweet records, schema version 1, 1 record") && table.contains("index author (ascending, descending)"), "\(table)")
    }

    @Test func statsShowsTheFreeListAndNotItsOwnReader() throws {
        let db = try StoreCommandsTests.seeded(200)
        defer { db.remove() }
        #expect(try CLI.run(["tweets", "delete", "--force"] + (1...150).map(String.init) + ["--db", db.path]).status == 0)
        let json = try CLI.run(["stats", "--format", "json", "--db", db.path])
        let stats = try RecordJSON.decoder().decode(StoreStatistics.self, from: json.stdout)
        #expect(stats.info.readersInUse == 0, "stats counted its own read transaction")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let free = try #require(object["freeList"] as? [String: Int], "\(json.output)")
        #expect(free["pages"]! > 0 && free["bytes"] == free["pages"]! * stats.info.pageSize, "\(free)")
        let table = try CLI.run(["stats", "--format", "table", "--db", db.path]).output
        #expect(table.contains("free list       \(free["pages"]!) pages") && table.contains("readers         0 of"), "\(table)")
    }

    /// One-character relative paths (`--db x`, `-o y`): walking up such a path through
    /// `NSString.deletingLastPathComponent` trapped (signal 4) on this toolchain.
    @Test func oneCharacterRelativePathsWork() throws {
        let db = try StringIDTwinsCLITests.database()
        defer { db.remove() }
        let work = TemporaryDirectory("cli-relative")
        defer { work.remove() }
        let script = """
            cd "$1" && "$2" export -o y --db "$3" && "$2" import y --db x && "$2" export -o z --db x \
              && "$2" import - --db n < /dev/null; echo "status $?"; cmp y z && echo same
            """
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", work.path, CLI.executable.path, db.path],
                                          environment: ["TWEETIE_DB": nil])
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.signal == nil && output.contains("status 1") && output.hasSuffix("same\n"), "\(output)\n\(result.stderr)")
        // The failed import into the new relative path `n` leaves nothing behind.
        #expect(!FileManager.default.fileExists(atPath: work.path + "/n"))
        #expect(FileManager.default.fileExists(atPath: work.path + "/x/data.mdb"))
    }

    /// An empty path is refused by name, before anything is opened or created. (`export -o ''`
    /// wrote its temporary file and then reported "cannot finish writing : No such file or
    /// directory"; `backup ''` an error from `mdb_env_copyfd2`.)
    @Test func emptyPathsAreRefusedByName() throws {
        let db = try StringIDTwinsCLITests.database()
        defer { db.remove() }
        for command in [["stats", "--db", ""], ["import", "-", "--db", ""], ["export", "-o", "", "--db", db.path], ["backup", "", "--db", db.path]] {
            let result = try CLI.run(command, stdin: Data())
            #expect(result.status == 1 && result.stderr.contains("is an empty path"), "\(command): \(result.stderr)")
        }
    }

    @Test func aFailedImportIntoANewPathLeavesNothing() throws {
        let base = TemporaryDirectory.database()
        defer { base.remove() }
        let target = base.path + "/new/db"
        let failed = try CLI.run(["import", "-", "--db", target], stdin: Data("not an export\n".utf8))
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: base.path), "the failed import left \(base.path) behind")
        // Into an existing empty directory: the directory stays, the database files go.
        try FileManager.default.createDirectory(atPath: base.path, withIntermediateDirectories: true)
        #expect(try CLI.run(["import", "-", "--db", base.path], stdin: Data("not an export\n".utf8)).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
    }

    @Test func aFilteredExportWithAStaleHeaderGetsTheFix() throws {
        let db = try StringIDTwinsCLITests.database()
        defer { db.remove() }
        let export = try CLI.run(["export", "--db", db.path]).output
        let filtered = export.split(separator: "\n").filter { !$0.contains(#""collection":"tweets""#) }.joined(separator: "\n") + "\n"
        let refused = try CLI.run(["import", "-", "--db", db.path + "-copy"], stdin: Data(filtered.utf8))
        #expect(refused.status == 1 && refused.stderr.contains("If you filtered an export") && refused.stderr.contains("export --collection"), "\(refused.stderr)")
        // The advice works (jq 1.7 keeps large ids exact).
        let program = try #require(refused.stderr.range(of: "jq -cs '").map { refused.stderr[$0.lowerBound...] }?.components(separatedBy: " FILE").first)
        let script = "printf '%s' \"$1\" | \(program) | \"$0\" import - --db '\(db.path)-copy'"
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, CLI.executable.path, filtered]
        let err = Pipe()
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: db.path + "-copy") }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && stderr.contains("imported 1 records (1 users)"), "\(script): \(stderr)")
    }
}

/// `bench writes --db` into a database that holds tweets would overwrite ids
/// 1…N and report updates as additions: it is refused.
@Suite("tweetie-db bench writes --db into a non-empty database")
struct BenchIntoNonEmptyDatabaseTests {
    @Test func aDatabaseHoldingTweetsIsRefused() throws {
        let db = try StoreCommandsTests.seeded(40)
        defer { db.remove() }
        let before = try CLI.run(["export", "--db", db.path]).stdout
        let again = try CLI.run(["bench", "writes", "--db", db.path, "--records", "40", "--batch", "40", "--durability", "no-sync"])
        #expect(again.status == 64 && again.stderr.contains("already holds 40 tweets"), "\(again.stderr)")
        #expect(try CLI.run(["export", "--db", db.path]).stdout == before)
        // One commit: no commits/s.
        let fresh = TemporaryDirectory.database()
        defer { fresh.remove() }
        let single = try CLI.run(["bench", "writes", "--db", fresh.path, "--records", "40", "--batch", "40", "--durability", "no-sync", "--format", "table"])
        #expect(single.status == 0 && single.output.contains("throughput") && !single.output.contains("commits/s"), "\(single.output)")
    }
}
