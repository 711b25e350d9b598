import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("The simulated source through the fetcher and the list timeline")
struct SimulatedFetchTests {
    static let period = Duration.seconds(60)
    /// Fixed, after every simulated tweet, so relative times do not change between deliveries.
    static let now = Date(timeIntervalSince1970: 1_546_000_000)

    /// The timeline sections computed directly from a fresh read of the store.
    static func freshSections(_ viewModel: ListTimelineViewModel) async throws -> [TimelineSection] {
        let query = viewModel.query
        let tweets = try await viewModel.store.read { try $0.fetch(query) }
        var sections: [TimelineSection] = []
        for tweet in tweets {
            let key = TimelineFormat.dayKey(of: tweet.created)
            if sections.last?.key != key {
                sections.append(TimelineSection(key: key, title: TimelineFormat.dayTitle(of: tweet.created, now: now), rows: []))
            }
            sections[sections.count - 1].rows.append(TimelineRow(tweet, now: now))
        }
        return sections
    }

    @Test(arguments: [UInt64(3), 11, 2024])
    func storeEndsEqualToTheSourceAndChangesetsReplay(seed: UInt64) async throws {
        let source = SimulatedTwitterSource(seed: seed, pageSize: 20)
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let clock = ManualClock()
        let viewModel = ListTimelineViewModel(account: .authorized(token: "sim"), list: source.list, api: source, store: store,
                                              reachability: AlwaysReachable(), clock: clock, period: Self.period,
                                              now: { Self.now })
        let fetcher = viewModel.fetcher
        let events = Pull(fetcher.events)
        let updates = Pull(viewModel.tweets)
        let initial = try #require(try await updates.next())
        #expect(initial.isInitial && initial.sections.isEmpty)
        var shown = Array(initial.sections)
        var deliveries = 0

        /// Pulls the next delivery when the store's timeline differs from what is shown, and checks
        /// that its changeset turns the shown rows into the new ones, which equal a fresh read.
        func catchUp() async throws {
            let fresh = try await Self.freshSections(viewModel)
            guard fresh != shown else { return }
            let update = try #require(try await updates.next())
            #expect(!update.isInitial)
            #expect(Array(update.sections) == fresh)
            // Validate before applying: an invalid changeset is reported with its reason, not a crash.
            try update.changeset.validate(oldRowCounts: shown.map(\.rows.count), newRowCounts: update.sections.map(\.rows.count))
            let replayed = update.changeset.apply(to: shown.map { Array($0.rows) }, insertedSection: { Array(update.sections[$0].rows) },
                                                  newElement: { update.row(at: $0) })
            #expect(replayed == update.sections.map { Array($0.rows) })
            shown = Array(update.sections)
            deliveries += 1
        }

        func expectStoreEqualsSource(_ context: String) async throws {
            let stored = try await store.read { try $0.fetch(Query<Tweet>()) }
            let current = await source.currentTweets.sorted { $0.id < $1.id }
            #expect(stored.map(\.id) == current.map(\.id), "\(context): stored ids differ from the source's")
            let differing = zip(stored, current).first { $0.withLists([]) != $1 }
            #expect(differing == nil, "\(context): stored \(String(describing: differing?.0)) but the source has \(String(describing: differing?.1))")
            #expect(stored.allSatisfy { $0.lists == [source.list.key] }, "\(context)")
        }

        // The history: the newest page, then older pages until an empty one.
        try await fetcher.refresh()
        _ = try await events.next()
        try await catchUp()
        while await !fetcher.reachedOldest {
            try await fetcher.loadOlder()
            guard case .fetched(_, let cursor)? = try await events.next() else { Issue.record("expected a fetch"); return }
            #expect(cursor.sinceId == nil && cursor.maxId != nil)
            try await catchUp()
        }
        try await expectStoreEqualsSource("after paging the history")

        // Then run() keeps up while the world posts, edits and deletes.
        let running = Task { await fetcher.run() }
        defer { running.cancel() }
        var total = IngestReport()
        for step in 0...40 {
            if step > 0 {
                await source.advance()
                await clock.waitForSleepers()
                clock.advance(by: Self.period)
            }
            guard case .fetched(let report, let cursor)? = try await events.next() else { Issue.record("expected a fetch"); return }
            #expect(cursor.maxId == nil && cursor.sinceId != nil, "a refresh asks since_id only")
            total += report
            try await catchUp()
            try await expectStoreEqualsSource("step \(step)")
        }
        #expect(total.inserted > 0 && total.modified > 0 && total.deleted > 0, "\(total)")
        let deleted = Set(await source.deletedTweetIds)
        let storedIds = Set(try await store.read { try $0.fetch(Query<Tweet>()) }.map(\.id))
        #expect(storedIds.isDisjoint(with: deleted) && !deleted.isEmpty)
        #expect(deliveries > 10)

        // A fresh observation agrees with the replayed one.
        let fresh = try #require(try await Pull(viewModel.tweets).next())
        #expect(Array(fresh.sections) == shown)
    }
}

extension Tweet {
    func withLists(_ lists: [String]) -> Tweet {
        var copy = self
        copy.lists = lists
        return copy
    }
}
