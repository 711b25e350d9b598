import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("ListTimelineViewModel")
struct ListTimelineViewModelTests {
    /// 2018-12-09 12:00 UTC, a Sunday.
    static let now = Date(timeIntervalSince1970: 1_544_356_800)

    @Test func initStoresItsParameters() throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let api = ScriptedTwitterAPI()
        let viewModel = ListTimelineViewModel(account: .authorized(token: "t"), list: Sample.list, api: api, store: store,
                                              reachability: AlwaysReachable(), clock: ManualClock(), period: .seconds(45),
                                              now: { Self.now })
        #expect(viewModel.list == Sample.list)
        #expect(viewModel.store === store)
        #expect((viewModel.api as? ScriptedTwitterAPI) === api)
        #expect(viewModel.now() == Self.now)
        #expect(viewModel.fetcher.list == Sample.list)
        #expect(viewModel.fetcher.period == .seconds(45))
        #expect(viewModel.fetcher.store === store)
        #expect(viewModel.fetcher.reachability is AlwaysReachable)
    }

    @Test func showsTheThreeStoredTweetsInDaySections() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let key = Sample.list.key
        try await store.write { tx in
            try tx.add(Sample.tweet(1, "ann", at: Self.now - 5 * 60, lists: [key]))          // Sunday, 5 minutes ago
            try tx.add(Sample.tweet(2, "bob", at: Self.now - 3 * 3600 - 10, lists: [key]))   // Sunday, 3 hours ago
            try tx.add(Sample.tweet(3, "cy", at: Self.now - 26 * 3600, lists: [key, "x/y"])) // Saturday
            try tx.add(Sample.tweet(4, "dee", at: Self.now - 60, lists: ["x/y"]))            // another list
            try tx.add(Sample.tweet(5, "eve", at: Self.now - 60))                            // no list
        }
        let viewModel = ListTimelineViewModel(account: .authorized(token: "t"), list: Sample.list, api: ScriptedTwitterAPI(),
                                              store: store, reachability: AlwaysReachable(), clock: ManualClock(),
                                              now: { Self.now })
        let updates = Pull(viewModel.tweets)
        let first = try #require(try await updates.next())
        #expect(first.isInitial)
        #expect(first.changeset.isEmpty)
        #expect(first.sections.map(\.key) == ["2018-12-09", "2018-12-08"])
        #expect(first.sections.map(\.title) == ["Sunday, Dec 9", "Saturday, Dec 8"])
        #expect(first.sections.map { $0.rows.map(\.id) } == [[1, 2], [3]])
        #expect(first.rowCount == 3)
        let row = first.row(at: RowPath(section: 0, row: 0))
        #expect(row == TimelineRow(id: 1, author: "Ann", handle: "@ann", text: "tweet 1", relativeTime: "5m",
                                   imageURL: "https://example.com/ann.png", created: Self.now - 300))
        #expect(first.sections[0].rows[1].relativeTime == "3h")
        #expect(first.sections[1].rows[0].relativeTime == "1d")

        // A new list tweet on Saturday arrives as a row insertion the changeset places exactly.
        try await TimelineIngest.ingest(TimelinePage(tweets: [Sample.tweet(6, "fay", at: Self.now - 25 * 3600)]),
                                        list: Sample.list, into: store)
        let second = try #require(try await updates.next())
        #expect(!second.isInitial)
        #expect(second.changeset.rowInsertions == [RowPath(section: 1, row: 0)])
        #expect(Self.apply(second, to: first) == second.sections.map { Array($0.rows) })

        // Only shown fields count as modifications: new counts on tweet 1 do not, an edit of tweet 2 does.
        try await store.write { tx in
            var counted = try #require(try tx.get(Tweet.self, key: 1))
            counted.favoriteCount += 10
            try tx.add(counted, update: .modified)
            var edited = try #require(try tx.get(Tweet.self, key: 2))
            edited.text = "edited"
            try tx.add(edited, update: .modified)
        }
        let third = try #require(try await updates.next())
        #expect(third.changeset == SectionedChangeset(rowModificationsInOld: [RowPath(section: 0, row: 1)],
                                                      rowModificationsInNew: [RowPath(section: 0, row: 1)]))
        #expect(third.sections[0].rows[1].text == "edited")
        #expect(Self.apply(third, to: second) == third.sections.map { Array($0.rows) })
    }

    @Test func loggedInFollowsTheAccountAndFinishes() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let (accounts, accountSink) = AsyncStream.makeStream(of: AccountStatus.self)
        let viewModel = ListTimelineViewModel(account: accounts, list: Sample.list, api: ScriptedTwitterAPI(), store: store,
                                              reachability: AlwaysReachable(), clock: ManualClock())
        let loggedIn = Pull(viewModel.loggedIn)
        accountSink.yield(.authorized(token: "secret"))
        #expect(try await loggedIn.next() == true)
        #expect(await viewModel.fetcher.account == .authorized(token: "secret"))
        accountSink.yield(.unavailable)
        #expect(try await loggedIn.next() == false)
        #expect(await viewModel.fetcher.account == .unavailable)
        accountSink.finish()
        #expect(try await loggedIn.next() == nil)
        // A late subscriber gets the last value and the end.
        let late = Pull(viewModel.loggedIn)
        #expect(try await late.next() == false)
        #expect(try await late.next() == nil)
    }

    @Test func fixedAccountEmitsOnceAndPauseIsForwarded() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let viewModel = ListTimelineViewModel(account: .unavailable, list: Sample.list, api: ScriptedTwitterAPI(), store: store,
                                              reachability: AlwaysReachable(), clock: ManualClock())
        let loggedIn = Pull(viewModel.loggedIn)
        #expect(try await loggedIn.next() == false)
        #expect(try await loggedIn.next() == nil)
        for paused in [true, false, true] {
            viewModel.setPaused(paused)
            try await withTimeout("setPaused(\(paused)) to reach the fetcher") {
                while await viewModel.fetcher.isPaused != paused { await Task.yield() }
            }
        }
    }

    /// Applies an update's changeset to the previous update's rows, taking new rows from the update.
    static func apply(_ update: TimelineUpdate, to previous: TimelineUpdate) -> [[TimelineRow]] {
        update.changeset.apply(to: previous.sections.map { Array($0.rows) },
                               insertedSection: { Array(update.sections[$0].rows) },
                               newElement: { update.row(at: $0) })
    }
}
