import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// A timeline with a limit: the newest rows only, a window that "load older" grows, and feed
/// messages that say what crossed its end; the reference renderer refuses a message that breaks
/// its window.
@Suite("Feed windows")
struct FeedWindowTests {
    static let now = Sample.saturday + 3600

    static func store(tweets: Int) async throws -> Store {
        let store = try Store.temporary(collections: TweetieDatabase.collections)
        try await store.write { tx in
            for id in 1...Int64(tweets) {
                try tx.add(Sample.tweet(id, "ann", at: Sample.saturday - Double(id) * 7_200, lists: [Sample.list.key]))
            }
        }
        return store
    }

    @Test func loadOlderGrowsTheWindowByInsertionsAtItsEnd() async throws {
        let store = try await Self.store(tweets: 30)
        defer { store.close() }
        let updates = ListTimelineViewModel.tweets(of: Sample.list, in: store, sections: .day, limit: 10, now: { Self.now })
        let iterator = UncheckedBox(updates.makeAsyncIterator())
        func next() async throws -> TimelineUpdate {
            try await withTimeout("an update") { try await ObservationEnded.unwrap(iterator.value.next()) }
        }
        let first = try await next()
        #expect(first.rowCount == 10 && first.window?.hasMore == true && first.window?.limit == 10)
        #expect(first.sections.flatMap { $0.rows.map(\.id) } == (1...10).map { Int64($0) }, "the newest ten")
        var builder = FeedBuilder<TimelineRow>(feed: "list")
        var state = FeedState<TimelineRow>()
        try state.apply(builder.message(for: first))

        iterator.value.setLimit(25)
        let grown = try await next()
        #expect(grown.rowCount == 25 && grown.window?.hasMore == true)
        let message = builder.message(for: grown)
        #expect(message.type == .change && message.window == FeedMessage<TimelineRow>.Window(limit: 25, more: true))
        // Each of the 15 is named, in a section the window had or in one it gains.
        #expect(message.windowEntered?.count == 15)
        #expect(message.rowDeletions == [] && message.windowLeft == [])
        try state.apply(message)
        #expect(state.sections.flatMap { $0.rows.map(\.id) } == (1...25).map { Int64($0) })

        // Past the end: every row, and no more to load.
        iterator.value.setLimit(100)
        let all = try await next()
        try state.apply(builder.message(for: all))
        #expect(all.rowCount == 30 && all.window?.hasMore == false && state.window?.more == false)

        // A new tweet in a full window of 30: the oldest leaves.
        iterator.value.setLimit(30)
        _ = try await next()
        try await store.write { tx in try tx.add(Sample.tweet(99, "bob", at: Sample.saturday, lists: [Sample.list.key])) }
        let pushed = try await next()
        let change = builder.message(for: pushed)
        #expect(change.windowLeft?.count == 1 && change.windowEntered == [] && change.window?.more == true)
        try state.apply(change)
        #expect(state.sections.flatMap { $0.rows.map(\.id) } == [99] + (1...29).map { Int64($0) })
    }

    @Test func theReferenceRendererRefusesAMessageThatBreaksItsWindow() throws {
        let row = TimelineRow(Sample.tweet(1, at: Sample.saturday), now: Self.now)
        let section = FeedSection(key: "2018-12-08", title: "Saturday", rows: [row, TimelineRow(Sample.tweet(2, at: Sample.saturday - 60), now: Self.now)])
        var snapshot = FeedMessage(snapshot: [section], feed: "list", position: .origin)
        snapshot.window = .init(limit: 1, more: true)
        var state = FeedState<TimelineRow>()
        #expect(throws: FeedState<TimelineRow>.InvalidMessage.self) { try state.apply(snapshot) }
        snapshot.window = .init(limit: 2, more: false)
        try state.apply(snapshot)

        var change = FeedMessage<TimelineRow>(changeFor: "list", position: .origin)
        change.window = .init(limit: 2, more: true)
        change.rowInsertions = [.init(at: [0, 0], row: TimelineRow(Sample.tweet(3, at: Sample.saturday + 60), now: Self.now))]
        #expect(throws: FeedState<TimelineRow>.InvalidMessage.self) { try state.apply(change) }
        change.rowDeletions = [[0, 1]]
        change.windowLeft = [[0, 5]]
        #expect(throws: FeedState<TimelineRow>.InvalidMessage.self) { try state.apply(change) }
        change.windowLeft = [[0, 1]]
        try state.apply(change)
        #expect(state.sections[0].rows.map(\.id) == [3, 1] && state.window?.more == true)
    }
}
