import Foundation
import Testing
import TweetieTestSupport

/// `--now` of `tweetie-db feed` and of `tweetie-serve` is read by one parser: the same forms, the
/// same instant for each, the same error for anything else, and negative years however written.
@Suite("--now means the same to tweetie-db feed and tweetie-serve", .serialized)
struct NowArgumentTests {
    /// Ways to write `--now`, and the same instant in the plainest form.
    static let accepted: [(arguments: [String], instant: String)] = [
        (["--now", "2018-12-10"], "2018-12-10T00:00:00Z"),
        (["--now", "2018-12-10T01:30:00.250+01:30"], "2018-12-10T00:00:00.250Z"),
        (["--now", "+10000-01-01T00:00:00Z"], "+10000-01-01T00:00:00.000Z"),
        (["--now", "-0001-06-01"], "-0001-06-01T00:00:00Z"),
        (["--now=-0001-06-01T00:00:00Z"], "-0001-06-01T00:00:00.000Z"),
    ]

    static let refused = ["2018-12-10 10:00", "yesterday", "2018-12-10T10:00Z", "+2018-12-10", "1544400000", "2018-12-10T00:00:00", "--once"]

    @Test func bothToolsTakeEveryFormAndMeanTheSameInstant() throws {
        let db = ScratchDatabase()
        defer { db.remove() }
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        for (arguments, instant) in Self.accepted {
            // --limit 100: the server's default window.
            let feed = try ChildProcess.run(Executables.url("tweetie-db"), ["feed", "list", "--once", "--limit", "100", "--db", db.path] + arguments,
                                            environment: ["TWEETIE_DB": nil])
            let plain = try Executables.tweetieDB(["feed", "list", "--once", "--limit", "100", "--db", db.path, "--now", instant])
            #expect(feed.status == 0 && plain.status == 0 && feed.stdout == plain.stdout, "\(arguments): \(feed.stderr)")
            let server = try ServerProcess(["--db", db.path] + arguments)
            let snapshot = try HTTPReply.get(port: server.port, "/feeds/list")
            #expect(snapshot.status == 200 && snapshot.text + "\n" == feed.output, "tweetie-serve \(arguments)")
            #expect(server.stop() == 0)
        }
    }

    @Test func bothToolsRefuseAnythingElseWithTheForms() throws {
        for value in Self.refused {
            for tool in ["tweetie-db", "tweetie-serve"] {
                let prefix = tool == "tweetie-db" ? ["feed", "list", "--once"] : []
                let result = try ChildProcess.run(Executables.url(tool), prefix + ["--db", "/nonexistent", "--now", value], environment: ["TWEETIE_DB": nil])
                #expect(result.status == 64, "\(tool) --now \(value): \(result.stderr)")
                #expect(result.stderr.contains("--now '\(value)' is not a date: write YYYY-MM-DD (midnight UTC) or YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)"),
                        "\(tool) --now \(value): \(result.stderr)")
            }
        }
    }

    @Test func bothHelpsStateTheForms() throws {
        for (tool, arguments) in [("tweetie-db", ["feed", "list", "--help"]), ("tweetie-serve", ["--help"])] {
            let help = try ChildProcess.run(Executables.url(tool), arguments).output
                .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            #expect(help.contains("YYYY-MM-DD (midnight UTC) or YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)") && help.contains("(+10000-01-01, -0001-12-31)"),
                    "\(tool): \(help)")
        }
    }
}
