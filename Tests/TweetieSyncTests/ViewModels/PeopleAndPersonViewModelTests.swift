import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// A members source that answers only when the test releases it.
actor GatedMembersAPI: TwitterAPI {
    private var release: CheckedContinuation<Void, Never>?
    private var released = false
    private var waiting: CheckedContinuation<Void, Never>?
    private var called = false
    let users: [User]
    let failure: TwitterAPIError?

    init(users: [User], failure: TwitterAPIError? = nil) {
        self.users = users
        self.failure = failure
    }

    func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage { TimelinePage(tweets: []) }
    func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage { TimelinePage(tweets: []) }

    func members(of list: ListIdentifier) async throws -> MembersPage {
        called = true
        waiting?.resume()
        waiting = nil
        if !released { await withCheckedContinuation { release = $0 } }
        if let failure { throw failure }
        return MembersPage(users: users)
    }

    /// Returns once `members` was called.
    func waitUntilCalled() async {
        if called { return }
        await withCheckedContinuation { waiting = $0 }
    }

    func open() {
        released = true
        release?.resume()
        release = nil
    }
}

@Suite("ListPeopleViewModel and PersonTimelineViewModel")
struct PeopleAndPersonViewModelTests {
    @Test func peopleGoFromNilToTheFetchedMember() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        // A user stored for another list must not show up.
        try await store.write { tx in try tx.add(User(id: 9, name: "Zed", username: "zed", about: "", url: "", imageURL: "", lists: ["x/y"])) }
        let api = GatedMembersAPI(users: [Sample.user(1, "fpillet")])
        let viewModel = ListPeopleViewModel(list: Sample.list, api: api, store: store)
        #expect(viewModel.list == Sample.list && viewModel.store === store && (viewModel.api as? GatedMembersAPI) === api)
        let people = Pull(viewModel.people)
        let loading = Pull(viewModel.isLoading)
        await api.waitUntilCalled()
        #expect(try await people.next() == .some(nil))
        #expect(try await loading.next() == true)
        await api.open()
        let members = try #require(try await people.next() ?? nil)
        #expect(members.map(\.username) == ["fpillet"])
        #expect(members.first?.lists == [Sample.list.key])
        #expect(try await loading.next() == false)
        #expect(await viewModel.loaded() == .loaded(IngestReport(inserted: 1)))

        // The list is live: a member added later (e.g. by another fetch) appears.
        try await TimelineIngest.ingest(MembersPage(users: [Sample.user(2, "ashfurrow")]), of: Sample.list, into: store)
        let more = try #require(try await people.next() ?? nil)
        #expect(more.map(\.username) == ["ashfurrow", "fpillet"])
    }

    @Test func failedLoadShowsWhatIsStored() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        try await TimelineIngest.ingest(MembersPage(users: [Sample.user(3, "icanzilb")]), of: Sample.list, into: store)
        let api = GatedMembersAPI(users: [], failure: .transport(endpoint: "lists/members.json", reason: "offline"))
        await api.open()
        let viewModel = ListPeopleViewModel(list: Sample.list, api: api, store: store)
        guard case .failed(let message) = await viewModel.loaded() else { Issue.record("expected a failure"); return }
        #expect(message.contains("lists/members.json") && message.contains("offline"))
        let people = Pull(viewModel.people)
        #expect(try await people.next() == .some([Sample.user(3, "icanzilb").withLists([Sample.list.key])]))
    }

    @Test func personTimelineHasNoDuplicatesAfterRepeatedTicks() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let base = Sample.saturday
        // Like the book's mock: every request returns the same three tweets, whatever the cursor.
        let api = ScriptedTwitterAPI(tweets: [
            Sample.tweet(1, "icanzilb", at: base + 300), Sample.tweet(2, "icanzilb", at: base + 200),
            Sample.tweet(3, "icanzilb", at: base + 100), Sample.tweet(4, "someoneelse", at: base + 400),
        ], ignoresCursor: true)
        let clock = ManualClock()
        let viewModel = PersonTimelineViewModel(username: "icanzilb", api: api, store: store, reachability: AlwaysReachable(),
                                                clock: clock, period: .seconds(10))
        #expect(viewModel.username == "icanzilb" && viewModel.store === store && viewModel.fetcher.period == .seconds(10))
        #expect(viewModel.fetcher.target == .user("icanzilb"))
        let titles = Pull(viewModel.title)
        let tweets = Pull(viewModel.tweets)
        #expect(try await titles.next() == "None found")
        #expect(try await tweets.next() == [])

        let events = Pull(viewModel.fetcher.events)
        let running = Task { await viewModel.fetcher.run() }
        defer { running.cancel() }
        #expect(try await events.next() == .fetched(IngestReport(inserted: 3), cursor: TimelineCursor()))
        #expect(try await tweets.next()?.map(\.id) == [1, 2, 3])
        #expect(try await titles.next() == "@icanzilb")
        for _ in 0..<4 {
            await clock.waitForSleepers()
            clock.advance(by: .seconds(10))
            #expect(try await events.next() == .fetched(IngestReport(unchanged: 3), cursor: TimelineCursor(sinceId: 3)))
        }
        let stored = try await store.read { try $0.fetch(viewModel.query) }
        #expect(stored.map(\.id) == [1, 2, 3])
        // A fresh subscriber sees the same single copy of each tweet.
        #expect(try await Pull(viewModel.tweets).next()?.map(\.id) == [1, 2, 3])
        #expect(await api.requests.count == 5)
    }
}

extension User {
    func withLists(_ lists: [String]) -> User {
        var copy = self
        copy.lists = lists
        return copy
    }
}
