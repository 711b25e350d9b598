import Foundation
import Testing
import TweetieTestSupport

/// `feed --once` and `feed --follow` print exactly the bytes of `Tests/Fixtures/Feed/*.ndjson`, for
/// every feed (list, person, people), sectioning (day, none) and moves (on, off), on a database
/// built from the simulated source with a fixed seed and changed one commit at a time.
///
/// The golden files were written by the build before the feed was rebuilt on the view models'
/// sections; a refactor of the feed path must keep them. To write them again
/// after an intended change of the format, run this suite with `TWEETIE_WRITE_FEED_GOLDEN=1` and
/// review the diff.
///
/// Commit ids are random, so positions are compared without them: each `"position":"S.ID"` is
/// written and compared as `"position":"S.0000000000000000"` (that S is the message's sequence is
/// checked by `FeedSpecTests` and `FeedState`).
@Suite("tweetie-db feed prints the golden bytes")
struct FeedGoldenTests {
    static let commitIDs = try! NSRegularExpression(pattern: #"("position":"[0-9]+)\.[0-9a-f]{16}""#)

    /// `output` with every position's commit id replaced by zeros.
    static func withoutCommitIDs(_ output: String) -> String {
        commitIDs.stringByReplacingMatches(in: output, range: NSRange(output.startIndex..., in: output), withTemplate: "$1.0000000000000000\"")
    }

    static let folder = Repository.fixtures.appendingPathComponent("Feed")
    static let now = "2018-12-12T00:00:00Z"
    /// The person feed's author: tweets on two days, all in the list.
    static let person = "danokafor"

    /// One feed run: its golden file's name, its arguments, and whether it shows tweets or users.
    struct Configuration {
        var name: String
        var arguments: [String]
        var showsTweets: Bool
    }

    static let configurations: [Configuration] = {
        var all: [Configuration] = []
        for moves in [true, false] {
            let flag = moves ? [] : ["--no-moves"]
            let suffix = moves ? "moves" : "no-moves"
            for sections in ["day", "none"] {
                all.append(Configuration(name: "list-\(sections)-\(suffix)", arguments: ["list", "--sections", sections] + flag, showsTweets: true))
                all.append(Configuration(name: "person-\(sections)-\(suffix)", arguments: ["person", person, "--sections", sections] + flag, showsTweets: true))
            }
            all.append(Configuration(name: "people-\(suffix)", arguments: ["people"] + flag, showsTweets: false))
        }
        return all
    }()

    /// One commit of the scenario: NDJSON to import (merge), or tweet ids to delete.
    indirect enum Step {
        case importing(collection: String, records: [[String: Any]])
        case deleting([Int64])
        /// A commit that changes no row any feed shows.
        case unseen(Step)

        /// Whether the feed of `configuration` prints a line for this commit.
        func changes(_ configuration: Configuration) -> Bool {
            switch self {
            case .importing(let collection, _): (collection == "tweets") == configuration.showsTweets
            case .deleting: configuration.showsTweets
            case .unseen: false
            }
        }
    }

    /// The scenario: each step is one commit; together they insert, modify, move and delete rows
    /// and sections of every feed, and one step changes a field no row shows (no message).
    static func steps(records: [Int64: [String: Any]]) throws -> [Step] {
        func record(_ id: Int64, _ change: (inout [String: Any]) -> Void) throws -> [String: Any] {
            var record = try #require(records[id], "record \(id) in the simulated database")
            // The export's string twin of the id would disagree with a changed id: import reads either.
            record["idStr"] = nil
            change(&record)
            return record
        }
        return [
            // A modification, and a new tweet alone on a new day (a section insertion by day).
            .importing(collection: "tweets", records: [
                try record(1071347616052150337) { $0["text"] = "edited: " + ($0["text"] as! String) },
                try record(1071347616052150337) {
                    $0["id"] = 1071400000000000000 as Int64
                    $0["created"] = "2018-12-09T12:00:00.000Z"
                    $0["text"] = "the first tweet of a new day"
                },
            ]),
            // A move across days and a move inside a day.
            .importing(collection: "tweets", records: [
                try record(1071010645668790316) { $0["created"] = "2018-12-08T09:20:00.000Z" },
                try record(1071324048257974332) { $0["created"] = "2018-12-08T10:30:00.000Z" },
            ]),
            // Members: a modification, a move (a new username sorts elsewhere) and an insertion.
            .importing(collection: "users", records: [
                try record(104558201) { $0["name"] = "Priya (edited)" },
                try record(187230876) { $0["username"] = "zoe_becker" },
                try record(187230876) {
                    $0["id"] = 900000001 as Int64
                    $0["username"] = "aaron_new"
                    $0["name"] = "Aaron New"
                },
            ]),
            // A field no row shows: the commit is logged, no feed changes.
            .unseen(.importing(collection: "tweets", records: [try record(1071332172624822334) { $0["favoriteCount"] = 999 }])),
            // The new day's only tweet (a section deletion by day) and another row.
            .deleting([1071400000000000000, 1071162001322934324]),
        ]
    }

    static func sequence(of line: String) throws -> UInt64 {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require((object["sequence"] as? NSNumber)?.uint64Value)
    }

    @Test func onceAndFollowPrintTheGoldenBytes() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        let export = try CLI.run(["export", "--db", db.path])
        var records: [Int64: [String: Any]] = [:]
        for line in export.output.split(separator: "\n").dropFirst() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let record = try #require(object["record"] as? [String: Any])
            records[try #require((record["id"] as? NSNumber)?.int64Value)] = record
        }
        let steps = try Self.steps(records: records)

        var outputs: [String: String] = [:]
        for configuration in Self.configurations {
            outputs[configuration.name + "-once-before"] = try CLI.run(["feed"] + configuration.arguments + ["--once", "--now", Self.now, "--db", db.path]).output
        }
        let followers = try Self.configurations.map { try CLI.start(["feed"] + $0.arguments + ["--follow", "--now", Self.now, "--db", db.path]) }
        defer { for follower in followers { follower.stop() } }
        var transcripts = try followers.map { [try #require(try $0.nextLine(timeout: 60), "a snapshot")] }

        let folder = TemporaryDirectory("feed-golden")
        defer { folder.remove() }
        for (index, step) in steps.enumerated() {
            var commit = step
            if case .unseen(let inner) = step { commit = inner }
            switch commit {
            case .importing(let collection, let stepRecords):
                let header = #"{"collections":[{"count":\#(stepRecords.count),"name":"\#(collection)","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#
                let lines = try stepRecords.map { record -> String in
                    let line = try JSONSerialization.data(withJSONObject: ["collection": collection, "record": record], options: [.sortedKeys])
                    return String(decoding: line, as: UTF8.self)
                }
                let file = folder.url.appendingPathComponent("step\(index).ndjson")
                try ([header] + lines).joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
                let result = try CLI.run(["import", file.path, "--db", db.path])
                #expect(result.status == 0, "\(result.stderr)")
            case .deleting(let ids):
                #expect(try CLI.run(["tweets", "delete", "--force"] + ids.map { String($0) } + ["--db", db.path]).status == 0)
            case .unseen:
                Issue.record("an unseen step wraps a commit")
            }
            // Each feed the step changes prints its line before the next commit, so that no line
            // carries two steps: the bytes do not depend on timing.
            let sequence = try FeedSpecTests.lastSequence(db)
            for (feed, configuration) in Self.configurations.enumerated() where step.changes(configuration) {
                while try Self.sequence(of: transcripts[feed].last!) < sequence {
                    transcripts[feed].append(try #require(try followers[feed].nextLine(timeout: 60), "\(configuration.name) ended"))
                }
            }
        }
        for (configuration, transcript) in zip(Self.configurations, transcripts) {
            outputs[configuration.name + "-follow"] = transcript.map { $0 + "\n" }.joined()
            outputs[configuration.name + "-once-after"] = try CLI.run(["feed"] + configuration.arguments + ["--once", "--now", Self.now, "--db", db.path]).output
        }

        let write = ProcessInfo.processInfo.environment["TWEETIE_WRITE_FEED_GOLDEN"] == "1"
        if write { try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true) }
        for (name, output) in outputs.sorted(by: { $0.key < $1.key }).map({ ($0.key, Self.withoutCommitIDs($0.value)) }) {
            let file = Self.folder.appendingPathComponent(name + ".ndjson")
            if write {
                try Data(output.utf8).write(to: file)
                continue
            }
            let golden = try Data(contentsOf: file)
            #expect(Data(output.utf8) == golden, "\(name): the output differs from \(file.path)")
        }
    }
}
