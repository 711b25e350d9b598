import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// `ChangeFeed.messages(after:)`: a renderer that applied every message up to sequence N gets the
/// later changes when no commit since N changed the feed's records, and a `reset` snapshot
/// otherwise (a change it cannot replay, a sequence it does not know, or a log that no longer
/// reaches back to N).
@Suite("ChangeFeed resumes after a sequence")
struct ChangeFeedResumeTests {
    static let now = Sample.saturday + 3600

    static func store(retention: Int = 10_000) async throws -> Store {
        var configuration = StoreConfiguration()
        configuration.changeLogRetention = retention
        let store = try Store.temporary(collections: TweetieDatabase.collections, configuration: configuration)
        try await store.write { tx in
            for id in Int64(1)...3 {
                try tx.add(Sample.tweet(id, "ann", at: Sample.saturday - Double(id) * 3600, lists: [Sample.list.key]))
            }
        }
        return store
    }

    static func ingest(_ id: Int64, into store: Store) async throws {
        try await TimelineIngest.ingest(TimelinePage(tweets: [Sample.tweet(id, "bob", at: Sample.saturday + Double(id) * 60)]),
                                        list: Sample.list, into: store)
    }

    /// The current sections, as a fresh feed's first snapshot shows them.
    static func fresh(_ feed: ChangeFeed<TimelineRow>) async throws -> FeedMessage<TimelineRow> {
        try #require(try await Pull(feed.messages()).next("a fresh snapshot"))
    }

    /// The first message of `feed(now).messages(after:)`, with `commit` run once the stream has
    /// read the store's current state (its first call of `now`), so that the commit comes after it.
    static func firstMessage<Row>(_ feed: (@escaping @Sendable () -> Date) -> ChangeFeed<Row>, after position: ChangeLogPosition,
                                  then commit: () async throws -> Void) async throws -> FeedMessage<Row>? {
        let (reads, read) = AsyncStream.makeStream(of: Void.self)
        let resumed = feed { read.yield(); return Self.now }
        let first = Task { () -> FeedMessage<Row>? in
            let iterator = resumed.messages(after: position).makeAsyncIterator()
            return try await iterator.next()
        }
        defer { first.cancel() }
        _ = try await withTimeout("the stream's first read") { await reads.first { _ in true } }
        try await commit()
        return try await withTimeout("the first message") { try await first.value }
    }

    @Test func aRendererWhoseFeedDidNotChangeGetsOnlyTheLaterChanges() async throws {
        let store = try await Self.store()
        defer { store.close() }
        let feed = ChangeFeed.list(Sample.list, store: store, sections: .day, now: Self.now)
        var state = FeedState<TimelineRow>()
        let snapshot = try await Self.fresh(feed)
        #expect(snapshot.type == .snapshot && snapshot.reason == .initial)
        try state.apply(snapshot)

        // Commits that change no tweet: the renderer's sections are still current.
        try await store.write { try $0.add(Sample.user(9, "zed")) }
        try await store.write { try $0.add(Sample.user(10, "yan")) }
        let change = try #require(try await Self.firstMessage({ ChangeFeed(name: feed.name, updates: ListTimelineViewModel.tweets(
            of: Sample.list, in: store, sections: .day, now: $0)) }, after: snapshot.position) { try await Self.ingest(4, into: store) })
        #expect(change.type == .change)
        #expect(change.sequence == snapshot.sequence + 3)
        try state.apply(change)
        #expect(state.sections == (try await Self.fresh(feed)).sections)
        #expect(state.sections.flatMap(\.rows).map(\.id) == [4, 1, 2, 3])
    }

    @Test func aRendererWhoseFeedChangedGetsAResetSnapshot() async throws {
        let store = try await Self.store()
        defer { store.close() }
        let feed = ChangeFeed.person("bob", store: store, sections: .none, now: Self.now)
        let snapshot = try await Self.fresh(feed)
        #expect(snapshot.sections == [])
        // A new tweet of the person: the renderer's copy cannot be patched from the log (it names
        // keys, not the rows the renderer holds), so it starts over.
        try await Self.ingest(4, into: store)
        let reset = try #require(try await Pull(feed.messages(after: snapshot.position, moves: false)).next())
        #expect(reset.type == .snapshot && reset.reason == .reset)
        #expect(reset.sections?.flatMap(\.rows).map(\.id) == [4])
        #expect(reset.sections == (try await Self.fresh(feed)).sections)
        // A sequence the store never reached (another database, or a renderer from the future).
        let ahead = try #require(try await Pull(feed.messages(after: ChangeLogPosition(sequence: reset.sequence + 1, commitID: 7))).next())
        #expect(ahead.type == .snapshot && ahead.reason == .reset)
        // The current sequence without its commit id (a version-2 renderer's Last-Event-ID), or
        // with another commit's id: it cannot be told from another history, so it starts over.
        for doubtful in [ChangeLogPosition(sequence: reset.sequence, commitID: nil),
                         ChangeLogPosition(sequence: reset.sequence, commitID: (reset.position.commitID ?? 0) &+ 1)] {
            let again = try #require(try await Pull(feed.messages(after: doubtful)).next())
            #expect(again.type == .snapshot && again.reason == .reset, "\(doubtful)")
        }
        // The sequence of the current state: nothing until the next change.
        let change = try #require(try await Self.firstMessage({ ChangeFeed(name: feed.name, updates: PersonTimelineViewModel.tweets(
            of: "bob", in: store, sections: .none, now: $0)) }, after: reset.position) { try await Self.ingest(5, into: store) })
        #expect(change.type == .change && change.rowInsertions?.map(\.row.id) == [5])
    }

    @Test func aRendererBehindTheLogGetsAResetSnapshot() async throws {
        let store = try await Self.store(retention: 4)
        defer { store.close() }
        let feed = ChangeFeed.people(Sample.list, store: store)
        let snapshot = try #require(try await Pull(feed.messages()).next())
        // Commits of tweets only, enough to prune the entries after the snapshot's sequence: the
        // log no longer shows that none of them touched a member.
        for id in Int64(10)..<20 { try await Self.ingest(id, into: store) }
        let range = try #require(try await store.read { try $0.changeLogRange() })
        #expect(range.lowerBound > snapshot.sequence + 1)
        let reset = try #require(try await Pull(feed.messages(after: snapshot.position)).next())
        #expect(reset.type == .snapshot && reset.reason == .reset)
    }

    /// A database restored from an older backup and written again reaches the renderer's sequence
    /// with other commits: the renderer's position is not in its history, so it starts over.
    @Test func aRendererFromBeforeARestoreGetsAResetSnapshot() async throws {
        let store = try await Self.store()
        defer { store.close() }
        let backup = TemporaryDirectory("restore", create: false)
        defer { backup.remove() }
        try store.backup(to: backup.path)
        for id in Int64(4)...6 { try await Self.ingest(id, into: store) }
        let feed = ChangeFeed.list(Sample.list, store: store, sections: .day, now: Self.now)
        var state = FeedState<TimelineRow>()
        try state.apply(try await Self.fresh(feed))
        #expect(state.sections.flatMap(\.rows).map(\.id).sorted() == [1, 2, 3, 4, 5, 6])

        let restored = try Store.open(at: backup.path, collections: TweetieDatabase.collections)
        defer { restored.close() }
        try await restored.write { try $0.delete(Tweet.self, key: Int64(1)) }
        for id in Int64(7)...8 { try await Self.ingest(id, into: restored) }
        #expect(try await restored.read { try $0.lastChangeSequence() } == state.sequence)

        let restoredFeed = ChangeFeed.list(Sample.list, store: restored, sections: .day, now: Self.now)
        let first = try #require(try await Pull(restoredFeed.messages(after: state.position)).next())
        #expect(first.type == .snapshot && first.reason == .reset)
        try state.apply(first)
        #expect(state.sections == (try await Self.fresh(restoredFeed)).sections)
        #expect(state.sections.flatMap(\.rows).map(\.id).sorted() == [2, 3, 7, 8])
    }
}
