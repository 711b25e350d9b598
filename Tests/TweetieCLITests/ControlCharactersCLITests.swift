import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

/// Stored text that holds terminal controls (an OSC that retitles the window, a CSI that clears
/// the screen, a carriage return, a C1 control, a bidirectional override, a line separator)
/// reaches the terminal only as visible stand-ins, in every table and field list and in error
/// messages; the machine formats keep the exact text.
@Suite("tweetie-db: control characters in stored text")
struct ControlCharactersCLITests {
    /// Text with every kind of control the tables must not pass on.
    static let hostile = "hi\u{1B}]0;pwned\u{07}\u{1B}[2Jthere\rX\u{9B}31m\u{202E}evil\u{2028}end"
    /// The same text as a table shows it.
    static let shown = "hi␛]0;pwned␇␛[2Jthere␍X<U+009B>31m<U+202E>evil<U+2028>end"
    /// What must never appear raw in a table.
    static let raw: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\r", "\u{9B}", "\u{202E}", "\u{2028}"]

    static let tweet = Tweet(id: 42, text: hostile, name: "N\u{1B}[31m", username: "ann\u{1B}[2J", authorId: 7,
                             created: Date(timeIntervalSince1970: 1_544_258_835), imageURL: "i", retweetCount: 0, favoriteCount: 0)
    static let user = User(id: 7, name: hostile, username: "ann", about: "a\u{1B}[2Jb", url: "", imageURL: "")

    /// An export holding `tweets` and `users`, as `tweetie-db export` writes it.
    static func export(tweets: [Tweet] = [tweet], users: [User] = [user]) throws -> Data {
        let encoder = RecordJSON.encoder()
        var lines = [#"{"collections":[{"count":\#(tweets.count),"name":"tweets","schemaVersion":1},{"count":\#(users.count),"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#]
        for tweet in tweets { lines.append(#"{"collection":"tweets","record":"# + String(decoding: try encoder.encode(tweet), as: UTF8.self) + "}") }
        for user in users { lines.append(#"{"collection":"users","record":"# + String(decoding: try encoder.encode(user), as: UTF8.self) + "}") }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func database(at db: TemporaryDirectory = .database()) throws -> TemporaryDirectory {
        let imported = try CLI.run(["import", "-", "--db", db.path], stdin: try export())
        #expect(imported.status == 0, "\(imported.stderr)")
        return db
    }

    static func expectShownOnly(_ text: String, _ context: String) {
        let found = raw.filter { text.unicodeScalars.contains($0) }
        #expect(found.isEmpty, "\(context): raw \(found.map { String(format: "U+%04X", $0.value) }) in \(text.debugDescription)")
    }

    @Test func tablesAndFieldListsShowControlsVisibly() throws {
        let db = try Self.database()
        defer { db.remove() }
        for command in [["tweets", "list"], ["tweets", "show", "42"], ["users", "list"], ["users", "show", "ann"]] {
            let result = try CLI.run(command + ["--db", db.path, "--format", "table"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            Self.expectShownOnly(result.output, "\(command)")
            #expect(result.output.contains("␛["), "\(command): \(result.output)")
        }
        let show = try CLI.run(["tweets", "show", "42", "--db", db.path, "--format", "table"])
        #expect(show.output.contains("text        \(Self.shown)\n"), "\(show.output)")
        #expect(show.output.contains("N␛[31m (@ann␛[2J, id 7)"), "\(show.output)")
        let users = try CLI.run(["users", "show", "ann", "--db", db.path, "--format", "table"])
        #expect(users.output.contains("name        \(Self.shown)\n") && users.output.contains("about       a␛[2Jb\n"), "\(users.output)")
        let list = try CLI.run(["tweets", "list", "--db", db.path, "--format", "table"])
        #expect(list.output.contains("@ann␛[2J  \(Self.shown)\n"), "\(list.output)")
    }

    @Test func aTerminalGetsNoEscapeFromStoredText() throws {
        let db = try Self.database()
        defer { db.remove() }
        for command in [["tweets", "list"], ["tweets", "show", "42"], ["users", "list"], ["users", "show", "ann"]] {
            let terminal = try PseudoTerminalRun(command + ["--db", db.path], rows: 24, columns: 200)
            let (status, output) = try terminal.finish()
            #expect(status == 0, "\(command): \(output)")
            // The terminal's own line ends are CR LF; no other CR, and no escape at all.
            let body = output.replacingOccurrences(of: "\r\n", with: "\n")
            Self.expectShownOnly(body, "\(command) on a terminal")
            #expect(body.contains("␛"), "\(command): \(body)")
        }
    }

    @Test func machineFormatsKeepTheExactText() throws {
        let db = try Self.database()
        defer { db.remove() }
        let show = try CLI.run(["tweets", "show", "42", "--db", db.path, "--format", "json"])
        #expect(try RecordJSON.decoder().decode(Tweet.self, from: show.stdout).text == Self.hostile)
        let list = try CLI.run(["tweets", "list", "--db", db.path, "--format", "ndjson"])
        #expect(try RecordJSON.decoder().decode(Tweet.self, from: list.stdout) == Self.tweet)
        let users = try CLI.run(["users", "list", "--db", db.path, "--format", "json"])
        #expect(try RecordJSON.decoder().decode([User].self, from: users.stdout) == [Self.user])
        let export = try CLI.run(["export", "--db", db.path])
        #expect(export.stdout == (try Self.export()), "\(export.stderr)")
        let feed = try CLI.run(["feed", "person", "ann\u{1B}[2J", "--db", db.path, "--now", "2018-12-09T00:00:00Z"])
        #expect(feed.output.contains(#"\u001b]0;pwned\u0007\u001b[2Jthere\rX"#), "\(feed.output)")
    }

    @Test func statsAndErrorsShowAPathWithControlsVisibly() throws {
        let db = try Self.database(at: TemporaryDirectory("cli-db\u{1B}[2J", create: false))
        defer { db.remove() }
        let stats = try CLI.run(["stats", "--db", db.path, "--format", "table"])
        #expect(stats.status == 0, "\(stats.stderr)")
        Self.expectShownOnly(stats.output, "stats")
        #expect(stats.output.contains("db␛[2J"), "\(stats.output)")
        let missing = try CLI.run(["tweets", "show", "9", "--db", db.path])
        #expect(missing.status == 1 && missing.stderr.contains("no tweet with id 9 in ") && missing.stderr.contains("db␛[2J"), "\(missing.stderr)")
        Self.expectShownOnly(missing.stderr, "the error")
    }
}
