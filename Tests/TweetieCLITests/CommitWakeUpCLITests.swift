import Foundation
import Testing
import TweetieTestSupport

@Suite("tweetie-db: how commits of other processes arrive")
struct CommitWakeUpCLITests {
    /// A user sees which wake-up paths a process would use and the poll interval in `stats` (a
    /// follower logs its own: a warning when polling only, else at TWEETIE_LOG_LEVEL=info).
    @Test func statsTellsTheWakeUpPaths() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "2", "--ticks", "1", "--db", db.path]).status == 0)
        let stats = try CLI.run(["stats", "--format", "table", "--db", db.path])
        #expect(stats.status == 0, "\(stats.stderr)")
        let line = stats.output.split(separator: "\n").first { $0.hasPrefix("commit wake-up ") }
        #expect(line?.contains("a poll every 100 ms") == true, "\(stats.output)")
        #expect(line?.contains("changes.notify") == true || line?.contains("only (inotify: ") == true, "\(stats.output)")
    }
}
