import Foundation
import Testing
import TweetieTestSupport

/// `tweets list` and `users list` read a page at a time (each page in its own
/// read transaction, continuing after the last row) in every format, and stop at 50 rows on a
/// terminal with a note on stderr of how many more there are.
@Suite("tweetie-db: streamed listings")
struct ListStreamingTests {
    /// 40 tweets, four created at each instant (ids shuffled, so a tie is ordered by id, not by
    /// insertion), by authors a (even ids) and b (odd); and users whose usernames tie ignoring case.
    static let tweetIDs: [Int64] = (0..<40).map { Int64(($0 * 17) % 40 + 1) }
    static let base = Date(timeIntervalSince1970: 1_544_256_000)  // 2018-12-08T08:00:00Z

    static func created(_ id: Int64) -> Date { base.addingTimeInterval(-Double((id - 1) / 4) * 60) }

    static func database() throws -> TemporaryDirectory {
        let users: [(Int64, String)] = [(5, "ann"), (3, "Ann"), (9, "bob"), (1, "ANN"), (7, "cy")]
        var lines = [#"{"collections":[{"count":40,"name":"tweets","schemaVersion":1},{"count":5,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#]
        for id in tweetIDs {
            let author = id % 2 == 0 ? "a" : "b"
            lines.append(#"{"collection":"tweets","record":{"authorId":\#(id % 2 + 100),"created":"\#(ISO8601DateFormatter().string(from: created(id)))","favoriteCount":0,"id":\#(id),"imageURL":"i","isRetweet":false,"lists":[],"name":"N","retweetCount":0,"text":"tweet \#(id)","username":"\#(author)"}}"#)
        }
        for (id, username) in users {
            lines.append(#"{"collection":"users","record":{"about":"","id":\#(id),"imageURL":"i","lists":[],"name":"N","url":"","username":"\#(username)"}}"#)
        }
        let db = TemporaryDirectory.database()
        let imported = try CLI.run(["import", "-", "--db", db.path], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        return db
    }

    /// The listing's order: newest first, a tie by ascending id.
    static func expected(_ keep: (Int64) -> Bool = { _ in true }) -> [Int64] {
        tweetIDs.filter(keep).sorted { (created($0), -$0) > (created($1), -$1) }
    }

    static func ids(_ ndjson: String) throws -> [Int64] {
        try ndjson.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return Int64(try #require(object["idStr"] as? String))!
        }
    }

    @Test func everyPageSizeGivesTheRowsOfTheListingOnce() throws {
        let db = try Self.database()
        defer { db.remove() }
        let since = ISO8601DateFormatter().string(from: Self.created(21))
        let cases: [([String], [Int64])] = [
            ([], Self.expected()),
            (["--author", "a"], Self.expected { $0 % 2 == 0 }),
            (["--author", "b", "--since", since], Self.expected { $0 % 2 == 1 && Self.created($0) >= Self.created(21) }),
            (["--contains", "1"], Self.expected { "tweet \($0)".contains("1") }),
            (["--limit", "13"], Array(Self.expected().prefix(13))),
        ]
        for (filters, expected) in cases {
            for pageSize in ["1", "3", "4", "7", "1000"] {
                let result = try CLI.run(["tweets", "list", "--format", "ndjson", "--page-size", pageSize, "--db", db.path] + filters)
                #expect(result.status == 0, "\(filters) page \(pageSize): \(result.stderr)")
                #expect(try Self.ids(result.output) == expected, "\(filters) page \(pageSize)")
            }
        }
    }

    @Test func jsonAndTablesAreStreamedAcrossPages() throws {
        let db = try Self.database()
        defer { db.remove() }
        let json = try CLI.run(["tweets", "list", "--format", "json", "--page-size", "3", "--db", db.path])
        let array = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]], "\(json.output)")
        #expect(array.compactMap { ($0["idStr"] as? String).flatMap { Int64($0) } } == Self.expected())
        #expect(json.output.hasPrefix("[\n{") && json.output.hasSuffix("}\n]\n") && json.output.split(separator: "\n").count == 42, "\(json.output)")
        let empty = try CLI.run(["tweets", "list", "--format", "json", "--author", "nobody", "--db", db.path])
        #expect(empty.output == "[]\n", "\(empty.output)")
        let table = try CLI.run(["tweets", "list", "--format", "table", "--page-size", "3", "--db", db.path])
        let lines = table.output.split(separator: "\n")
        #expect(lines.count == 41 && lines[0].hasPrefix("id  created") && lines.dropFirst().allSatisfy { $0.contains("  @") }, "\(table.output)")
    }

    @Test func usersAreListedByUsernameAcrossPages() throws {
        let db = try Self.database()
        defer { db.remove() }
        for pageSize in ["1", "2", "1000"] {
            let result = try CLI.run(["users", "list", "--format", "ndjson", "--page-size", pageSize, "--db", db.path])
            #expect(try Self.ids(result.output) == [1, 3, 5, 9, 7], "page \(pageSize): \(result.output)")
        }
        let limited = try CLI.run(["users", "--limit", "2", "--db", db.path])
        #expect(try Self.ids(limited.output) == [1, 3])
    }

    /// The rows of a listing printed on a terminal (lines that start with an id).
    static func rows(_ output: String) -> Int {
        output.components(separatedBy: "\r\n").filter { $0.drop { $0 == " " }.first?.isNumber == true && $0.contains("  @") }.count
    }

    @Test func aTerminalGetsTheFirst50AndHowManyMore() throws {
        let db = try StoreCommandsTests.seeded(120)
        defer { db.remove() }
        let (status, output) = try PseudoTerminalRun(["tweets", "list", "--db", db.path], rows: 24, columns: 120).finish()
        #expect(status == 0 && Self.rows(output) == 50 && output.contains("70 more tweets — use --limit N or --all to print them"), "\(output)")
        let all = try PseudoTerminalRun(["tweets", "list", "--all", "--db", db.path], rows: 24, columns: 120).finish()
        #expect(all.status == 0 && Self.rows(all.output) == 120 && !all.output.contains("more tweets"), "\(all.output)")
        let limited = try PseudoTerminalRun(["tweets", "list", "--limit", "60", "--db", db.path], rows: 24, columns: 120).finish()
        #expect(limited.status == 0 && Self.rows(limited.output) == 60 && !limited.output.contains("more tweets"), "\(limited.output)")
        let piped = try CLI.run(["tweets", "list", "--db", db.path])
        #expect(piped.output.split(separator: "\n").count == 120 && piped.stderr.isEmpty, "\(piped.stderr)")
        let both = try CLI.run(["tweets", "list", "--all", "--limit", "3", "--db", db.path])
        #expect(both.status == 64 && both.stderr.contains("--limit and --all cannot be used together"), "\(both.stderr)")
    }
}
