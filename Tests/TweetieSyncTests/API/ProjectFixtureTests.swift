import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// Decoding, ``APICacheSource``, the fetcher and ingest on the project's own API cache
/// (Tests/Fixtures/APICache): these run in every `make test`, with nothing beside the repository.
@Suite("The project's API-cache fixtures")
struct ProjectFixtureTests {
    @Test func theCacheHoldsWhatTheTestsNeed() throws {
        #expect(try ProjectFixtures.listFiles(with: "max_id").count >= 2, "older pages (max_id)")
        #expect(try ProjectFixtures.listFiles(with: "since_id").count >= 2, "refresh pages (since_id)")
        #expect(try ProjectFixtures.files().filter { $0.hasPrefix("statuses/user_timeline.json-") }.count == 8)
        let raw = try ProjectFixtures.statusFiles().flatMap(ProjectFixtures.rawStatuses)
        #expect(raw.contains { $0["retweeted_status"] != nil }, "a retweet")
        #expect(raw.contains { !($0["in_reply_to_status_id_str"] is NSNull) }, "a reply")
        #expect(raw.contains { $0["in_reply_to_status_id"] is NSNull }, "a null optional field")
        #expect(raw.contains { $0["lang"] == nil }, "a missing optional field")
        #expect(raw.contains { ($0["text"] as! String).unicodeScalars.contains { $0.value > 0xFFFF } }, "text outside the BMP")
    }

    @Test func everyStatusFileDecodesCompletelyAndExactly() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        var checked = 0, outsideBMP = 0
        for file in try ProjectFixtures.statusFiles() {
            let raw = try ProjectFixtures.rawStatuses(file)
            let batch = try TwitterJSON.decodeStatuses(try ProjectFixtures.data(file), source: file)
            #expect(batch.dropped.isEmpty, "\(file): \(batch.dropped)")
            #expect(batch.items.count == raw.count, "\(file)")
            for (object, tweet) in zip(raw, batch.items) {
                let user = try #require(object["user"] as? [String: Any])
                #expect(String(tweet.id) == object["id_str"] as? String)
                #expect(String(tweet.authorId) == user["id_str"] as? String)
                #expect(tweet.username == user["screen_name"] as? String)
                #expect(tweet.text == object["text"] as? String)
                #expect(tweet.created == formatter.date(from: object["created_at"] as! String))
                #expect(tweet.isRetweet == (object["retweeted_status"] != nil))
                #expect(tweet.inReplyToId.map(String.init) == object["in_reply_to_status_id_str"] as? String)
                #expect(tweet.lang == object["lang"] as? String)
                if tweet.text.unicodeScalars.contains(where: { $0.value > 0xFFFF }) { outsideBMP += 1 }
                checked += 1
            }
        }
        #expect(checked > 100 && outsideBMP > 0)
    }

    @Test func membersDecodeWithANullURL() throws {
        let data = try ProjectFixtures.data(ProjectFixtures.membersFile)
        let raw = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["users"] as? [[String: Any]])
        let batch = try TwitterJSON.decodeMembers(data, source: "members")
        #expect(batch.dropped.isEmpty && batch.items.count == raw.count && raw.count == 8)
        let nullURL = try #require(raw.first { $0["url"] is NSNull })
        let member = try #require(batch.items.first { $0.username == nullURL["screen_name"] as? String })
        #expect(member.url == "")
        #expect(batch.items.filter { !$0.url.isEmpty }.count == 7)
    }

    /// The fetcher replays the recording run against the cache: the newest page, every older page
    /// down to the oldest, then one refresh per simulated step, each request finding its file.
    @Test func theFetcherReplaysEveryRecordedPage() async throws {
        let (logger, log) = CapturingLogHandler.make()
        let api = APICacheSource(directory: ProjectFixtures.directory, logger: logger)
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let list = ProjectFixtures.list
        let fetcher = TimelineFetcher(list: list, api: api, store: store, account: .authorized(token: "t"),
                                      reachability: AlwaysReachable(), clock: ManualClock())
        let newest = try ProjectFixtures.ids(ProjectFixtures.newestPageFile)
        #expect(try await fetcher.refresh() == IngestReport(inserted: newest.count))
        var requested: Set<String> = []
        while await !fetcher.reachedOldest {
            let cursor = try #require(await fetcher.olderCursor)
            requested.insert(api.fileURL(forTimelineOf: list, cursor: cursor).lastPathComponent)
            try await fetcher.loadOlder()
        }
        #expect(requested == Set(try ProjectFixtures.listFiles(with: "max_id").map { String($0.dropFirst("lists/".count)) }))
        // The recording refreshed once per step; a step without new tweets repeated the request
        // before it, whose file then holds the later answer. So the replay takes one refresh per
        // recorded since_id file (one more would ask for a page the recording never requested).
        let sinceFiles = try ProjectFixtures.listFiles(with: "since_id")
        var refreshes: Set<String> = []
        for _ in sinceFiles {
            refreshes.insert(api.fileURL(forTimelineOf: list, cursor: await fetcher.refreshCursor).lastPathComponent)
            try await fetcher.refresh()
        }
        #expect(refreshes == Set(sinceFiles.map { String($0.dropFirst("lists/".count)) }))
        #expect(log.messages.isEmpty, "every request has a file: \(log.messages.map(\.message))")

        // Stored: the newest and older pages whole, and of each refresh page the statuses above its since_id.
        var expected = Set(newest)
        for file in try ProjectFixtures.listFiles(with: "max_id") { expected.formUnion(try ProjectFixtures.ids(file)) }
        for file in sinceFiles {
            let parts = file.split(separator: "-")
            let sinceId = try #require(parts.firstIndex(of: "since_id").flatMap { Int64(parts[$0 + 1]) })
            expected.formUnion(try ProjectFixtures.ids(file).filter { $0 > sinceId })
        }
        let stored = try await store.read { try $0.fetch(TimelineTarget.list(list).storedTweets) }
        #expect(Set(stored.map(\.id)) == expected)
        #expect(stored.count > newest.count)
    }

    @Test func syncFromTheCacheStoresListMembersAndUserTimelines() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let list = ProjectFixtures.list
        let summary = try await TimelineSync.fromCache(directory: ProjectFixtures.directory, list: list, into: store)
        let newest = try ProjectFixtures.ids(ProjectFixtures.newestPageFile)
        let userFiles = try ProjectFixtures.files().filter { $0.hasPrefix("statuses/") }
        var all = Set(newest)
        var received = newest.count + 8
        for file in userFiles {
            let ids = try ProjectFixtures.ids(file)
            all.formUnion(ids)
            received += ids.count
        }
        #expect(summary.steps.map(\.source).filter { $0.hasPrefix("user ") }.count == userFiles.count)
        #expect(summary.total.received == received)
        #expect(summary.total.inserted == all.count + 8)
        #expect(summary.total.dropped == 0)
        let tweets = try await store.read { try $0.fetch(Query<Tweet>()) }
        #expect(Set(tweets.map(\.id)) == all)
        #expect(Set(tweets.filter { $0.lists == [list.key] }.map(\.id)) == Set(newest))
        #expect(tweets.filter { !$0.lists.isEmpty }.count == newest.count)
        let users = try await store.read { try $0.fetch(Query<User>()) }
        #expect(users.count == 8 && users.allSatisfy { $0.lists == [list.key] })
        // Outside the BMP survives storage.
        #expect(tweets.contains { $0.text.unicodeScalars.contains { $0.value > 0xFFFF } })
    }

    /// The fixtures are exactly what the documented command records (run here in process).
    @Test func recordingTheSimulatedSourceAgainGivesTheSameFiles() async throws {
        let directory = TemporaryDirectory("sync")
        defer { directory.remove() }
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        _ = try await TimelineSync.simulated(seed: ProjectFixtures.seed, ticks: ProjectFixtures.ticks,
                                             recording: directory.url, into: store)
        let files = try ProjectFixtures.files(in: directory.url)
        #expect(files == (try ProjectFixtures.files()))
        for file in files {
            #expect(try Data(contentsOf: directory.url.appendingPathComponent(file)) == (try ProjectFixtures.data(file)),
                    "\(file) differs: regenerate with the command in Tests/Fixtures/README.md")
        }
    }

    @Test func encodedStatusesAndMembersDecodeToTheSameValues() async throws {
        let source = SimulatedTwitterSource(seed: 11)
        await source.advance(steps: 20)
        let tweets = await source.currentTweets
        #expect(tweets.contains(where: \.isRetweet) && tweets.contains { $0.inReplyToId != nil })
        #expect(try TwitterJSON.decodeStatuses(try TwitterJSON.encodeStatuses(tweets), source: "t").items == tweets)
        let users = try await source.members(of: source.list).users
        #expect(try TwitterJSON.decodeMembers(try TwitterJSON.encodeMembers(users), source: "m").items == users)
    }
}
