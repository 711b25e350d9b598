import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("tweetie-db sync, feed and demo")
struct LiveCommandsTests {
    static var fixtures: String? {
        guard let path = ProcessInfo.processInfo.environment["TWEETIE_FIXTURES"], !path.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return path
    }

    @Test(.enabled(if: fixtures != nil, "real captures not used: TWEETIE_FIXTURES does not name an existing folder (make test sets it when ../shared/fixtures/twitter-api-v1.1 exists)"))
    func syncFromTheCapturedAPICacheStoresEverything() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let result = try CLI.run(["sync", "--api-cache", Self.fixtures!, "--db", db.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONDecoder().decode(SyncSummary.self, from: result.stdout)
        #expect(summary.total.received == 318 + 8)
        let stats = try RecordJSON.decoder().decode(StoreStatistics.self, from: try CLI.run(["stats", "--db", db.path, "--format", "json"]).stdout)
        #expect(stats.collections.first { $0.name == "tweets" }?.records == 304)
        #expect(stats.collections.first { $0.name == "users" }?.records == 8)
        // Syncing again changes nothing.
        let again = try JSONDecoder().decode(SyncSummary.self, from: try CLI.run(["sync", "--api-cache", Self.fixtures!, "--db", db.path, "--format", "json"]).stdout)
        #expect(again.total.inserted == 0 && again.total.modified == 0)
        let people = try CLI.run(["feed", "people", "--db", db.path])
        let snapshot = try JSONDecoder().decode(FeedMessage<PersonRow>.self, from: Data(people.output.split(separator: "\n")[0].utf8))
        #expect(snapshot.sections?.first?.rows.count == 8)
        #expect(try CLI.run(["verify", "--db", db.path]).status == 0)
    }

    @Test func syncRequiresExactlyOneSource() throws {
        let none = try CLI.run(["sync", "--db", "/tmp/unused-\(UUID())"])
        #expect(none.status != 0 && none.stderr.contains("choose exactly one source"))
        let live = try CLI.run(["sync", "--live", "--db", "/tmp/unused-\(UUID())"], environment: ["TWITTER_BEARER_TOKEN": ""])
        #expect(live.status != 0 && live.stderr.contains("TWITTER_BEARER_TOKEN"))
        let missing = try CLI.run(["sync", "--api-cache", "/nonexistent/cache", "--db", "/tmp/unused-\(UUID())"])
        #expect(missing.status != 0 && missing.stderr.contains("/nonexistent/cache"))
    }

    /// Reads the follow process's lines and applies them, until the state reaches `sequence`.
    static func follow<Row>(_ process: RunningProcess, into state: inout FeedState<Row>, until sequence: UInt64) throws {
        while state.sequence < sequence {
            guard let line = try process.nextLine(timeout: 30) else { break }
            try state.apply(try RecordJSON.decoder().decode(FeedMessage<Row>.self, from: Data(line.utf8)))
        }
    }

    @Test(arguments: [["--sections", "day"], ["--sections", "none", "--no-moves"]])
    func feedFollowAppliesChangesFromAnotherProcessToExactlyWhatFeedOncePrints(options: [String]) throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        let now = "2018-12-12T00:00:00Z"
        let follower = try CLI.start(["feed", "list", "--follow", "--now", now, "--db", db.path] + options)
        defer { follower.stop() }
        var state = FeedState<TimelineRow>()
        try Self.follow(follower, into: &state, until: 1)
        #expect(!state.sections.isEmpty)
        // Another process writes: more simulated steps (inserts, edits, deletes), then a delete.
        #expect(try CLI.run(["sync", "--simulated", "--seed", "5", "--ticks", "25", "--db", db.path]).status == 0)
        let victim = state.sections[0].rows[0].id
        #expect(try CLI.run(["tweets", "delete", "--force", "\(victim)", "--db", db.path]).status == 0)
        let stats = try RecordJSON.decoder().decode(StoreStatistics.self, from: try CLI.run(["stats", "--db", db.path, "--format", "json"]).stdout)
        try Self.follow(follower, into: &state, until: stats.changeLogLast ?? 0)
        let once = try CLI.run(["feed", "list", "--once", "--now", now, "--db", db.path] + options)
        let fresh = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(once.output.split(separator: "\n")[0].utf8))
        #expect(state.sections == fresh.sections)
        #expect(!state.sections.flatMap(\.rows).contains { $0.id == victim })
        #expect(state.sequence == fresh.sequence)
    }

    @Test func anotherProcessesCommitsReachAnInProcessObserver() async throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["sync", "--simulated", "--seed", "9", "--ticks", "1", "--db", db.path]).status == 0)
        let store = try TweetieDatabase.open(at: db.path)
        defer { store.close() }
        let query = TimelineTarget.list(ListIdentifier(username: "icanzilb", slug: "RxSwift")).storedTweets
        let iterator = UncheckedBox(store.observe(query).makeAsyncIterator())
        var current = try await ObservationEnded.unwrap(iterator.value.next())
        // The child process writes while this process observes.
        let writer = Task.detached { try CLI.run(["sync", "--simulated", "--seed", "9", "--ticks", "20", "--db", db.path]) }
        var changes = 0
        var writerDone = false
        while true {
            if !writerDone {
                // Only the 10 ms poll may time out here; a writer that failed to run fails the test now.
                do {
                    let finished = try await withTimeout("the writer (a 10 ms poll)", seconds: 0.01) { try await writer.value }
                    #expect(finished.status == 0, "\(finished.stderr)")
                    writerDone = true
                } catch is TimedOut {
                    // The writer is still running.
                }
            }
            let last = try await store.read { try $0.lastChangeSequence() }
            if writerDone && current.sequence == last { break }
            let next = try await withTimeout("the next change", seconds: 30) { try await ObservationEnded.unwrap(iterator.value.next()) }
            let old = Array(current.results), new = Array(next.results)
            #expect(next.changeset.apply(to: old) { new[$0] } == new)
            current = next
            changes += 1
        }
        #expect(changes > 0)
        #expect(Array(current.results) == (try await store.read { try $0.fetch(query) }))
    }

    @Test func demoRunsAndReportsExactChangesets() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let result = try CLI.run(["demo", "--db", db.path, "--ticks", "15", "--interval", "0", "--seed", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.hasPrefix("fetch 1:") || result.output.hasPrefix("snapshot"))
        #expect(!result.output.contains("\u{1B}["), "escape codes without a terminal")
        #expect(result.output.contains("every one applied exactly"))
        let summary = result.output.split(separator: "\n").first { $0.hasPrefix("summary:") }
        #expect(summary?.contains("15 fetches") == true)
        #expect(try CLI.run(["verify", "--db", db.path]).status == 0)
    }
}

@Suite("tweetie-db person feed and read benchmark")
struct MoreCommandsTests {
    @Test func personFeedAndReadBenchmark() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        #expect(try CLI.run(["bench", "writes", "--db", db.path, "--records", "90", "--batch", "30", "--durability", "no-sync"]).status == 0)
        let feed = try CLI.run(["feed", "person", "author4", "--db", db.path, "--now", "2018-12-12T00:00:00Z"])
        #expect(feed.status == 0, "\(feed.stderr)")
        let snapshot = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(feed.output.split(separator: "\n")[0].utf8))
        #expect(snapshot.feed == "person author4" && snapshot.reason == .initial)
        #expect(snapshot.sections?.map(\.key) == ["all"])
        #expect(snapshot.sections?[0].rows.map(\.id) == [65, 35, 5])
        let reads = try CLI.run(["bench", "reads", "--db", db.path, "--rounds", "2", "--format", "json"])
        #expect(reads.status == 0)
        let result = try JSONDecoder().decode(BenchReadsResult.self, from: reads.stdout)
        #expect(result.records == 90 && result.scanRecordsPerSecond > 0)
        #expect(result.pagesChecked > 0 && result.pageCheckSeconds > 0)
    }
}
