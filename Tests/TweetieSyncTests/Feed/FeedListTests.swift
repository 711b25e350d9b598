import Foundation
import Synchronization
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// Counts the elements a made-on-read list makes.
private final class MadeCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add(_ n: Int = 1) { count.withLock { $0 += n } }
}

@Suite("FeedList")
struct FeedListTests {
    @Test func aMadeListIsTheArrayOfItsElements() throws {
        let made = MadeCount()
        let list = FeedList(count: 1_000, element: { made.add(); return $0 * 3 }, elements: { range in made.add(range.count); return range.map { $0 * 3 } })
        #expect(made.value == 0)
        #expect(list.count == 1_000)
        #expect(list[999] == 2_997)
        #expect(Array(list) == (0..<1_000).map { $0 * 3 })
        #expect(list == FeedList((0..<1_000).map { $0 * 3 }))
        #expect(list != FeedList((0..<999).map { $0 * 3 }))
        var a = Hasher(), b = Hasher()
        list.hash(into: &a)
        FeedList((0..<1_000).map { $0 * 3 }).hash(into: &b)
        #expect(a.finalize() == b.finalize())
        let literal: FeedList<Int> = [0, 3, 6]
        #expect(FeedList(count: 3) { $0 * 3 } == literal)
        #expect(FeedList<Int>().isEmpty)
        #expect("\(literal)" == "[0, 3, 6]")
    }

    @Test func readingAFewElementsMakesAFew() {
        let made = MadeCount()
        let list = FeedList(count: 1_000_000, element: { made.add(); return $0 }, elements: { range in made.add(range.count); return Array(range) })
        #expect(list.first == 0)
        #expect(made.value <= 16)
        let before = made.value
        #expect(Array(list.prefix(20)) == Array(0..<20))
        #expect(made.value - before <= 20)
        #expect(list.last == 999_999)
        #expect(list.reversed().first == 999_999)
        #expect(made.value < 100)
    }

    @Test func encodesAsAnArrayAndDecodesStored() throws {
        let list = FeedList(count: 4) { "row \($0)" }
        let json = try JSONEncoder().encode(list)
        #expect(String(decoding: json, as: UTF8.self) == #"["row 0","row 1","row 2","row 3"]"#)
        #expect(try JSONDecoder().decode(FeedList<String>.self, from: json) == list)
        let section = FeedSection(key: "all", title: "All", rows: FeedList(count: 2) { "r\($0)" })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(section), as: UTF8.self) == #"{"key":"all","rows":["r0","r1"],"title":"All"}"#)
    }
}

@Suite("SectionedUpdates make rows on read")
struct SectionedUpdatesLazinessTests {
    /// 2018-12-09 12:00 UTC, a Sunday.
    static let now = Date(timeIntervalSince1970: 1_544_356_800)

    @Test func aOneRowChangeMakesOneRowAtAnyLength() async throws {
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        let key = Sample.list.key
        let n: Int64 = 3_000
        try await store.write { tx in
            // Three tweets an hour: 3,000 tweets over about six weeks of day sections.
            for id in 1...n { try tx.add(Sample.tweet(id, "ann", at: Self.now - Double(id) * 1_200, lists: [key])) }
        }
        let made = MadeCount()
        let query = TimelineTarget.list(Sample.list).storedTweets
        let observation = store.observe(query, sectionedBy: { TimelineDay($0.created) }, sectionOrder: .descending,
                                        modificationsOf: TimelineRow.sourceFields)
        let updates = Pull(TimelineUpdates(store: store, observation: observation, now: { Self.now },
                                           section: { day, now in (day.key, day.title(now: now)) },
                                           row: { made.add(); return TimelineRow($0, now: $1) }))
        var builder = FeedBuilder<TimelineRow>(feed: "list icanzilb/RxSwift")

        let first = try #require(try await updates.next())
        #expect(made.value == 0, "an initial delivery makes no row until one is read")
        #expect(first.rowCount == Int(n))
        #expect(made.value == 0, "counting rows makes none")
        // The lazy sections are the eager ones: every row, in order, against the delivery's now.
        let fetched = try await store.read { try $0.fetch(query) }
        #expect(first.sections.flatMap { $0.rows.map(\.id) } == fetched.map(\.id))
        #expect(first.sections.flatMap { Array($0.rows) } == fetched.map { TimelineRow($0, now: Self.now) })
        #expect(first.sections.map(\.key) == Array(Set(fetched.map { TimelineDay($0.created).key })).sorted(by: >))
        let snapshot = builder.message(for: first)
        #expect(snapshot.sections?.reduce(0) { $0 + $1.rows.count } == Int(n))

        // One new tweet: the change message makes the inserted row and nothing else.
        made.reset()
        try await TimelineIngest.ingest(TimelinePage(tweets: [Sample.tweet(n + 1, "bob", at: Self.now - 1_500)]),
                                        list: Sample.list, into: store)
        let second = try #require(try await updates.next())
        #expect(made.value == 0)
        let change = builder.message(for: second)
        #expect(change.type == .change)
        #expect(change.rowInsertions?.map(\.row.id) == [n + 1])
        #expect(change.rowInsertions?.map(\.at) == [[0, 1]])
        #expect(made.value == 1, "a one-row change makes its one row, not the timeline's \(n + 1)")

        // A deletion makes no row at all.
        made.reset()
        try await store.write { tx in _ = try tx.delete(Tweet.self, key: 2) }
        let third = try #require(try await updates.next())
        let deletion = builder.message(for: third)
        #expect(deletion.rowDeletions == [[0, 2]])
        #expect(made.value == 0)
    }
}

private extension MadeCount {
    func reset() { add(-value) }
}
