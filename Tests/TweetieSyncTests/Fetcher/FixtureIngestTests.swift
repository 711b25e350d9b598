import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("Ingesting the captured fixtures", .enabled(if: Fixtures.isAvailable, Fixtures.disabledReason))
struct FixtureIngestTests {
    @Test func everyCapturedResponseIsStored() async throws {
        let (logger, _) = CapturingLogHandler.make()
        let api = APICacheSource(directory: try #require(Fixtures.directory), logger: logger)
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let list = Sample.list

        // The list timeline through the fetcher: the newest page, then an (uncaptured, empty) older page.
        let fetcher = TimelineFetcher(list: list, api: api, store: store, account: .authorized(token: "t"),
                                      reachability: AlwaysReachable(), clock: ManualClock())
        var total = try await fetcher.refresh()
        #expect(total == IngestReport(inserted: 19))
        #expect(await fetcher.refreshCursor == TimelineCursor(sinceId: 1071325319259414528))
        #expect(try await fetcher.loadOlder() == IngestReport())
        #expect(await fetcher.reachedOldest)

        // The book's buggy "next page" request (both bounds) was captured empty.
        let buggy = try await api.timeline(of: list, cursor: TimelineCursor(maxId: 1070684513213267967, sinceId: 1071396963340435457))
        total += try await TimelineIngest.ingest(buggy, list: list, into: store)
        for author in Fixtures.authors {
            let page = try await api.timeline(of: author, cursor: TimelineCursor())
            total += try await TimelineIngest.ingest(page, list: nil, into: store)
        }
        #expect(total.received == 318)
        #expect(total.inserted == 304)
        #expect(total.dropped == 0 && total.deleted == 0)
        let tweets = try await store.read { try $0.fetch(Query<Tweet>()) }
        #expect(tweets.count == 304)

        // List membership: exactly the 19 list tweets, even when a user timeline delivered them again.
        let listPage = try await api.timeline(of: list, cursor: TimelineCursor())
        let listIds = Set(listPage.tweets.map(\.id))
        #expect(listIds.count == 19)
        #expect(Set(tweets.filter { !$0.lists.isEmpty }.map(\.id)) == listIds)
        #expect(tweets.filter { listIds.contains($0.id) }.allSatisfy { $0.lists == [list.key] })

        // Members, stored with the list's key.
        let membersReport = try await TimelineIngest.ingest(try await api.members(of: list), of: list, into: store)
        #expect(membersReport == IngestReport(inserted: 8))
        let users = try await store.read { try $0.fetch(Query<User>()) }
        #expect(users.count == 8 && users.allSatisfy { $0.lists == [list.key] })

        // The view models read the same data.
        let timeline = ListTimelineViewModel(account: .authorized(token: "t"), list: list, api: api, store: store,
                                             reachability: AlwaysReachable(), clock: ManualClock())
        let first = try #require(try await Pull(timeline.tweets).next())
        #expect(first.rowCount == 19)
        #expect(first.sections.flatMap(\.rows).map(\.id) == listPage.tweets.sorted { ($0.created, $1.id) > ($1.created, $0.id) }.map(\.id))
        let people = ListPeopleViewModel(list: list, api: api, store: store)
        #expect(await people.loaded() == .loaded(IngestReport(unchanged: 8)))
        #expect(try await Pull(people.people).next()??.count == 8)
        let person = PersonTimelineViewModel(username: "icanzilb", api: api, store: store, reachability: AlwaysReachable(), clock: ManualClock())
        let mine = try #require(try await Pull(person.tweets).next())
        #expect(mine.count == tweets.filter { $0.username.lowercased() == "icanzilb" }.count)
        #expect(mine.map(\.created) == mine.map(\.created).sorted(by: >))
        #expect(try await Pull(person.title).next() == "@icanzilb")
    }
}
