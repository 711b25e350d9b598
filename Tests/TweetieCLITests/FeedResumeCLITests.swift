import Foundation
import Testing
import TweetieTestSupport
@testable import TweetieSync
import TweetieTestSupport

/// `feed --follow --after N` resumes a renderer that applied every message up to sequence N
/// (`ChangeFeed.messages(after:)`; `ChangeFeedResumeTests` covers the cases without a reset).
@Suite("tweetie-db feed --after")
struct FeedResumeCLITests {
    @Test func aRendererBehindAChangeOfItsFeedGetsAResetSnapshotThenTheChanges() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        let last = try FeedSpecTests.lastSequence(db)
        #expect(last > 1)
        let arguments = ["feed", "list", "--sections", "day", "--now", FeedSpecTests.now, "--db", db.path]
        // The last commit stored tweets of the list: a renderer at the sequence before starts over.
        let follower = try CLI.start(arguments + ["--follow", "--after", String(last - 1)])
        defer { follower.stop() }
        let line = try #require(try follower.nextLine(timeout: 60))
        let reset = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(line.utf8))
        #expect(reset.type == "snapshot" && reset.reason == "reset" && reset.sequence == last)
        let once = try CLI.run(arguments + ["--once"]).output
        #expect(line + "\n" == once.replacingOccurrences(of: #""reason":"initial""#, with: #""reason":"reset""#))
        // Then the changes, as without --after.
        #expect(try CLI.run(["tweets", "delete", "--force", String(reset.sections![0].rows[0].id), "--db", db.path]).status == 0)
        let change = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(try #require(try follower.nextLine(timeout: 60)).utf8))
        #expect(change.type == "change" && change.sequence == last + 1 && change.rowDeletions == [[0, 0]])
    }

    @Test func afterNeedsFollow() throws {
        let result = try CLI.run(["feed", "list", "--once", "--after", "3", "--db", "/nonexistent"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--after resumes a stream: use it with --follow."))
    }
}
