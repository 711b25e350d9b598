import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

/// Tables pad and cut by display width — grapheme clusters, East Asian wide
/// characters and emoji take two columns — with `…` where cut, and numbers right-aligned.
@Suite("tweetie-db: tables by display width")
struct TableWidthTests {
    /// A database holding three users with wide and multi-scalar names.
    static func database() throws -> TemporaryDirectory {
        let users = [
            (7, "jonas", "Jonas 👨‍💻 Becker", "Swift ab👨‍💻 and more"),
            (12345, "watanabe", "渡辺健二", "東京"),
            (42, "ann", "Ann", "hi"),
        ]
        var lines = [#"{"collections":[{"count":3,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#]
        for (id, username, name, about) in users {
            lines.append(#"{"collection":"users","record":{"about":"\#(about)","id":\#(id),"imageURL":"","lists":[],"name":"\#(name)","url":"","username":"\#(username)"}}"#)
        }
        let db = TemporaryDirectory.database()
        let imported = try CLI.run(["import", "-", "--db", db.path], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        return db
    }

    @Test func columnsLineUpByDisplayWidthAndNumbersAlignRight() throws {
        let db = try Self.database()
        defer { db.remove() }
        let table = try CLI.run(["users", "--db", db.path, "--format", "table"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.output == """
               id  username   name             about
               42  @ann       Ann              hi
                7  @jonas     Jonas 👨‍💻 Becker  Swift ab👨‍💻 and more
            12345  @watanabe  渡辺健二         東京

            """, "\(table.output)")
    }

    @Test func aCutKeepsClustersWholeAndEndsInAnEllipsis() throws {
        let db = try Self.database()
        defer { db.remove() }
        // 34 columns for the cells at COLUMNS=40: the last one gives up its room down to 10, then
        // the names are cut to 10 ("Jonas 👨‍💻 …", the space before B kept) and "Swift ab👨‍💻…" is
        // cut before the emoji, which does not fit in the 9 columns left for text. 39 columns.
        let table = try CLI.run(["users", "--db", db.path, "--format", "table"], environment: ["COLUMNS": "40"])
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[2] == "    7  @jonas     Jonas 👨‍💻 …  Swift ab…", "\(table.output)")
        #expect(lines[3] == "12345  @watanabe  渡辺健二    東京", "\(table.output)")
        // On a terminal of 40 columns, the same.
        let terminal = try PseudoTerminalRun(["users", "--db", db.path, "--format", "table"], rows: 24, columns: 40)
        let (status, output) = try terminal.finish()
        #expect(status == 0 && output.contains("    7  @jonas     Jonas 👨‍💻 …  Swift ab…\r\n"), "\(output)")
    }
}

/// Every line of every table fits the width it is given, whichever column is long.
extension TableWidthTests {
    static let longName = String(repeating: "n", count: 300)

    /// Tweets and users whose username (not the last column) is 300 characters long, and a user
    /// whose name is 50 KB; all ASCII, so that a line's width is its length.
    static func longCellsDatabase() throws -> TemporaryDirectory {
        let created = Date(timeIntervalSince1970: 1_544_258_835)
        let tweets = (1...3).map { Tweet(id: Int64($0), text: "tweet \($0) " + String(repeating: "t", count: 200), name: "N", username: $0 == 2 ? longName : "ann",
                                          authorId: 7, created: created + Double($0), imageURL: "i", retweetCount: 0, favoriteCount: 0) }
        let users = [User(id: 7, name: "Ann", username: "ann", about: "short", url: "", imageURL: ""),
                     User(id: 8, name: String(repeating: "N", count: 50_000), username: "big", about: "long about " + String(repeating: "a", count: 500), url: "", imageURL: ""),
                     User(id: 9, name: "Zed", username: "z" + longName, about: "z", url: "", imageURL: "")]
        let db = TemporaryDirectory.database()
        let imported = try CLI.run(["import", "-", "--db", db.path], stdin: try ControlCharactersCLITests.export(tweets: tweets, users: users))
        #expect(imported.status == 0, "\(imported.stderr)")
        return db
    }

    static func expectFits(_ output: String, _ width: Int, _ context: String) {
        // A terminal's line ends are CR LF, one Character: make them LF before splitting.
        let lines = output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        let widest = lines.map(\.count).max() ?? 0
        #expect(widest <= width && lines.count > 2, "\(context): a line of \(widest) columns at \(width): \(output.prefix(2000))")
    }

    @Test(arguments: [80, 40, 20])
    func everyTableCommandFitsCOLUMNS(columns: Int) throws {
        let db = try Self.longCellsDatabase()
        defer { db.remove() }
        let commands = [["tweets", "list"], ["users", "list"], ["tweets", "show", "2"], ["users", "show", "big"], ["users", "show", "z" + Self.longName],
                        ["stats"], ["schema"]]
        for command in commands {
            let result = try CLI.run(command + ["--db", db.path, "--format", "table"], environment: ["COLUMNS": "\(columns)"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            Self.expectFits(result.output, columns, "\(command) at COLUMNS=\(columns)")
        }
        // A long username is cut, the short columns around it stay whole.
        let tweets = try CLI.run(["tweets", "list", "--db", db.path, "--format", "table"], environment: ["COLUMNS": "\(columns)"])
        if columns == 80 {
            let row = try #require(tweets.output.split(separator: "\n").first { $0.contains("@nnn") })
            #expect(row.hasPrefix(" 2  2018-12-08T08:47:17.000Z  @nnnn") && row.contains("…  tweet 2 ") && row.hasSuffix("…"), "\(row)")
        }
    }

    @Test func aWidthNarrowerThanTheColumnsStillCutsEveryLine() throws {
        let db = try Self.longCellsDatabase()
        defer { db.remove() }
        // Four columns and their gaps need 10; at 5 each line is cut as a whole.
        let table = try CLI.run(["users", "list", "--db", db.path, "--format", "table"], environment: ["COLUMNS": "5"])
        Self.expectFits(table.output, 5, "users list at COLUMNS=5")
        #expect(table.output.split(separator: "\n").allSatisfy { $0.hasSuffix("…") }, "\(table.output)")
    }

    @Test func aFieldListWrapsLongValuesWholeInsteadOfCuttingThem() throws {
        let db = try Self.longCellsDatabase()
        defer { db.remove() }
        let show = try CLI.run(["users", "show", "big", "--db", db.path, "--format", "table"], environment: ["COLUMNS": "60"])
        Self.expectFits(show.output, 60, "users show")
        // The value column starts at 12; its lines put together give back the whole name.
        let lines = show.output.split(separator: "\n").map(String.init)
        let name = lines.drop { !$0.hasPrefix("name ") }.prefix { $0.hasPrefix("name ") || $0.hasPrefix("            ") }
        #expect(name.map { String($0.dropFirst(12)) }.joined() == String(repeating: "N", count: 50_000))
        #expect(lines.contains("about       long about"), "\(show.output.prefix(1000))")
        // Piped without COLUMNS, each value stays on its line.
        let piped = try CLI.run(["users", "show", "big", "--db", db.path, "--format", "table"])
        #expect(piped.output.contains("name        " + String(repeating: "N", count: 50_000) + "\n"))
    }

    @Test func aLaterWiderCellOfAStreamedTableIsCutToItsColumn() throws {
        let db = try Self.longCellsDatabase()
        defer { db.remove() }
        // Pages of one user: the widths come from @ann's row, the later rows are cut to them.
        let table = try CLI.run(["users", "list", "--db", db.path, "--format", "table", "--page-size", "1"], environment: ["COLUMNS": "50"])
        Self.expectFits(table.output, 50, "users list, pages of 1")
        #expect(table.output.split(separator: "\n").last == " 9  @znnnnn…  Zed   z", "\(table.output)")
        // Without a width, a later cell pushes the rest of its row instead.
        let piped = try CLI.run(["users", "list", "--db", db.path, "--format", "table", "--page-size", "1"])
        #expect(piped.output.contains("@z" + Self.longName + "  Zed"), "\(piped.output.prefix(500))")
    }

    @Test func onATerminalEveryRowFitsItsWidth() throws {
        let db = try Self.longCellsDatabase()
        defer { db.remove() }
        for command in [["tweets", "list"], ["users", "list"], ["users", "show", "big"], ["stats"]] {
            let terminal = try PseudoTerminalRun(command + ["--db", db.path], rows: 24, columns: 80)
            let (status, output) = try terminal.finish()
            #expect(status == 0, "\(command): \(output.prefix(500))")
            Self.expectFits(output, 80, "\(command) on a terminal of 80 columns")
        }
    }
}
