import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A sectioned observation of a query with a limit delivers the first rows of the query's
/// results: the same rows as a fetch with that limit, commit after commit and after a resize.
@Suite("Windowed sectioned observations")
struct SectionedWindowObservationTests {
    typealias DayRows = InitialResultsTests.DayRows
    /// Newest first (the index is descending), as the day sections are: the window is the first rows.
    static let query = Query<Post>().sorted(byIndex: "created")

    /// With `sectionsFollowQueryOrder` the window holds and reads its rows only; without, it is
    /// kept over every matching record. Both deliver the same windows.
    @Test(arguments: [UInt64(31), 32, 33], [false, true])
    func windowsMatchAFetchWithTheLimit(seed: UInt64, holdsOnlyItsRows: Bool) async throws {
        var rng = SeededRandom(seed: seed)
        let store = try await InitialResultsTests.filledStore()
        defer { store.close() }
        var limit = 12
        let iterator = UncheckedBox(store.observe(Self.query.limit(limit), sectionedBy: { LiveQueryTests.Day($0.created) },
                                                  sectionOrder: .descending, sectionsFollowQueryOrder: holdsOnlyItsRows).makeAsyncIterator())
        var change = try await LiveQueryTests.nextSectioned(iterator)
        #expect(change.isInitial)
        var held = try await Self.check(change, store: store, limit: limit, "initial")
        for step in 0..<25 {
            let context = "seed \(seed) step \(step) holds only its rows \(holdsOnlyItsRows)"
            var touched: Set<Int64> = []
            if step % 6 == 5 {
                limit = [1, 3, 12, 40, 200].randomElement(using: &rng)!
                iterator.value.setLimit(limit)
            } else {
                touched = try await Self.randomCommit(store, newest: Int64(2_000 + step), &rng)
            }
            change = try await LiveQueryTests.nextSectioned(iterator)
            #expect(!change.isInitial, "\(context)")
            let applied = change.changeset.apply(to: held, insertedSection: { change.results.rows(inSection: $0).map(\.id) },
                                                 newElement: { change.results[$0].id })
            let before = Set(held.flatMap { $0 })
            let previous = held
            held = try await Self.check(change, store: store, limit: limit, context)
            #expect(applied == held, "\(context): the changeset applied to the previous window")
            // Rows the commit did not change that crossed the window's end, and only those.
            let after = Set(held.flatMap { $0 })
            let entered = change.window?.entered.map { held[$0.section][$0.row] } ?? []
            let left = change.window?.left.map { previous[$0.section][$0.row] } ?? []
            #expect(Set(entered) == after.subtracting(before).subtracting(touched), "\(context): entered")
            #expect(Set(left) == before.subtracting(after).subtracting(touched), "\(context): left")
            if holdsOnlyItsRows { #expect(iterator.value.heldRowCount <= limit, "\(context): rows held") }
        }
    }

    @Test func anOffsetIsRefused() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(Self.query.offset(5).limit(5), sectionedBy: { LiveQueryTests.Day($0.created) }).makeAsyncIterator())
        await #expect(throws: StoreError.self) { _ = try await iterator.value.next() }
    }

    @Test func anUnlimitedObservationHasNoWindow() async throws {
        let store = try await InitialResultsTests.filledStore()
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(Self.query, sectionedBy: { LiveQueryTests.Day($0.created) }).makeAsyncIterator())
        #expect(try await LiveQueryTests.nextSectioned(iterator).window == nil)
    }

    /// Checks the element against a fetch with the limit; returns its sections' ids.
    static func check(_ change: SectionedQueryChange<LiveQueryTests.Day, Post>, store: Store, limit: Int, _ context: String) async throws -> [[Int64]] {
        let all = try await store.read { try $0.fetch(query) }
        let expected = InitialResultsTests.expected(Array(all.prefix(limit)))
        #expect(InitialResultsTests.flattened(change.results) == expected, "\(context): the window")
        #expect(change.window?.limit == limit, "\(context)")
        #expect(change.window?.hasMore == (all.count > limit), "\(context): hasMore")
        return expected.map(\.ids)
    }

    /// Adds a newest post (so that the window changes) and adds, deletes or moves a few more, at
    /// the top of the timeline or anywhere; returns the ids it wrote or deleted.
    @discardableResult
    static func randomCommit(_ store: Store, newest: Int64, _ rng: inout SeededRandom) async throws -> Set<Int64> {
        let seeds = (0..<4).map { _ in (Int.random(in: 0..<4, using: &rng), Int64.random(in: 0..<120, using: &rng), Int.random(in: 0..<140, using: &rng)) }
        try await store.write { tx in
            try tx.add(LiveQueryTests.post(newest, "bob", hour: 400 + Int(newest)))
            for (kind, id, hour) in seeds {
                switch kind {
                case 0: try tx.add(LiveQueryTests.post(1_000 + id, "ann", hour: 150 + hour), update: .all)  // newest
                case 1: _ = try tx.delete(Post.self, key: id)
                case 2:
                    if var post = try tx.get(Post.self, key: id) {
                        post.created = LiveQueryTests.epoch.addingTimeInterval(Double(hour) * 3600)
                        try tx.add(post, update: .all)
                    }
                default:
                    if var post = try tx.get(Post.self, key: id) {
                        post.likes += 1
                        try tx.add(post, update: .all)
                    }
                }
            }
        }
        return Set([newest] + seeds.map { $0.0 == 0 ? 1_000 + $0.1 : $0.1 })
    }
}
