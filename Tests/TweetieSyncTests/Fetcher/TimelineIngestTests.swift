import Foundation
import Testing
@testable import TweetieSync

@Suite("TimelineIngest")
struct TimelineIngestTests {
    let other = ListIdentifier(username: "ann", slug: "swift")

    @Test func upsertsMergesListsAndDeletes() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let t = Sample.saturday
        try await store.write { tx in try tx.add(Sample.tweet(1, at: t, lists: ["ann/swift"])) }

        // Tweet 1 gains the list's key (sorted union), tweet 2 is new.
        let page = TimelinePage(tweets: [Sample.tweet(2, at: t + 60), Sample.tweet(1, at: t)],
                                dropped: [DroppedElement(index: 2, id: nil, reason: "no id")])
        let first = try await TimelineIngest.ingest(page, list: Sample.list, into: store)
        #expect(first == IngestReport(inserted: 1, modified: 1, unchanged: 0, deleted: 0, dropped: 1))
        var stored = try await store.read { try $0.fetch(Query<Tweet>()) }
        #expect(stored.map(\.lists) == [["ann/swift", "icanzilb/RxSwift"], ["icanzilb/RxSwift"]])

        // The same page again changes nothing.
        let again = try await TimelineIngest.ingest(page, list: Sample.list, into: store)
        #expect(again == IngestReport(unchanged: 2, dropped: 1))

        // Without a list (a user timeline) the stored membership is kept; an edit is a modification.
        let edited = TimelinePage(tweets: [Sample.tweet(1, at: t, text: "edited"), Sample.tweet(3, at: t + 120)])
        let userReport = try await TimelineIngest.ingest(edited, list: nil, into: store)
        #expect(userReport == IngestReport(inserted: 1, modified: 1))
        stored = try await store.read { try $0.fetch(Query<Tweet>()) }
        #expect(stored.map(\.text) == ["edited", "tweet 2", "tweet 3"])
        #expect(stored.map(\.lists) == [["ann/swift", "icanzilb/RxSwift"], ["icanzilb/RxSwift"], []])

        // A second list adds its key; deletions count only stored ids.
        let deleting = TimelinePage(tweets: [Sample.tweet(3, at: t + 120)], deletedIds: [2, 99])
        let deleteReport = try await TimelineIngest.ingest(deleting, list: other, into: store)
        #expect(deleteReport == IngestReport(modified: 1, deleted: 1))
        stored = try await store.read { try $0.fetch(Query<Tweet>()) }
        #expect(stored.map(\.id) == [1, 3])
        #expect(stored.last?.lists == ["ann/swift"])
    }

    @Test func duplicateInsideOnePageIsWrittenOnce() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let tweet = Sample.tweet(5, at: Sample.saturday)
        let report = try await TimelineIngest.ingest(TimelinePage(tweets: [tweet, tweet]), list: Sample.list, into: store)
        #expect(report == IngestReport(inserted: 1, unchanged: 1))
        #expect(try await store.read { try $0.count(Tweet.self) } == 1)
    }

    @Test func membersGetTheListKey() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let members = MembersPage(users: [Sample.user(1, "ann"), Sample.user(2, "bob")])
        #expect(try await TimelineIngest.ingest(members, of: Sample.list, into: store) == IngestReport(inserted: 2))
        #expect(try await TimelineIngest.ingest(members, of: Sample.list, into: store) == IngestReport(unchanged: 2))
        let otherMembers = MembersPage(users: [Sample.user(2, "bob")], dropped: [DroppedElement(index: 1, id: 3, reason: "bad")])
        #expect(try await TimelineIngest.ingest(otherMembers, of: other, into: store) == IngestReport(modified: 1, dropped: 1))
        let users = try await store.read { try $0.fetch(Query<User>()) }
        #expect(users.map(\.lists) == [["icanzilb/RxSwift"], ["ann/swift", "icanzilb/RxSwift"]])
    }

    @Test func reportArithmetic() {
        var total = IngestReport(inserted: 1, unchanged: 2)
        total += IngestReport(modified: 3, deleted: 4, dropped: 5)
        #expect(total == IngestReport(inserted: 1, modified: 3, unchanged: 2, deleted: 4, dropped: 5))
        #expect(total.received == 6)
        #expect(total.changedStore)
        #expect(!IngestReport(unchanged: 9).changedStore)
    }
}
