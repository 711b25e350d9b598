import Foundation
import Testing
import TweetieTestSupport
@testable import TweetieSync

/// `feed --follow --after POSITION` resumes a renderer that applied every message up to the
/// message with that position (`ChangeFeed.messages(after:)`; `ChangeFeedResumeTests` covers the
/// cases without a reset).
@Suite("tweetie-db feed --after")
struct FeedResumeCLITests {
    static func message(_ line: String) throws -> FeedMessage<TimelineRow> {
        try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(line.utf8))
    }

    @Test func aRendererBehindAChangeOfItsFeedGetsAResetSnapshotThenTheChanges() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        let arguments = ["feed", "list", "--sections", "day", "--now", FeedSpecTests.now, "--db", db.path]
        let held = try Self.message(String(try CLI.run(arguments + ["--once"]).output.split(separator: "\n")[0]))
        // A commit that deletes one of the renderer's rows: a renderer at the position before starts over.
        #expect(try CLI.run(["tweets", "delete", "--force", String(held.sections![0].rows[0].id), "--db", db.path]).status == 0)
        let last = try FeedSpecTests.lastSequence(db)
        let follower = try CLI.start(arguments + ["--follow", "--after", held.position.description])
        defer { follower.stop() }
        let line = try #require(try follower.nextLine(timeout: 60))
        let reset = try Self.message(line)
        #expect(reset.type == .snapshot && reset.reason == .reset && reset.sequence == last)
        let once = try CLI.run(arguments + ["--once"]).output
        #expect(line + "\n" == once.replacingOccurrences(of: #""reason":"initial""#, with: #""reason":"reset""#))
        // Then the changes, as without --after.
        #expect(try CLI.run(["tweets", "delete", "--force", String(reset.sections![0].rows[0].id), "--db", db.path]).status == 0)
        let change = try Self.message(try #require(try follower.nextLine(timeout: 60)))
        #expect(change.type == .change && change.sequence == last + 1 && change.rowDeletions == [[0, 0]])
    }

    /// A renderer at sequence S; the database restored from a backup taken before S and written
    /// back to S: the same sequence, another history. The renderer must start over.
    @Test func aRendererFromBeforeARestoreGetsAResetSnapshot() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        let backup = TemporaryDirectory.database()
        defer { backup.remove() }
        #expect(try CLI.run(["backup", "--db", db.path, backup.path]).status == 0)
        let arguments = ["feed", "list", "--sections", "day", "--now", FeedSpecTests.now, "--db", db.path]
        let ids = try Self.message(String(try CLI.run(arguments + ["--once"]).output.split(separator: "\n")[0])).sections!.flatMap(\.rows).map(\.id)
        try #require(ids.count >= 6)
        for id in ids[0..<3] { #expect(try CLI.run(["tweets", "delete", "--force", String(id), "--db", db.path]).status == 0) }
        let held = try Self.message(String(try CLI.run(arguments + ["--once"]).output.split(separator: "\n")[0]))
        for file in ["data.mdb", "lock.mdb"] { try FileManager.default.removeItem(atPath: db.path + "/" + file) }
        try FileManager.default.copyItem(atPath: backup.path + "/data.mdb", toPath: db.path + "/data.mdb")
        for id in ids[3..<6] { #expect(try CLI.run(["tweets", "delete", "--force", String(id), "--db", db.path]).status == 0) }
        #expect(try FeedSpecTests.lastSequence(db) == held.sequence, "the restored database is back at the renderer's sequence")

        let follower = try CLI.start(arguments + ["--follow", "--after", held.position.description])
        defer { follower.stop() }
        let reset = try Self.message(try #require(try follower.nextLine(timeout: 60)))
        #expect(reset.type == .snapshot && reset.reason == .reset)
        #expect(Set(reset.sections!.flatMap(\.rows).map(\.id)) == Set(ids[0..<3]).union(ids[6...]))
    }

    @Test func afterTakesAPosition() throws {
        for bad in ["abc", "12.", "12.5F3A9C0E12AB34CD", "12.5f3a", "-1", "0.5f3a9c0e12ab34cd"] {
            let result = try CLI.run(["feed", "list", "--follow", "--after=\(bad)", "--db", "/nonexistent"])
            #expect(result.status == 64 && result.stderr.contains("is not a feed position"), "\(bad): \(result.stderr)")
        }
    }

    @Test func afterNeedsFollow() throws {
        let result = try CLI.run(["feed", "list", "--once", "--after", "3", "--db", "/nonexistent"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--after resumes a stream: use it with --follow."))
    }
}
