import Foundation
import Testing
import TweetieTestSupport
import TweetieSync
import TweetieDB
@testable import TweetieDBCore

/// Help leads with examples and says true things; unknown commands are usage
/// errors with suggestions; exit statuses are documented and tell "verify found problems" from
/// "no database".
@Suite("tweetie-db: help, unknown commands and exit statuses")
struct HelpAndExitStatusTests {
    static let commands = [["stats"], ["tweets"], ["tweets", "list"], ["tweets", "show"], ["tweets", "delete"], ["users"],
                           ["export"], ["import"], ["backup"], ["verify"], ["sync"], []]

    @Test func helpLeadsWithExamples() throws {
        for command in Self.commands {
            let help = try CLI.run(command + ["--help"])
            let text = help.output
            let examples = try #require(text.range(of: "Examples:\n  tweetie-db \(command.first ?? "")"), "\(command): \(text)")
            let usage = try #require(text.range(of: "USAGE:"), "\(command)")
            #expect(help.status == 0 && examples.lowerBound < usage.lowerBound, "\(command)")
        }
        let root = try CLI.run(["--help"]).output
        #expect(root.contains("3 verify found problems") && root.contains("64 usage error") && root.contains("1 failed"), "\(root)")
    }

    /// The help of `command`, its lines joined and spaces collapsed.
    static func help(_ command: [String]) throws -> String {
        try CLI.run(command + ["--help"]).output.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    }

    @Test func helpSaysTrueThings() throws {
        let show = try CLI.run(["tweets", "show", "--help"]).output
        #expect(show.contains("table, json, or ndjson"), "\(show)")
        for reader in [["stats"], ["tweets", "list"], ["export"], ["verify"], ["backup"], ["feed", "list"], ["feed", "person"], ["bench", "reads"]] {
            let help = try Self.help(reader)
            #expect(!help.contains("is created") && help.contains("this command only reads it"), "\(reader): \(help)")
        }
        #expect(try Self.help(["import"]).contains("It is created, with owner-only permissions, when missing"))
        #expect(try Self.help(["tweets", "delete"]).contains("this command never creates one"))
    }

    @Test func unknownCommandsAreUsageErrorsWithSuggestions() throws {
        let nosuch = try CLI.run(["help", "nosuch"])
        #expect(nosuch.status == 64 && nosuch.stderr.contains("'nosuch' is not a tweetie-db command") && nosuch.output.isEmpty, "\(nosuch.stderr)")
        let nested = try CLI.run(["help", "tweets", "shwo"])
        #expect(nested.status == 64 && nested.stderr.contains("Did you mean 'show'?"), "\(nested.stderr)")
        #expect(try CLI.run(["help", "tweets", "show"]).status == 0)
        let typo = try CLI.run(["twets"])
        #expect(typo.status == 64 && typo.stderr.contains("Did you mean 'tweets'?"), "\(typo.stderr)")
        let sub = try CLI.run(["tweets", "lst", "--db", "/nonexistent"])
        #expect(sub.status == 64 && sub.stderr.contains("Did you mean 'list'?"), "\(sub.stderr)")
        let limit = try CLI.run(["tweets", "--limit", "-1", "--db", "/nonexistent"])
        #expect(limit.status == 64 && limit.stderr.contains("--limit must not be negative") && !limit.stderr.contains("Missing value"), "\(limit.stderr)")
    }

    @Test func verifyProblemsAndAMissingDatabaseExitDifferently() throws {
        let missing = try CLI.run(["verify", "--db", "/nonexistent/tweetie"])
        #expect(missing.status == 1 && missing.stderr.contains("no database"), "\(missing.stderr)")
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        #expect(try CLI.run(["verify", "--db", db.path]).status == 0)
        // An index entry whose record does not exist.
        do {
            let env = try Environment.open(at: db.path)
            let index = try env.database(named: "tweets#author")
            try env.write { tx in try tx.put(Array("zz-no-such-author".utf8) + [0, 0, 0, 0, 0, 0, 3, 231], [0, 0, 0, 0, 0, 0, 3, 231], in: index) }
            env.close()
        }
        let damaged = try CLI.run(["verify", "--db", db.path])
        #expect(damaged.status == 3 && damaged.stderr.contains("verify found"), "\(damaged.status) \(damaged.stderr)")
    }
}
