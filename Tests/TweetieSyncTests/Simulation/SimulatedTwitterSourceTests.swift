import Foundation
import Testing
@testable import TweetieSync

@Suite("SimulatedTwitterSource")
struct SimulatedTwitterSourceTests {
    /// Drives a source through a fixed script of calls and returns every page it produced.
    private func script(_ source: SimulatedTwitterSource) async throws -> [TimelinePage] {
        var pages: [TimelinePage] = []
        var first = try await source.timeline(of: source.list, cursor: TimelineCursor())
        pages.append(first)
        for _ in 0..<6 {
            await source.advance(steps: 3)
            let newest = try #require(first.tweets.first?.id)
            let refresh = try await source.timeline(of: source.list, cursor: TimelineCursor(sinceId: newest))
            pages.append(refresh)
            if let top = refresh.tweets.first, top.id > newest { first = refresh }
            let oldest = try #require(first.tweets.last?.id)
            pages.append(try await source.timeline(of: source.list, cursor: TimelineCursor(maxId: oldest - 1)))
            pages.append(try await source.timeline(of: "priyacodes", cursor: TimelineCursor()))
        }
        return pages
    }

    @Test func sameSeedGivesSamePages() async throws {
        let a = try await script(SimulatedTwitterSource(seed: 2024))
        let b = try await script(SimulatedTwitterSource(seed: 2024))
        #expect(a == b)
        let c = try await script(SimulatedTwitterSource(seed: 2025))
        #expect(a != c)
        let stateA = await SimulatedTwitterSource(seed: 9).currentTweets
        let stateB = await SimulatedTwitterSource(seed: 9).currentTweets
        #expect(stateA == stateB && stateA.count == 60)
    }

    @Test func requestsDoNotAdvanceTime() async throws {
        let source = SimulatedTwitterSource(seed: 5)
        let before = await source.currentTweets
        _ = try await source.timeline(of: source.list, cursor: TimelineCursor())
        _ = try await source.members(of: source.list)
        #expect(await source.currentTweets == before)
        #expect(await source.step == 0)
        let start = await source.now
        await source.advance(steps: 2)
        #expect(await source.step == 2)
        #expect(await source.now > start)
    }

    @Test func cursorsAreRespectedExactlyBeforeAnyEdit() async throws {
        // At step 0 nothing has been edited or deleted, so pages hold exactly the cursor's range.
        let source = SimulatedTwitterSource(seed: 77, pageSize: 15)
        let all = await source.currentTweets
        #expect(all.map(\.id) == all.map(\.id).sorted(by: >))
        func page(_ cursor: TimelineCursor) async throws -> [Tweet] {
            let page = try await source.timeline(of: source.list, cursor: cursor)
            #expect(page.deletedIds.isEmpty)
            return page.tweets
        }
        #expect(try await page(TimelineCursor()) == Array(all.prefix(15)))
        #expect(try await page(TimelineCursor(sinceId: all[5].id)) == Array(all[0..<5]))
        #expect(try await page(TimelineCursor(sinceId: all[40].id)) == Array(all[0..<15]))
        #expect(try await page(TimelineCursor(maxId: all[20].id)) == Array(all[20..<35]))
        #expect(try await page(TimelineCursor(maxId: all[20].id - 1)) == Array(all[21..<36]))
        #expect(try await page(TimelineCursor(maxId: all[5].id, sinceId: all[12].id)) == Array(all[5..<12]))
        #expect(try await page(TimelineCursor(maxId: all[12].id, sinceId: all[5].id)) == [])
    }

    @Test func cursorsAreRespectedAfterChanges() async throws {
        let source = SimulatedTwitterSource(seed: 77, pageSize: 15)
        await source.advance(steps: 10)
        let all = await source.currentTweets
        let pivot = all[20].id
        let since = try await source.timeline(of: source.list, cursor: TimelineCursor(sinceId: pivot))
        let fresh = since.tweets.prefix { $0.id > pivot }
        #expect(Array(fresh) == Array(all.prefix(15)))        // newest first, capped by page size
        #expect(since.tweets.dropFirst(fresh.count).allSatisfy { $0.id <= pivot })   // only edits follow
        let older = try await source.timeline(of: source.list, cursor: TimelineCursor(maxId: pivot))
        #expect(older.tweets == Array(all.filter { $0.id <= pivot }.prefix(15)))
        #expect(older.deletedIds.isEmpty)
    }

    @Test func editsAndDeletionsReachASinceIdRefresh() async throws {
        let source = SimulatedTwitterSource(seed: 31337)
        let first = try await source.timeline(of: source.list, cursor: TimelineCursor())
        var client = Dictionary(uniqueKeysWithValues: first.tweets.map { ($0.id, $0) })
        let newest = try #require(first.tweets.first?.id)
        let oldest = try #require(first.tweets.last?.id)
        var sawEdit = false, sawTextEdit = false, sawDeletion = false, sawInsert = false
        var since = newest
        for _ in 0..<40 {
            await source.advance()
            let page = try await source.timeline(of: source.list, cursor: TimelineCursor(sinceId: since))
            for tweet in page.tweets {
                if let old = client[tweet.id] {
                    if old != tweet { sawEdit = true }
                    if old.text != tweet.text { sawTextEdit = true }
                } else if tweet.id > since {
                    sawInsert = true
                }
                if tweet.id >= oldest { client[tweet.id] = tweet }
            }
            for id in page.deletedIds where client.removeValue(forKey: id) != nil { sawDeletion = true }
            since = max(since, page.tweets.map(\.id).max() ?? since)
        }
        #expect(sawInsert && sawEdit && sawTextEdit && sawDeletion)
        // The client's window (everything from its first oldest tweet on) now equals the source.
        let truth = await source.currentTweets.filter { $0.id >= oldest }
        #expect(client.values.sorted { $0.id > $1.id } == truth)
        let deleted = await source.deletedTweetIds
        #expect(!deleted.isEmpty)
        #expect(Set(deleted).isDisjoint(with: Set(truth.map(\.id))))
    }

    @Test func datesSpanSeveralDaysAndIdsFollowTime() async throws {
        let source = SimulatedTwitterSource(seed: 1)
        await source.advance(steps: 30)
        let tweets = await source.currentTweets
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let days = Set(tweets.map { calendar.startOfDay(for: $0.created) })
        #expect(days.count >= 5)
        #expect(tweets.map(\.created) == tweets.map(\.created).sorted(by: >))
        let now = await source.now
        #expect(tweets.allSatisfy { $0.created <= now })
    }

    @Test func membersAndUserTimelinesAreConsistent() async throws {
        let source = SimulatedTwitterSource(seed: 8)
        await source.advance(steps: 5)
        let members = try await source.members(of: source.list).users
        #expect(members.count == 8)
        #expect(Set(members.map(\.id)).count == 8)
        let all = await source.currentTweets
        #expect(Set(all.map(\.authorId)).isSubset(of: Set(members.map(\.id))))
        var total = 0
        for member in members {
            let page = try await source.timeline(of: member.username, cursor: TimelineCursor())
            #expect(page.tweets.allSatisfy { $0.authorId == member.id && $0.name == member.name
                && $0.imageURL == member.imageURL })
            total += page.tweets.count
        }
        #expect(total == all.count)
        #expect(all.contains { $0.isRetweet } && all.contains { $0.inReplyToId != nil })
    }

    @Test func unknownListOrUserIsNotFound() async throws {
        let source = SimulatedTwitterSource(seed: 8)
        await #expect(throws: TwitterAPIError.self) {
            try await source.timeline(of: ListIdentifier(username: "someone", slug: "else"), cursor: TimelineCursor())
        }
        await #expect(throws: TwitterAPIError.self) {
            try await source.timeline(of: "nobody_here", cursor: TimelineCursor())
        }
    }
}
