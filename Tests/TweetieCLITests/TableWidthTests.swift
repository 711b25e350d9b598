import Foundation
import Testing

/// Issue 20, point 3: tables pad and cut by display width — grapheme clusters, East Asian wide
/// characters and emoji take two columns — with `…` where cut, and numbers right-aligned.
@Suite("tweetie-db: tables by display width")
struct TableWidthTests {
    /// A database holding three users with wide and multi-scalar names.
    static func database() throws -> TemporaryDatabase {
        let users = [
            (7, "jonas", "Jonas 👨‍💻 Becker", "Swift ab👨‍💻 and more"),
            (12345, "watanabe", "渡辺健二", "東京"),
            (42, "ann", "Ann", "hi"),
        ]
        var lines = [#"{"collections":[{"count":3,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#]
        for (id, username, name, about) in users {
            lines.append(#"{"collection":"users","record":{"about":"\#(about)","id":\#(id),"imageURL":"","lists":[],"name":"\#(name)","url":"","username":"\#(username)"}}"#)
        }
        let db = TemporaryDatabase()
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
        // 35 columns before the last one: it gets its minimum of 10, so "Swift ab👨‍💻…" (12) is cut
        // before the emoji, which does not fit in the 9 columns left for text.
        let table = try CLI.run(["users", "--db", db.path, "--format", "table"], environment: ["COLUMNS": "40"])
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[2] == "    7  @jonas     Jonas 👨‍💻 Becker  Swift ab…", "\(table.output)")
        // On a terminal of 40 columns, the same.
        let terminal = try PseudoTerminalRun(["users", "--db", db.path, "--format", "table"], rows: 24, columns: 40)
        let (status, output) = try terminal.finish()
        #expect(status == 0 && output.contains("Jonas 👨‍💻 Becker  Swift ab…\r\n"), "\(output)")
    }
}
