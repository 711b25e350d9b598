import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("TimelineFetcher")
struct TimelineFetcherTests {
    static let period = Duration.seconds(30)

    static func tweets(_ ids: ClosedRange<Int64>) -> [Tweet] {
        ids.map { Sample.tweet($0, at: Sample.saturday + Double($0) * 60) }
    }

    static func fetcher(_ api: ScriptedTwitterAPI, _ store: Store, account: AccountStatus = .authorized(token: "t"),
                        reachability: any Reachability = AlwaysReachable(), clock: ManualClock = ManualClock()) -> TimelineFetcher {
        TimelineFetcher(list: Sample.list, api: api, store: store, account: account, reachability: reachability,
                        clock: clock, period: period)
    }

    static func storedIds(_ store: Store) async throws -> [Int64] {
        try await store.read { try $0.fetch(Query<Tweet>()) }.map(\.id)
    }

    @Test func refreshAsksSinceIdOnlyAndLoadOlderMaxIdOnly() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let api = ScriptedTwitterAPI(tweets: Self.tweets(100...120), pageSize: 5)
        let fetcher = Self.fetcher(api, store)

        // First refresh: no bound; the newest page 116...120.
        #expect(try await fetcher.refresh() == IngestReport(inserted: 5))
        #expect(await fetcher.cursor == TimelineCursor(maxId: 115, sinceId: 120))
        #expect(await fetcher.refreshCursor == TimelineCursor(sinceId: 120))
        #expect(await fetcher.olderCursor == TimelineCursor(maxId: 115))

        // Nothing new: the second refresh asks since 120 and gets nothing.
        #expect(try await fetcher.refresh() == IngestReport())
        await api.add(Self.tweets(121...122))
        #expect(try await fetcher.refresh() == IngestReport(inserted: 2))
        #expect(try await fetcher.loadOlder() == IngestReport(inserted: 5))
        #expect(try await fetcher.loadOlder() == IngestReport(inserted: 5))
        #expect(await fetcher.cursor == TimelineCursor(maxId: 105, sinceId: 122))

        let cursors = await api.timelineCursors
        #expect(cursors == [
            TimelineCursor(), TimelineCursor(sinceId: 120), TimelineCursor(sinceId: 120),
            TimelineCursor(maxId: 115), TimelineCursor(maxId: 110),
        ])
        #expect(cursors.allSatisfy { $0.maxId == nil || $0.sinceId == nil }, "never both bounds")
        #expect(try await Self.storedIds(store) == Array(106...122))
        #expect(try await store.read { try $0.fetch(Query<Tweet>()) }.allSatisfy { $0.lists == [Sample.list.key] })

        // Paging to the end: an empty page sets reachedOldest.
        for _ in 0..<3 { try await fetcher.loadOlder() }
        #expect(await fetcher.reachedOldest)
        #expect(try await Self.storedIds(store) == Array(100...122))
    }

    @Test func eventsCarryTheRequestCursor() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let api = ScriptedTwitterAPI(tweets: Self.tweets(1...3))
        let fetcher = Self.fetcher(api, store)
        let events = Pull(fetcher.events)
        try await fetcher.refresh()
        try await fetcher.loadOlder()
        #expect(try await events.next() == .fetched(IngestReport(inserted: 3), cursor: TimelineCursor()))
        #expect(try await events.next() == .fetched(IngestReport(), cursor: TimelineCursor(maxId: 0)))
    }

    @Test func cursorIsSeededFromTheListsStoredTweets() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        try await store.write { tx in
            for tweet in Self.tweets(50...60) {
                var member = tweet
                member.lists = [Sample.list.key]
                try tx.add(member)
            }
            try tx.add(Sample.tweet(70, at: Sample.saturday))                        // not in the list
            try tx.add(Sample.tweet(10, at: Sample.saturday, lists: ["ann/other"]))  // another list
        }
        let api = ScriptedTwitterAPI(tweets: Self.tweets(40...62))
        let fetcher = Self.fetcher(api, store)
        try await fetcher.seedFromStore()
        #expect(await fetcher.cursor == TimelineCursor(maxId: 49, sinceId: 60))
        #expect(try await fetcher.refresh() == IngestReport(inserted: 2))
        #expect(try await fetcher.loadOlder() == IngestReport(inserted: 10))
        #expect(await api.timelineCursors == [TimelineCursor(sinceId: 60), TimelineCursor(maxId: 49)])

        // A user-timeline fetcher seeds from the author index.
        let user = TimelineFetcher(username: "ANN", api: api, store: store, account: .authorized(token: "t"),
                                   reachability: AlwaysReachable(), clock: ManualClock())
        try await user.seedFromStore()
        #expect(await user.cursor == TimelineCursor(maxId: 9, sinceId: 70))  // all of ann's stored tweets: 10, 40...62, 70
    }

    @Test func gatingByAccountPauseAndReachability() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let api = ScriptedTwitterAPI(tweets: Self.tweets(1...3))
        let clock = ManualClock()
        let reachability = SwitchReachability(true)
        let fetcher = Self.fetcher(api, store, account: .unavailable, reachability: reachability, clock: clock)
        let events = Pull(fetcher.events)
        let running = Task { await fetcher.run() }
        defer { running.cancel() }

        // Not logged in: idle, no request, even after many periods.
        guard case .idle(let reason)? = try await events.next() else { Issue.record("expected idle"); return }
        #expect(reason.contains("not logged in"))
        await clock.waitForSleepers()
        clock.advance(by: Self.period * 10)
        #expect(clock.sleeperCount == 1, "an unauthorized fetcher waits for an input, not for the clock")
        #expect(await api.requests.isEmpty)

        // Logging in wakes it: a fetch at once.
        await fetcher.setAccount(.authorized(token: "t"))
        #expect(try await events.next() == .fetched(IngestReport(inserted: 3), cursor: TimelineCursor()))

        // Paused: idle at once; no fetch while time passes.
        await fetcher.setPaused(true)
        #expect(try await events.next() == .idle(reason: "paused"))
        await clock.waitForSleepers()
        clock.advance(by: Self.period * 10)
        #expect(clock.sleeperCount == 1)
        #expect(await api.requests.count == 1)

        // Resumed: a fetch at once, then one per period.
        await fetcher.setPaused(false)
        #expect(try await events.next() == .fetched(IngestReport(), cursor: TimelineCursor(sinceId: 3)))
        await clock.waitForSleepers()
        #expect(clock.pendingDelays == [Self.period])
        clock.advance(by: Self.period)
        #expect(try await events.next() == .fetched(IngestReport(), cursor: TimelineCursor(sinceId: 3)))

        // Unreachable: idle, re-checked every period without fetching.
        reachability.set(false)
        await clock.waitForSleepers()
        clock.advance(by: Self.period)
        guard case .idle(let unreachable)? = try await events.next() else { Issue.record("expected idle"); return }
        #expect(unreachable.hasPrefix("unreachable"))
        await clock.waitForSleepers()
        let checks = reachability.checks
        clock.advance(by: Self.period)
        await clock.waitForSleepers()
        #expect(reachability.checks == checks + 1)
        #expect(await api.requests.count == 3)

        // Reachable again: the next check fetches.
        reachability.set(true)
        await api.add(Self.tweets(4...4))
        clock.advance(by: Self.period)
        #expect(try await events.next() == .fetched(IngestReport(inserted: 1), cursor: TimelineCursor(sinceId: 3)))

        // Logging out: idle again.
        await fetcher.setAccount(.unavailable)
        guard case .idle? = try await events.next() else { Issue.record("expected idle"); return }
        running.cancel()
        try await withTimeout("run() to end after cancellation") { await running.value }
        #expect(await api.requests.count == 4)
    }

    @Test func failuresBackOffExponentiallyAndRecover() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let api = ScriptedTwitterAPI(tweets: Self.tweets(1...2))
        await api.failNext(5)
        let clock = ManualClock()
        let fetcher = Self.fetcher(api, store, clock: clock)
        let events = Pull(fetcher.events)
        let running = Task { await fetcher.run() }
        defer { running.cancel() }

        let p = Self.period
        for (attempt, delay) in [p * 2, p * 4, p * 8, p * 8, p * 8].enumerated() {
            guard case .failed(let message, let retryIn)? = try await events.next() else {
                Issue.record("expected a failure event"); return
            }
            #expect(message.contains("The network connection was lost."))
            #expect(retryIn == delay)
            #expect(await fetcher.consecutiveFailures == attempt + 1)
            await clock.waitForSleepers()
            #expect(clock.pendingDelays == [delay])
            // Just before the delay ends nothing happens.
            clock.advance(by: delay - .seconds(1))
            #expect(clock.sleeperCount == 1)
            #expect(await api.requests.count == attempt + 1)
            clock.advance(by: .seconds(1))
        }
        // The sixth attempt succeeds; the backoff resets to the period.
        #expect(try await events.next() == .fetched(IngestReport(inserted: 2), cursor: TimelineCursor()))
        #expect(await fetcher.consecutiveFailures == 0)
        await clock.waitForSleepers()
        #expect(clock.pendingDelays == [p])
        #expect(fetcher.retryDelay(afterFailures: 0) == p)
        #expect(fetcher.retryDelay(afterFailures: 40) == p * 8)
    }

    @Test func runReturnsAtOnceWhenAlreadyRunning() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let api = ScriptedTwitterAPI(tweets: Self.tweets(1...2))
        let clock = ManualClock()
        let fetcher = Self.fetcher(api, store, clock: clock)
        let events = Pull(fetcher.events)
        let running = Task { await fetcher.run() }
        _ = try await events.next()
        try await withTimeout("a second run() to return") { await fetcher.run() }
        running.cancel()
        try await withTimeout("run() to end") { await running.value }
        #expect(await api.requests.count == 1)
    }
}
